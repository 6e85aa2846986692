"""The terminal: play, script and simulate, driven through ``umtali.cli.main``."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from umtali.cli import main

DEAL = Path(__file__).parent.parent / "docs" / "examples" / "deal.json"


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's locale picks the language: these tests speak English unless they say."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, io.StringIO(stdin), out)
    return code, out.getvalue()


def test_script_prints_every_event() -> None:
    code, out = run(["script", "--deal", str(DEAL)],
                    "meld 8d 9d 10d\nmeld jc  # a lone jack\n\nmeld 5s 5h 5c\ndiscard kh\ndraw\n")
    assert code == 0
    assert out.splitlines() == [
        "Game 1, hand 1: Player 2 deals.",
        "Player 1 melds 8♦ 9♦ 10♦, a sequence, +7.",
        "Player 1 melds J♣, a lone jack, +5.",
        "Player 1 melds 5♠ 5♥ 5♣, a group, +3.",
        "Player 1 discards K♥.",
        "Player 2 draws from the stock (4♥).",
        "To act: Player 2. Legal: extend 7D 8D",
    ]


def test_script_stops_at_an_illegal_move_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["script", "--deal", str(DEAL)], "meld 8d 9d 10d\ndiscard kh\n")
    assert code == 1
    assert "line 2: discard kh: melding is compulsory" in capsys.readouterr().err


def test_script_json_has_events_state_and_scores() -> None:
    code, out = run(["script", "--seed", "4", "--json"], "")
    assert code == 0
    data = json.loads(out)
    assert data["events"][0]["type"] == "dealer_chosen"
    assert data["state"]["format"] == 1 and data["state"]["seed"] == 4
    assert data["scores"] == {"game": [0, 0], "games_won": [0, 0], "winner": -1}


def test_script_replays_a_whole_session_from_its_moves() -> None:
    from tests.test_golden import GOLDEN

    text = (GOLDEN / "english-greedy-seed1.txt").read_text(encoding="utf-8")
    moves = "\n".join(line[2:] for line in text.splitlines() if line.startswith("> "))
    code, out = run(["script", "--seed", "1", "--json"], moves)
    assert code == 0
    assert json.loads(out)["scores"]["winner"] == 0
    assert json.loads(out)["events"][-1]["type"] == "session_ended"


def test_script_rejects_a_bad_deal_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "deal.json"
    bad.write_text('{"dealer": 0, "hands": [["AS"], ["AS"]], "stock": []}')
    code, _ = run(["script", "--deal", str(bad)])
    assert code == 2
    assert "52 cards" in capsys.readouterr().err


def test_play_against_the_computer_to_the_end_of_a_session() -> None:
    # Always choose move 1: a full session must finish with a winner.
    code, out = run(["play", "--seed", "9"], "help\nfoo\n0\n1\n" + "1\n" * 5000)
    assert code == 0
    assert "wins the session" in out
    assert "'foo' is not a move" in out
    assert "There is no move 0" in out
    assert "Computer draws from the stock (" not in out  # the computer's draws stay hidden


def test_play_hotseat_shows_each_player_their_own_hand() -> None:
    code, out = run(["play", "--seed", "9", "--hotseat"], "1\n1\n1\nquit\n")
    assert code == 0
    assert out.count("Your hand:") >= 2
    assert "Player 2> " in out


def test_play_quits_at_end_of_input() -> None:
    code, out = run(["play", "--seed", "2"], "")
    assert code == 0 and out.endswith("Bye.\n")


def test_simulate_reports_statistics() -> None:
    code, out = run(["simulate", "--hands", "30", "--seed", "5"])
    assert code == 0
    assert "hands: 30" in out and "hands per second" in out and "went out" in out


# -- verify -------------------------------------------------------------------------------


def _replay_file(tmp_path: Path, *, reveal: bool = True) -> tuple[Path, dict[str, object]]:
    from tests.test_fairness import SALT, replay_data

    seed, data = replay_data()
    if not reveal:
        data["reveal"] = None
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, {"seed": seed, "salt": SALT, "commitment": data["commitment"]}


def test_verify_reads_commitment_and_reveal_from_the_file(tmp_path: Path) -> None:
    path, _ = _replay_file(tmp_path)
    code, out = run(["verify", str(path)])
    assert code == 0
    assert "FAIR" in out and "NOT" not in out
    assert "check it is the one the bot posted" in out  # the commitment came from the file
    assert re.search(r"\b[1-9][0-9]* deals and [1-9][0-9]* stock rebuilds?\b", out)


def test_verify_takes_them_as_options(tmp_path: Path) -> None:
    path, given = _replay_file(tmp_path, reveal=False)
    code, out = run(["verify", "--commitment", str(given["commitment"]).upper(),
                     "--seed", str(given["seed"]), "--salt", str(given["salt"]), str(path)])
    assert code == 0 and "FAIR" in out
    assert "check it is the one" not in out


def test_verify_names_the_hand_of_a_changed_card(tmp_path: Path) -> None:
    path, _ = _replay_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    deal = data["hands"][2]["deal"]
    deal["hands"][0][0], deal["stock"][5] = deal["stock"][5], deal["hands"][0][0]
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(["verify", str(path)])
    assert code == 1
    assert "Game 1, hand 3: ada's hand (seat 0) in the deal is not the one the seed gives" in out
    assert "NOT VERIFIED" in out


def test_verify_a_wrong_salt_is_a_mismatch(tmp_path: Path) -> None:
    path, _ = _replay_file(tmp_path)
    code, out = run(["verify", "--salt", "0" * 32, str(path)])
    assert code == 1
    assert "do not open it" in out


@pytest.mark.parametrize("content", ["not json", '{"format": "umtali-replay", "version": 1}',
                                     "[]"])
def test_verify_a_bad_file_is_bad_input(tmp_path: Path, content: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out = run(["verify", str(path)])
    assert (code, out) == (2, "")
    assert "cannot read the deals file" in capsys.readouterr().err


def test_verify_without_a_reveal_asks_for_it(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _replay_file(tmp_path, reveal=False)
    code, _ = run(["verify", str(path)])
    assert code == 2
    assert "give --seed, --salt" in capsys.readouterr().err
    code, _ = run(["verify", str(tmp_path / "missing.json")])
    assert code == 2


@pytest.mark.parametrize("option", [["--commitment", "abc"], ["--salt", "XYZ"]])
def test_verify_malformed_options_are_bad_input(tmp_path: Path, option: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _replay_file(tmp_path)
    code, _ = run(["verify", *option, str(path)])
    assert code == 2
    assert "cannot verify" in capsys.readouterr().err


def test_verify_runs_as_a_module(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    path, _ = _replay_file(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    done = subprocess.run([sys.executable, "-m", "umtali", "verify", str(path)],
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert "FAIR" in done.stdout


def test_script_takes_a_text_seed_as_the_bot_may_make_one() -> None:
    from umtali import Card, RuleSet, Session

    code, out = run(["script", "--seed", "3fa9c0de", "--json"], "")
    assert code == 0
    state = json.loads(out)["state"]
    assert state["seed"] == "3fa9c0de"
    expected = Session(RuleSet.english(), "3fa9c0de").hand
    assert state["hand"]["stock"] == [Card(c).code for c in expected.stock]
    # A decimal seed is still a number, as saved sessions hold it.
    code, out = run(["script", "--seed", "4", "--json"], "")
    assert json.loads(out)["state"]["seed"] == 4


def _rebuilt(data: dict[str, Any]) -> dict[str, Any]:
    hand: dict[str, Any] = next(h for h in data["hands"] if h["rebuilds"])
    return hand


def _swap_stock(cards: list[str]) -> None:
    cards[0], cards[1] = cards[1], cards[0]


# (name, change to the file, what verify says, whether it is about the cards themselves)
CHANGES: list[tuple[str, Callable[[dict[str, Any]], None], str, bool]] = [
    ("dealer", lambda d: d["hands"][1]["deal"].update(dealer=1 - d["hands"][1]["deal"]["dealer"]),
     "Game 1, hand 2: the file has seat", True),
    ("stock", lambda d: _swap_stock(d["hands"][0]["deal"]["stock"]),
     "card 1 from the top: the file has", True),
    ("rebuild stock", lambda d: _swap_stock(_rebuilt(d)["rebuilds"][0]["stock"]),
     "the stock in the stock rebuild is not the one the seed gives", True),
    ("rebuild after", lambda d: _rebuilt(d)["rebuilds"][0].update(after=1),
     "the file rebuilds the stock after move 1 of the hand", True),
    ("rebuild count", lambda d: _rebuilt(d).update(rebuilds=[]),
     "the file records 0 stock rebuilds", True),
    ("move", lambda d: d["hands"][0]["moves"].__setitem__(0, "draw"),
     "Game 1, hand 1: move 1 (draw) cannot be played", False),
    ("scores", lambda d: d["hands"][0].update(scores=[999, 0]),
     "Game 1, hand 1: the moves do not lead to the recorded scores", False),
    ("result", lambda d: d["result"].update(games_won=[0, 0]),
     "the moves do not lead to the recorded winner, games won", False),
    ("draw", lambda d: d["dealer_draw"].update(dealer=1 - d["dealer_draw"]["dealer"]),
     "The draw for first dealer is not the one the seed gives", True),
    ("hands", lambda d: d["hands"].pop(), "Game", False),
]


@pytest.mark.parametrize(("change", "said", "cards"), [c[1:] for c in CHANGES],
                         ids=[c[0] for c in CHANGES])
def test_verify_words_each_mismatch(tmp_path: Path, change: Callable[[dict[str, Any]], None],
                                    said: str, cards: bool) -> None:
    path, _ = _replay_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(["verify", str(path)])
    assert code == 1, out
    assert said in out
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("NOT VERIFIED: ")
    assert ("did not come from the committed seed" in last) == cards


# -- in Russian -----------------------------------------------------------------------------

#: Words typed in every language: the moves, the terminal's commands, the ``<placeholders>``
#: of the notation's summary.
NOTATION = {"draw", "take", "meld", "extend", "discard", "down", "moves", "table", "help",
            "hint", "quit", "exit", "rules", "resign"}


def untranslated(out: str, *names: str) -> list[str]:
    """Lines holding an English word (three letters or more) that is not the notation, a
    player's name or hex; a Russian line has none."""
    found = []
    for line in out.splitlines():
        words = set(re.findall(r"[A-Za-z]{3,}", line)) - NOTATION - set(names)
        words = {w for w in words if not re.fullmatch(r"[0-9a-f]+", w)}
        if words:
            found.append(line)
    return found


