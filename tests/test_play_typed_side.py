"""A last card typed with /umtali play goes face down unless the player says up, as the rules
have the bot do by default (the panels ask, face down first); the autocomplete says which
value lays it face up. The notation of panels, scripts and replays is unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.umtali.commands import move_choices
from tests.discord_helpers import World, flush, player, start_match, thread_of
from umtali.cards import CARDS
from umtali.codec import session_from_json, session_to_json
from umtali.errors import InvalidMoveError
from umtali.i18n import EN, tr_for
from umtali.moves import Move, MoveKind, side_chosen, typed
from umtali.rules import RuleSet
from umtali.session import Session

HAND = ["8D", "9D", "10D", "KS"]


def going_out(session: Session) -> Session:
    """``session`` with its seat to act in the meld phase, holding 8♦ 9♦ 10♦ K♠: a meld, then
    the king is its last card."""
    seat = session.to_act
    data = session_to_json(session)
    h = data["hand"]
    rest = [c.code for c in CARDS if c.code not in HAND]
    h["melds"], h["plays"], h["points"] = [], [], [0, 0]
    h["hands"] = [HAND, rest[:10]] if seat == 0 else [rest[:10], HAND]
    h["discard"], h["stock"] = rest[10:12], rest[12:]
    h.update(phase="meld", turn=seat, taken=None, must_meld=[], drawn=[], face_down=False)
    return session_from_json(data)


def face_down(session: Session) -> Any:
    return session_to_json(session)["hand"]["face_down"]


def test_a_typed_discard_says_whether_its_side_was_chosen() -> None:
    ks = Move.parse("discard KS")
    assert typed("discard KS", "en") == (ks, True)
    assert typed("Discard ks UP", "en") == (ks, False)
    assert typed("discard KS face-up", "en") == (ks, False)
    assert typed("discard KS down", "en") == (ks._replace(face_down=True), False)
    assert typed("draw", "en") == (Move.parse("draw"), False)
    with pytest.raises(InvalidMoveError) as e:
        typed("discard up", "en")
    with pytest.raises(InvalidMoveError) as e:
        typed("throw KS", "en")
    assert "discard <card> [up]" in EN(e.value.text)
    # Only where the engine offers the face-down twin does the default turn a card over.
    session = going_out(Session(RuleSet.english(), 0))
    session.apply(Move.parse("meld 8D 9D 10D"))
    legal = session.legal_moves()
    assert side_chosen(ks, legal) == ks._replace(face_down=True)
    assert side_chosen(Move.parse("discard 2C"), legal) == Move.parse("discard 2C")


@pytest.mark.parametrize(("typed_text", "down"), [("discard KS", True), ("discard KS up", False),
                                                  ("discard KS down", True)])
async def test_a_last_card_typed_goes_face_down_unless_said_up(
        world: World, typed_text: str, down: bool) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    live.session = going_out(live.session)
    actor, thread = player(world, seat), thread_of(world, live)
    melded = await actor.slash(thread, "umtali play", move="meld 8D 9D 10D")
    assert melded.acknowledged
    offered = {c.value: c.name for c in move_choices(live.session.view(seat), "discard", EN)}
    assert offered == {"discard KS down": "discard K♠ down", "discard KS up": "discard K♠ up"}
    ru = move_choices(live.session.view(seat), "discard", tr_for("ru"))
    assert {c.value for c in ru} == set(offered)
    assert {c.name for c in ru} == {"сбросить K♠ рубашкой вверх (discard)",
                                    "сбросить K♠ в открытую (discard)"}
    done = await actor.slash(thread, "umtali play", move=typed_text)
    assert done.acknowledged
    await flush(world)
    assert not live.session.hand.hands[seat]
    assert face_down(live.session) is down
    svc = world.bot.matches
    assert svc is not None
    saved = await svc.store.match(live.id)
    assert saved is not None and json.loads(saved.state)["hand"]["face_down"] is down


async def test_a_typed_discard_that_is_not_a_last_card_is_face_up(world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    live.session = going_out(live.session)
    actor, thread = player(world, seat), thread_of(world, live)
    view = live.session.view(seat)
    assert all(m.kind is not MoveKind.DISCARD for m in view.legal_moves)
    # With four cards, 'discard KS' is refused as the meld is compulsory, not turned over.
    refused = await actor.slash(thread, "umtali play", move="discard KS")
    assert refused.ephemeral and live.session.hand.hands[seat].bit_count() == 4
