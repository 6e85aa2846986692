"""``verify``'s words where a number is said: a hand whose moves stop short of its recorded
scores says what is missing (never "the moves give ." with nothing after it), and a count of
stock rebuilds is singular or plural as the number wants, in English and Russian. And the seat
order it checked, printed for the player to hold against the challenge."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_cli import run
from tests.test_fairness import replay_data
from tests.test_fix156_words import cut_file


def _verify(tmp_path: Path, data: dict[str, Any], *lang: str) -> tuple[int, str]:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return run(["verify", *lang, str(path)])


def _last_moves_dropped(variant: str) -> tuple[dict[str, Any], tuple[int, int]]:
    _, data = replay_data(variant)
    data = copy.deepcopy(data)
    last = data["hands"][-1]
    last["moves"] = last["moves"][:-2]
    a, b = last["scores"]
    return data, (a, b)


@pytest.mark.parametrize("variant", ["english", "russian"])
def test_a_hand_cut_short_says_its_moves_stop_before_the_scores(tmp_path: Path,
                                                                 variant: str) -> None:
    data, (a, b) = _last_moves_dropped(variant)
    code, out = _verify(tmp_path, data)
    assert code == 1, out
    assert "the moves give ." not in out
    # Two scores as a score: "13–41", in Russian «13:41» (not "13 41").
    assert (f"the file records the scores {a}–{b}, but its moves stop before the hand is "
            "over.") in out, out
    code, out = _verify(tmp_path, data, "--lang", "ru")
    assert code == 1, out
    assert "по ходам ." not in out
    assert f"в файле записаны очки {a}:{b}, но ходы обрываются до конца раздачи." in out, out


def _rebuilds_added(count: int) -> dict[str, Any]:
    """A file whose first hand records ``count`` rebuilds more than its moves make."""
    _, data = replay_data()
    data = copy.deepcopy(data)
    hand = next(h for h in data["hands"] if not h["rebuilds"])
    stock = hand["deal"]["stock"]
    # Equal to nothing the moves make: the count is what differs, said first.
    hand["rebuilds"] = [{"after": len(hand["moves"]) + 1 + i, "stock": stock[:3]}
                        for i in range(count)]
    return data


@pytest.mark.parametrize(("count", "english", "russian"), [
    (1, "the file records 1 stock rebuild, the moves make 0.",
     "в файле 1 колода из сброса, по ходам 0."),
    (2, "the file records 2 stock rebuilds, the moves make 0.",
     "в файле 2 колоды из сброса, по ходам 0."),
    (5, "the file records 5 stock rebuilds, the moves make 0.",
     "в файле 5 колод из сброса, по ходам 0."),
])
def test_a_count_of_rebuilds_is_singular_or_plural(tmp_path: Path, count: int, english: str,
                                                   russian: str) -> None:
    data = _rebuilds_added(count)
    code, out = _verify(tmp_path, data)
    assert code == 1 and english in out, out
    code, out = _verify(tmp_path, data, "--lang", "ru")
    assert code == 1 and russian in out, out


@pytest.mark.parametrize("swapped", [False, True])
def test_verify_prints_the_seat_order_it_checked(tmp_path: Path, swapped: bool) -> None:
    # The seats are the file's word, as the players were named: swapped, the file still
    # verifies, so the seats are printed for the player to hold against the challenge's (a
    # file cut by a player: one from before cuts had no seats announced, test_fix156_words).
    data = cut_file()
    if swapped:
        data["players"] = data["players"][::-1]
    first, second = data["players"]
    code, out = _verify(tmp_path, data)
    assert code == 0, out
    assert (f"Seats: {first} seat 0 (draws first for dealer), {second} seat 1: check they "
            "match the seats announced before the deck was cut.") in out, out
    code, out = _verify(tmp_path, data, "--lang", "ru")
    assert code == 0, out
    assert (f"Места: место 0 — {first}, место 1 — {second} (жребий тянут, начиная "
            "с места 0): проверьте, что места совпадают с объявленными до снятия "
            "колоды.") in out, out


def test_a_file_with_no_hands_names_no_game_0(tmp_path: Path) -> None:
    # Games and hands count from 1: with no hand in the file there is none to name.
    _, data = replay_data()
    data = copy.deepcopy(data)
    data["hands"] = []
    code, out = _verify(tmp_path, data)
    assert code == 1, out
    assert "Game 0" not in out
    assert ("The file's hands and the moves disagree (count: the file has 0, the moves give 1)."
            in out), out
    code, out = _verify(tmp_path, data, "--lang", "ru")
    assert code == 1 and "Партия 0" not in out, out