def test_play_in_russian_to_the_end_of_a_session() -> None:
    code, out = run(["play", "--seed", "9", "--lang", "ru"],
                    "help\nfoo\n0\nmeld\n1\n" + "1\n" * 5000)
    assert code == 0
    for said in ("Умтали, зерно 9", "Введите ход (как в списке ходов) или его номер",
                 "'foo' — не ход",
                 "Хода 0 нет: выберите от 1 до", "Назовите карты комбинации", "Ваши карты:",
                 "Ходы: 1)", "Комбинации (Компьютер):", "берёт карту из колоды",
                 "Раздача 1 окончена", "выигрывает матч"):
        assert said in out, said
    assert untranslated(out, "foo") == []  # "foo" is what was typed
    assert "Компьютер берёт карту из колоды (" not in out  # the computer's draws stay hidden


def test_play_in_russian_quits_in_russian() -> None:
    code, out = run(["play", "--seed", "2", "--lang", "ru", "--name", "Аня"], "quit\nда\n")
    assert code == 0 and out.endswith("чтобы играть дальше: До встречи.\n")
    assert "\nАня> Закончить игру?" in out
    assert untranslated(out) == []


def test_the_terminal_locale_picks_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert "До встречи." in run(["play", "--seed", "2"])[1]
    assert "Bye." in run(["play", "--seed", "2", "--lang", "en"])[1]  # --lang comes first
    monkeypatch.setenv("LC_ALL", "C")  # LC_ALL before LANG: C is not a language the bot speaks
    assert "Bye." in run(["play", "--seed", "2"])[1]
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert "Bye." in run(["play", "--seed", "2"])[1]


