"""A card is only what the notation or the look-alike table says (``umtali.letters``): no other
letter turns into one of its letters by Python's case mapping. ``str.upper`` reads a long s
(ſ) as S, the ligature ﬅ as ST (10♠), an old Cyrillic ᲄ as Т (an ace); ``str.lower`` a Kelvin
sign (K) as k. Each is "not a card" (or "not a move"), as any other bad card."""

from __future__ import annotations

import sys
from contextlib import suppress

import pytest

from cogs.umtali.commands import move_choices
from tests.discord_helpers import World, player, start_match, thread_of
from umtali.cards import RANK_TEXT, SUIT_LETTERS, SUIT_SYMBOLS, Card
from umtali.errors import InvalidMoveError
from umtali.i18n import EN, tr_for
from umtali.letters import ALL_CYRILLIC_LOOKS_LATIN, native, readings
from umtali.moves import Move, typed

#: The notation's own letters and symbols (ranks, the Russian rank letters, suits), in both
#: cases, and the look-alike table's.
OWN = {*"".join(RANK_TEXT), *"TТВДК", *SUIT_LETTERS, *SUIT_SYMBOLS, *"♤♡♢♧", "\ufe0f"}
OWN |= {c.lower() for c in OWN} | set(ALL_CYRILLIC_LOOKS_LATIN)
#: Every other letter with a case mapping (the only way one could become a notation letter).
CASED = [c for c in map(chr, range(sys.maxunicode + 1))
         if c not in OWN and (c.upper() != c or c.lower() != c)]
LONG_S, KELVIN = "\u017f", "\u212a"


def test_no_other_cased_letter_reads_as_a_card() -> None:
    read = []
    for c in CASED:
        for text in (c, f"{c}S", f"K{c}", f"10{c}", f"♠{c}", f"{c}♠"):
            with suppress(InvalidMoveError):
                read.append((text, Card.parse(text)))
    assert read == []


@pytest.mark.parametrize("text", ["K" + LONG_S, "\ufb05", "\u1c84S", "10\ufb06", "Q" + LONG_S])
def test_a_case_mapped_letter_is_not_a_card(text: str) -> None:
    with pytest.raises(InvalidMoveError) as e:
        Card.parse(text)
    assert EN(e.value.text).startswith(f"{text!r} is not a card: write a rank")
    for language in ("en", "ru"):
        assert readings(text, language) == []
        assert native(f"discard {text}", language) == f"discard {text}"
        with pytest.raises(InvalidMoveError):
            typed(f"discard {text}", language)


def test_a_move_word_is_only_the_notations() -> None:
    for text in (f"ta{KELVIN}e", f"ta{KELVIN}e 2"):
        with pytest.raises(InvalidMoveError):
            Move.parse(text)
    assert Move.parse("TAKE") == Move.take()  # (the notation's own letters: any case)


async def test_on_discord_a_long_s_is_not_a_card_nor_suggested(world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    thread = thread_of(world, live)
    forged = f"discard K{LONG_S}"
    version = live.version
    answer = await player(world, seat).slash(thread, "umtali play", move=forged)
    assert answer.ephemeral and answer.response is not None
    said = answer.response.content or ""
    assert said.startswith(f"“K{LONG_S}” is not a card: write a rank"), said
    assert live.version == version
    for tr in (EN, tr_for("ru")):
        assert move_choices(live.session.view(seat), forged, tr) == []
        assert move_choices(live.session.view(seat), f"ta{KELVIN}", tr) == []
