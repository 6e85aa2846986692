"""The terminal game for a newcomer: ``rules``, a word that is no move pointing to ``help`` and
``quit``, ``exit`` and ``resign`` in the help, ``resign`` asking first, and the commands'
Russian words in a Russian game."""

from __future__ import annotations

import io

import pytest

from umtali.cli import main
from umtali.i18n import tr_for

PLAY = ["play", "--seed", "3", "--level", "easy", "--no-review"]


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _play(typed: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([*PLAY, *extra], io.StringIO(typed), out)
    return code, out.getvalue()


def test_rules_in_short() -> None:
    code, out = _play("rules\nquit\n")
    assert code == 0
    assert "1. The game\nUmtali is a rummy game for two." in out
    assert "3. Melds\n" in out and "Ace is low only" in out
    assert "**" not in out and "`" not in out  # Discord's markdown dropped
    assert "The rules in full: docs/RULES.md" in out


def test_rules_in_russian_and_the_russian_words() -> None:
    ru = tr_for("ru")
    code, out = _play("правила\nпомощь\nвыход\nда\n", "--lang", "ru")
    assert code == 0
    assert f"3. {ru.ctx('rules page', 'Melds')}\n" in out
    assert "docs/RULES.ru.md" in out
    assert "взять из колоды        взять верхнюю карту колоды" in out  # the help
    assert out.rstrip().endswith(ru("Bye."))
    assert ru("{text} is not a move. Moves: {moves}", text="'помощь'", moves="") not in out


def test_a_word_that_is_no_move_points_to_help_and_quit() -> None:
    _, out = _play("xyzzy\nquit\n")
    assert "'xyzzy' is not a move" in out
    assert "Type 'help' for the commands, 'quit' to stop." in out


def test_the_help_names_exit_resign_and_rules() -> None:
    _, out = _play("help\nexit\n")
    assert "rules (the rules in short)" in out
    assert "resign (give up the session)" in out
    assert "quit or exit" in out
    assert out.rstrip().endswith("Bye.")


def test_resign_asks_first() -> None:
    code, out = _play("resign\nno\nresign\nyes\n")
    assert code == 0
    assert out.count("Resign the session? Computer wins it.") == 2
    assert "Play goes on." in out
    assert out.rstrip().endswith("Computer wins the session (Player resigned).")


def test_resign_in_hotseat_gives_the_other_player_the_session() -> None:
    out = io.StringIO()
    code = main(["play", "--seed", "3", "--hotseat", "--no-handover", "--lang", "ru"],
                io.StringIO("сдаться\nда\n"), out)
    assert code == 0
    assert out.getvalue().rstrip().endswith("Игрок 1 выигрывает матч (Игрок 2 сдаётся).")