def test_script_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["script", "--deal", str(DEAL), "--lang", "ru"],
                    "meld 8d 9d 10d\ndiscard kh\n")
    assert code == 1
    assert out.splitlines() == [
        "Партия 1, раздача 1: сдаёт Игрок 2.",
        "Игрок 1 выкладывает 8♦ 9♦ 10♦: последовательность, +7.",
        "Ходит Игрок 1. Допустимые ходы: meld 5S 5H 5C, meld JC",
    ]
    err = capsys.readouterr().err
    assert err.startswith("строка 2: discard kh: выкладывать обязательно")


def test_verify_in_russian(tmp_path: Path) -> None:
    path, _ = _replay_file(tmp_path)
    code, out = run(["verify", str(path), "--lang", "ru"])
    assert code == 0
    assert out.rstrip().splitlines()[-1].startswith("ЧЕСТНО: ")
    assert re.search(r"\b[1-9][0-9]* раздач[аи]? и [1-9][0-9]* колод[аы]? из сброса\b", out)
    assert untranslated(out) == []


@pytest.mark.parametrize(("change", "cards"), [(c[1], c[3]) for c in CHANGES],
                         ids=[c[0] for c in CHANGES])
def test_verify_words_each_mismatch_in_russian(
        tmp_path: Path, change: Callable[[dict[str, Any]], None], cards: bool) -> None:
    path, _ = _replay_file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run(["verify", str(path), "--lang", "ru"])
    assert code == 1, out
    assert untranslated(out, "ada", "bo") == []
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("НЕ ПОДТВЕРЖДЕНО: ")
    assert ("получены не из того зерна" in last) == cards


