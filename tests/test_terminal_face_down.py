"""The terminal game lays a last discard face down unless told otherwise (the rules' default,
as the bot's): ``discard KS`` going out is face down, ``discard KS up`` face up."""

from __future__ import annotations

import io

import pytest

import umtali.cli_play
from tests.helpers import cards, position
from umtali import Move, RuleSet
from umtali.cli import main
from umtali.cli_moves import listed, move_text, read_move
from umtali.session import Session

GOING_OUT = ("2C", "3C 3D 9H KD")  # the player holds one card, in the meld phase
TWO_CARDS = ("2C 9H", "3C 3D KD")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _play(monkeypatch: pytest.MonkeyPatch, hands: tuple[str, str], typed: str,
          *options: str) -> str:
    """The terminal game from a hand-made position: the player (seat 0) to meld or discard."""

    def session(rules: RuleSet, seed: int) -> Session:
        made = Session(rules, seed)
        made.hand = position(hands=hands, stock="5S KH", rest="discard")
        return made

    monkeypatch.setattr(umtali.cli_play, "Session", session)
    out = io.StringIO()
    code = main(["play", "--seed", "4", "--level", "easy", "--no-review", *options],
                io.StringIO(typed + "\nquit\n"), out)
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize("typed", ["discard 2c", "discard 2♣", "discard 2c down", "1"])
def test_the_last_card_goes_face_down_by_default(monkeypatch: pytest.MonkeyPatch,
                                                  typed: str) -> None:
    out = _play(monkeypatch, GOING_OUT, typed)
    assert "Moves: 1) discard 2♣, 2) discard 2♣ up\n" in out
    assert ("Going out: your last card is laid face down; type 'discard 2♣ up' to lay it face "
            "up.") in out
    assert "Player discards face down (2♣).\nPlayer goes out!" in out


@pytest.mark.parametrize("typed", ["discard 2c up", "DISCARD 2C Up", "discard 2c face-up", "2"])
def test_up_lays_the_last_card_face_up(monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    out = _play(monkeypatch, GOING_OUT, typed)
    assert "Player discards 2♣.\nPlayer goes out!" in out


@pytest.mark.parametrize("typed", ["discard 9h", "discard 9h up"])
def test_a_discard_that_does_not_go_out_is_face_up(monkeypatch: pytest.MonkeyPatch,
                                                   typed: str) -> None:
    out = _play(monkeypatch, TWO_CARDS, typed)
    assert "Moves: 1) discard 9♥, 2) discard 2♣\n" in out
    assert "Going out:" not in out
    assert "Player discards 9♥." in out


def test_down_is_refused_when_not_the_last_card(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(monkeypatch, TWO_CARDS, "discard 9h down")
    assert "Only your last card, when you go out, may be discarded face down." in out
    assert "Player discards" not in out


def test_the_hint_is_written_as_the_terminal_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(monkeypatch, GOING_OUT, "hint\ndiscard 2c")
    [hint] = [line for line in out.splitlines() if "Hint:" in line]
    assert "Hint: discard 2♣ (the hard computer's move)." in hint


def test_the_help_says_how_to_lay_it_face_up(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(monkeypatch, GOING_OUT, "help\ndiscard 2c")
    assert "going out, your last card is laid face down:" in out
    assert "'discard KS up' lays it face up" in out


def test_in_russian(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(monkeypatch, GOING_OUT, "help\ndiscard 2c", "--lang", "ru")
    # The move as listed, in Russian words, which read back (``move_words``).
    assert ("Выход: последняя карта ложится рубашкой вверх; чтобы положить её открытой, "
            "наберите 'сбросить 2♣ в открытую'.") in out
    assert "'сбросить Кп в открытую' кладёт её открытой" in out
    assert "рубашкой вверх (2♣)" in out


def test_the_engines_notation_is_unchanged() -> None:
    # ``script``, replays and the bot read the engine's notation: there ``discard 2C`` is face
    # up; only the terminal game reads it face down, and only for a last card.
    assert Move.parse("discard 2C") == Move.discard(cards("2C")[0])
    down, up = Move.discard(cards("2C")[0], True), Move.discard(cards("2C")[0])
    assert listed([up, down]) == [down, up]
    assert read_move("discard 2c", [up, down], "en") == down
    assert read_move("discard 2c", [up], "en") == up  # face down is not legal: face up, as typed
    assert move_text(down, [up, down]) == "discard 2♣"
    assert move_text(up, [up, down]) == "discard 2♣ up"
    assert move_text(up, [up]) == "discard 2♣"


def test_a_face_down_top_still_shows_the_piles_size(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hotseat: the player goes out face down, and the other sees the table for the last turn.
    # The pile's size stays on the table, as on Discord's (a face-down top hides only the top).
    def session(rules: RuleSet, seed: int) -> Session:
        made = Session(rules, seed)
        made.hand = position(hands=("2C", "3C 3D 9H KD"), stock="5S KH", discard="4H 6S",
                             rest="discard")
        return made

    monkeypatch.setattr(umtali.cli_play, "Session", session)
    for lang, shown in (("en", "Discard pile: 6♠ (then 4♥; 45 cards)."),
                        ("ru", "Сброс: 6♠ (под ней 4♥; 45 карт).")):
        out = io.StringIO()
        assert main(["play", "--seed", "4", "--hotseat", "--no-handover", "--lang", lang],
                    io.StringIO("discard 2c\nquit\n"), out) == 0
        assert shown in out.getvalue()
        after = out.getvalue().split(shown)[1]
        assert ("Discard pile: face down (46 cards)." if lang == "en"
                else "Сброс: рубашкой вверх (46 карт).") in after, after


@pytest.mark.parametrize("typed", ["draw 2", "lay 2c", "\x01"])
def test_a_line_that_is_no_move_is_answered_in_the_terminals_notation(
        monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    # The notation of ``script`` and replays has ``discard <card> [down]``; the terminal
    # lays a last card face down unless told ``up``, and its answer says so.
    # (In Russian, the Russian move words the terminal lists and reads: ``move_words``.)
    for lang, shown in (("en", "discard <card> [up]"), ("ru", "сбросить <карта> [в открытую]")):
        out = _play(monkeypatch, GOING_OUT, f"{typed}\ndiscard 2c", "--lang", lang)
        [answer] = [line for line in out.splitlines()
                    if "extend <" in line or "приложить <" in line]
        assert shown in answer and "[down]" not in answer, answer
