"""The words review136 read (fix156): the terminal's, verify's and the bot's, in English and
Russian. A reserve line with no noun before a name; an admin named once, with no gender; the
verify help naming the command as a Russian client shows it; the seats worded alike on the
challenge and in verify, and no announcement to check for a file from before there were any;
the challenge's sealed words short enough for a phone; no "0 stock rebuilds"; scores as
scores; a refusal that names both draws; the session's files named for both; the replay file
given to verify told apart; one colon where a word is no move; the Russian command words."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.challenge_text import challenge_embed
from cogs.umtali.history import replay_filename
from cogs.umtali.practice import offer_embed
from data.models import Challenge
from tests.test_fairness import replay_data
from umtali import RuleSet, Session
from umtali.cli import main
from umtali.fairness import commit
from umtali.i18n import tr_for
from umtali.replay import from_session

EN, RU = tr_for("en"), tr_for("ru")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, io.StringIO(stdin), out)
    return code, out.getvalue()


def cut_file() -> dict[str, Any]:
    """A deals file of a session cut by a click, its first hand dealt (no stock rebuilt)."""
    seed, salt, cut = "0f" * 16, "ab" * 16, "1445123456789012345"
    session = Session(RuleSet.english(), f"{seed}/{cut}")
    data = from_session(session, ("ada", "bo"), commit(seed, salt), cut=cut)
    data["reveal"] = {"seed": seed, "salt": salt}
    return data


def _verify(tmp_path: Path, data: dict[str, Any] | str, *lang: str) -> tuple[int, str]:
    path = tmp_path / "file"
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return _run(["verify", *lang, str(path)])


# -- the bot's words ------------------------------------------------------------------------


def test_the_admins_end_names_the_admin_once_and_gives_no_gender() -> None:
    from cogs.umtali.admin_end import ENDED_BY
    assert EN(ENDED_BY, admin="chief") == "An admin, chief, ended this match: no result."
    assert RU(ENDED_BY, admin="chief") == "Матч завершён администратором (chief): без результата."


CHALLENGE = Challenge(id=1, guild_id=1, channel_id=1, message_id=None,
                      challenger_id=123456789012345678, opponent_id=223456789012345678,
                      challenger_name="ada", opponent_name="bo", variant="english",
                      optional_melding=False, turn_timer=120, created_at=0,
                      expires_at=1_800_000_000, status="open", match_id=None,
                      time_control="normal", commitment="a" * 64, seed="1", salt="s")


@pytest.mark.parametrize(("lang", "longest", "practice_longest"),
                         [("en", 770, 740), ("ru", 870, 820)])
def test_the_challenge_reads_on_a_phone(lang: str, longest: int, practice_longest: int) -> None:
    # It was 804 characters in English, 916 in Russian, the cut said four or five times; the
    # practice offer 760 and 845.
    tr = tr_for(lang)
    said = challenge_embed(CHALLENGE, tr).description or ""
    assert len(said) <= longest, (len(said), said)
    assert said.lower().count("cut") <= 1 and said.lower().count("сня") <= 1, said
    practice = offer_embed(dataclasses.replace(CHALLENGE, computer_level="easy"), tr)
    offer = practice.description or ""
    assert len(offer) <= practice_longest, (len(offer), offer)


def test_the_session_files_button_and_menu() -> None:
    assert RU("Session files") == "Файлы матча"
    said = RU("**{button}** below sends the session's replay file (its moves) and its deals "
              "file, which `python3 -m umtali verify` checks.", button="x")
    assert "присылает" in said and "даёт" not in said, said
    for tr in (EN, RU):
        # Discord's menus show about 30 characters on a phone.
        assert len(tr("Get a session's files…")) <= 30
    # The replay beside the deals file it comes with: umtali-42-deals.json.
    assert replay_filename(42) == "umtali-42-replay.txt"


# -- verify ---------------------------------------------------------------------------------


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv, io.StringIO(""), io.StringIO())
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_verifys_help_names_the_command_as_a_russian_client_shows_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = flat = _help(["verify", "--help", "--lang", "ru"], capsys)
    assert "/umtali история (history)" in flat, out
    assert "«Файлы матча»" in flat, out
    assert "вердикт не удалось вывести" in flat, out
    out = flat = _help(["verify", "--help"], capsys)
    assert "2 no verdict (bad input, or the verdict could not be written)" in flat, out


@pytest.mark.parametrize(("lang", "said"), [
    ((), "the seed is empty: give a number or some text"),
    (("--lang", "ru"), "зерно пустое: укажите число или текст"),
])
def test_an_empty_seed(capsys: pytest.CaptureFixture[str], lang: tuple[str, ...],
                       said: str) -> None:
    with pytest.raises(SystemExit):
        main(["play", *lang, "--seed", " "], io.StringIO(""), io.StringIO())
    assert said in capsys.readouterr().err


def test_a_fair_file_with_no_stock_rebuilt_says_none(tmp_path: Path) -> None:
    data = cut_file()
    code, out = _verify(tmp_path, data)
    assert code == 0, out
    flat = " ".join(out.split())
    assert "stock rebuild" not in flat, out
    assert "The draw for first dealer and 1 deal are the ones this seed gives" in flat, out
    code, out = _verify(tmp_path, data, "--lang", "ru")
    assert code == 0 and "из сброса" not in out, out


def test_a_file_from_before_cuts_asks_to_check_no_announcement(tmp_path: Path) -> None:
    _, data = replay_data()
    data = copy.deepcopy(data)
    data.pop("cut", None)
    data["version"] = 1
    code, out = _verify(tmp_path, data)
    assert code == 0, out
    first, second = data["players"]
    flat = " ".join(out.split())
    assert f"Seats: {first} seat 0 (draws first for dealer), {second} seat 1." in flat, out
    assert "announced" not in flat, out
    code, out = _verify(tmp_path, data, "--lang", "ru")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "Места: место 0 — ada, место 1 — bo (" in flat and "объявлен" not in flat, out


@pytest.mark.parametrize(("lang", "pair"), [((), "{a}–{b}"), (("--lang", "ru"), "{a}:{b}")])
def test_scores_in_verify_read_as_scores(tmp_path: Path, lang: tuple[str, ...],
                                         pair: str) -> None:
    _, data = replay_data()
    data = copy.deepcopy(data)
    last = data["hands"][-1]
    a, b = last["scores"]
    last["scores"] = [a + 1, b]
    code, out = _verify(tmp_path, data, *lang)
    assert code == 1, out
    flat = " ".join(out.split())
    assert pair.format(a=a + 1, b=b) in flat and pair.format(a=a, b=b) in flat, out
    assert f"{a + 1} {b}" not in flat, out


@pytest.mark.parametrize("lang", [(), ("--lang", "ru")])
def test_the_replay_file_given_to_verify_is_named(tmp_path: Path, lang: tuple[str, ...],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    replay = "# Umtali session #42, finished 2026-12-01 10:00 UTC\ndraw\ndiscard KS\n"
    code, _ = _verify(tmp_path, replay, *lang)
    assert code == 2
    err = capsys.readouterr().err
    tr = tr_for(lang[-1] if lang else "en")
    assert tr("this looks like the replay file (the moves); verify reads the deals file, "
              "umtali-N-deals.json") in err, err
    assert "umtali-N-deals.json" in err and "JSON:" not in err, err


# -- the terminal ---------------------------------------------------------------------------

PLAY = ["play", "--seed", "3", "--level", "easy", "--no-review"]


def test_a_word_that_is_no_move_says_the_moves_after_one_colon() -> None:
    _, out = _run(PLAY, "blah\nquit\n")
    assert "'blah' is not a move. Moves: draw, take, take 2," in out, out
    assert "moves are:" not in out


def test_the_russian_terminal_names_its_words_and_reads_them() -> None:
    typed = "ходы\nстол\nподсказка\nвыход\n"
    _, out = _run([*PLAY, "--lang", "ru"], typed)
    assert "'помощь'" in out.splitlines()[0], out.splitlines()[0]
    assert "не ход" not in out, out
    # The table printed, the moves listed (twice: "ходы" and "стол"), the hint given.
    assert out.count(RU("Moves: {moves}", moves="")) >= 3, out
    _, help_said = _run([*PLAY, "--lang", "ru"], "помощь\nвыход\n")
    for word in ("ходы", "стол", "подсказка"):
        assert word in help_said, help_said
