"""``python -m umtali``'s command line: an empty or a very long seed refused in a few words,
``simulate`` taking ``--lang`` as the other commands do, help for every option, and ``--name``
made plain as the bot's names are."""

from __future__ import annotations

import io

import pytest

from umtali.cli import main


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv, io.StringIO("quit\n"), io.StringIO())
    assert exit_.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "script"])
@pytest.mark.parametrize("seed", ["", "   "])
def test_an_empty_seed_is_refused(command: str, seed: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused([command, "--seed", seed], capsys)
    assert "argument --seed: the seed is empty: give a number or some text" in err


@pytest.mark.parametrize("seed", ["9" * 5000, "x" * 5000])
def test_a_very_long_seed_is_refused_without_being_said_back(
        seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["play", "--seed", seed], capsys)
    assert "the seed is too long: at most 256 characters" in err
    assert len(err) < 1000


def test_simulate_seed_is_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["simulate", "--seed", "abc"], capsys)
    assert "the seed of simulate is a whole number" in err
    err = _refused(["simulate", "--seed", "9" * 5000], capsys)
    assert "too long" in err and len(err) < 1000


def test_simulate_takes_lang_as_the_others_do() -> None:
    out = io.StringIO()
    assert main(["simulate", "--hands", "2", "--lang", "ru"], io.StringIO(), out) == 0
    assert out.getvalue().startswith("hands: 2 (random players")  # statistics in English


def test_the_help_of_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "--seed SEED the first session's seed, a whole number" in said
    assert "--players {random,greedy} random (default): both play random legal moves" in said
    assert "--lang {en,ru} the language of this help; the statistics are in English" in said
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "--seed SEED fix the shuffles: any text or number" in said


@pytest.mark.parametrize(("typed", "shown"), [
    ("Ada\nComputer 3 points", "Ada Computer 3 points"),  # no forged line
    ("\x1b[31mRed\x1b[0m", "[31mRed[0m"),  # no colour: the escape character is gone
    ("A" * 5000, "A" * 32),
    ("\u202eadA", "adA"),  # no reversed text
])
def test_a_name_is_made_plain(typed: str, shown: str) -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "3", "--no-review", "--name", typed],
                io.StringIO("quit\nyes\n"), out) == 0
    said = out.getvalue()
    assert f"\n{shown}> Stop the game here?" in said
    assert "\x1b" not in said and "\u202e" not in said and "A" * 33 not in said


def test_a_name_of_nothing_visible_is_the_default() -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "3", "--no-review", "--name", "\u200b\n"],
                io.StringIO("quit\nyes\n"), out) == 0
    assert "\nPlayer> Stop the game here?" in out.getvalue()
    assert out.getvalue().endswith(": Bye.\n")