def test_verify_bad_input_in_russian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _replay_file(tmp_path, reveal=False)
    assert run(["verify", str(path), "--lang", "ru"])[0] == 2
    assert "в файле раздач их нет: укажите --seed, --salt" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "umtali-replay", "version": 1}', encoding="utf-8")
    assert run(["verify", str(bad), "--lang", "ru"])[0] == 2
    assert "не удаётся прочитать файл раздач: неверный файл раздач:" in capsys.readouterr().err
    path, _ = _replay_file(tmp_path)
    assert run(["verify", "--salt", "XYZ", str(path), "--lang", "ru"])[0] == 2
    assert "проверить нельзя: соль" in capsys.readouterr().err


def test_play_refuses_a_move_in_a_sentence_as_the_bot_does() -> None:
    # The engine's reasons start in lower case, for "line 2: discard kh: ..." in scripts; said
    # alone at the prompt, as by the bot (``sentence``), they start with a capital.
    code, out = run(["play", "--seed", "7"], "meld 2S 3S 4S\nfoo\nquit\n")
    assert code == 0
    assert "Player> You don't hold 2♠ 3♠ 4♠.\n" in out
    assert "Player> 'foo' is not a move. Moves: " in out and "discard <card> [up].\n" in out
    code, out = run(["play", "--seed", "7", "--lang", "ru"], "1\n1\n1\ndiscard 8S\nquit\n")
    assert "Игрок> Сначала возьмите карту: " in out
