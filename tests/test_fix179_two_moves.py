"""A text that says two moves is refused, never read as one of them (review165): «взять две
карты из колоды» (two cards from the stock, which gives one) was read as ``take 2``, the top
two of the discard pile, and applied at once; a card said both face down and face up was read
as one side."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.discord_helpers import World, play, player, start_match, thread_of
from umtali.cards import Card
from umtali.errors import InvalidMoveError
from umtali.i18n import tr_for
from umtali.moves import Move, MoveKind, going_out, typed
from umtali.players import GreedyPlayer, RandomPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.text import move_meaning

RU = tr_for("ru")


@pytest.mark.parametrize("words", [
    "взять 2 карты из колоды", "взять две из колоды", "взять обе из колоды",
    "взять две колоды", "взять колоду 2", "взять колоду сброс", "взять из сброса колоды"])
def test_two_cards_from_the_stock_or_both_places_are_asked(words: str) -> None:
    with pytest.raises(InvalidMoveError) as e:
        typed(words, "ru")
    assert "из колоды или из сброса?" in RU(e.value.text)


def test_the_question_offers_the_two_moves_meant() -> None:
    with pytest.raises(InvalidMoveError) as e:
        typed("взять две из колоды", "ru")
    assert RU(e.value.text).endswith("Введите 'взять из колоды' или 'взять две из сброса'")
    assert typed("взять две из сброса", "ru")[0] == Move.parse("take 2")
    assert typed("взять две", "ru")[0] == Move.parse("take 2")  # only the pile gives two


@pytest.mark.parametrize(("words", "language"), [
    ("сбросить Кп в открытую рубашкой вверх", "ru"), ("сбросить Кп рубашкой вверх открыто", "ru"),
    ("сбросить Кп down в открытую", "ru"), ("discard KS down up", "en"),
    ("выложить 7б к 8б 9б 10б", "ru"), ("выложить 3ч 3б 3т из колоды", "ru"),
    ("приложить 7б к 8б 9б 10б рубашкой вверх", "ru"), ("взять две up", "ru"),
    ("взять 2 draw", "ru"), ("взять две верхнюю карту сброса", "ru"),
    ("сбросить 8п выложить 3ч 3б 3т", "ru"), ("сбросить 8п из колоды", "ru"),
])
def test_words_of_two_moves_are_refused(words: str, language: str) -> None:
    with pytest.raises(InvalidMoveError):
        typed(words, language)


def test_the_refusal_says_why_in_russian() -> None:
    with pytest.raises(InvalidMoveError) as e:
        typed("выложить 7б к 8б 9б 10б", "ru")
    assert RU(e.value.text) == "'выложить 7б к 8б 9б 10б' — это два разных хода: введите один"


def _phrases() -> dict[str, list[str]]:
    """Each kind of move as the bot says it in Russian (the words a player types back), from
    real turns: a discard's side said, or not, is a kind of its own."""
    said: dict[str, list[str]] = {}
    for seed in range(8):
        session = Session(RuleSet.english() if seed % 2 else RuleSet.russian(), seed)
        players = [RandomPlayer(seed), RandomPlayer(seed + 1)]
        for _ in range(random.Random(seed).randrange(40, 200)):
            if session.over:
                break
            view = session.view(session.to_act)
            for move in view.legal_moves:
                kind = str(move.kind.value)
                if move.kind is MoveKind.DISCARD and going_out(move, view.legal_moves):
                    kind += " down" if move.face_down else " up"
                said.setdefault(kind, []).append(move_meaning(view, move, RU))
            session.apply(players[session.to_act].choose(view))
    return said


PHRASES = _phrases()


def _card(word: str) -> bool:
    try:
        Card.parse(word)
    except InvalidMoveError:
        return False
    return True


def _own_words(phrase: str) -> list[str]:
    """A move's words that are not its cards, nor its verb unless it has nothing else."""
    words = [w for w in phrase.split() if not _card(w)]
    return words[1:] or words[:1]


def test_every_kind_of_move_was_said() -> None:
    assert set(PHRASES) == {"draw", "take", "take 2", "meld", "extend", "discard",
                            "discard down", "discard up"}, set(PHRASES)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_a_move_said_with_another_kinds_words_is_refused(data: st.DataObject) -> None:
    kinds = sorted(PHRASES)
    one = data.draw(st.sampled_from(kinds))
    # A discard with a side said is the plain discard said more fully, not another move.
    other = data.draw(st.sampled_from([k for k in kinds if k != one and not (
        k.startswith("discard") and one.startswith("discard") and "discard" in (k, one))]))
    words = data.draw(st.sampled_from(PHRASES[one])).split()
    for word in _own_words(data.draw(st.sampled_from(PHRASES[other]))):
        words.insert(data.draw(st.integers(1, len(words))), word)
    mixed = " ".join(words)
    try:
        read = typed(mixed, "ru")
    except InvalidMoveError:
        return
    pytest.fail(f"{mixed!r} ({one} with {other}'s words) was read as {read[0]}")


async def test_discord_asks_and_applies_nothing(world: World, locales: dict[int, str]) -> None:
    # Applied on a live session, «взять две карты из колоды» took the pile's top two: a move
    # no button undoes (review165).
    live = await start_match(world)
    while live.session.view(live.session.to_act).phase != "draw":  # the first turn's
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
    seat = live.session.to_act
    assert len(live.session.view(seat).discard_pile) >= 1
    actor, thread = player(world, seat), thread_of(world, live)
    locales[actor.id] = "ru"
    version, pile = live.version, live.session.view(seat).discard_pile
    asked = await actor.slash(thread, "umtali play", move="взять две карты из колоды")
    assert asked.acknowledged and asked.ephemeral, asked
    assert "из колоды или из сброса?" in asked.response.content, asked.response.content
    assert live.version == version and live.session.view(seat).discard_pile == pile
    assert live.session.view(seat).phase == "draw"
