"""A hand's panel while the top discard lies face down (the last card of a player going out):
the player who laid it sees the card and that it is face down; the opponent is not told to
take it, and does not see it."""

from __future__ import annotations

import discord
import pytest

from cogs.umtali.arrange import HandOrder
from cogs.umtali.render import hand_embed
from umtali.i18n import Tr, tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR

NAMES = ("ada", "ben")


def _face_down() -> Session:
    """A session just after a player went out with a face-down discard."""
    for seed in range(20):
        session = Session(RuleSet.english(), seed)
        while not session.over:
            seat = session.to_act
            session.apply(GreedyPlayer().choose(session.view(seat)), seat)
            if session.view(SPECTATOR).top_face_down:
                return session
    raise AssertionError("nobody went out face down")


def _pile(embed: discord.Embed, tr: Tr) -> str:
    return next(f.value or "" for f in embed.fields if f.name == tr("Discard pile"))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_face_down_discard_is_said_face_down_and_not_offered(lang: str) -> None:
    tr = tr_for(lang)
    session = _face_down()
    other = session.to_act
    laid_by = 1 - other
    mine = session.view(laid_by)
    card = mine.top_discard
    assert card is not None
    embed = hand_embed(mine, NAMES, 1, tr=tr, order=HandOrder.SUIT)
    assert _pile(embed, tr) == tr("{card}, face down", card=card)
    theirs = session.view(other)
    assert theirs.phase == "draw" and theirs.top_discard is None
    embed = hand_embed(theirs, NAMES, 1, tr=tr, order=HandOrder.SUIT)
    doing = embed.description or ""
    assert doing.startswith(tr("Your turn: draw from the stock (the top discard is face down)."))
    assert tr("Your turn: draw from the stock or take the top discard.") not in doing
    assert _pile(embed, tr) == tr("face down")
    assert str(card) not in _pile(embed, tr)
