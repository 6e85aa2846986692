"""The public table in text alone (pictures off) marks what the picture marks: a marriage
scores double (×2), and each meld stands whole on its starter's line, the other player's
cards in it named; the longest table a hand can make still fits Discord's limits, in English
and Russian."""

from __future__ import annotations

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.names import MAX_NAME
from cogs.umtali.render import table_embed
from cogs.umtali.showing import LAST_TURN, Look, dm_panel_of
from umtali.cards import CARDS, JACK, Card
from umtali.codec import session_from_json, session_to_json
from umtali.events import Extended, Melded
from umtali.i18n import tr_for
from umtali.melds import PlayKind
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.text import GLUE, render_view
from umtali.view import SPECTATOR

NAMES = ("ada", "ben")


def _fields(session: Session, lang: str) -> list[str]:
    embed = table_embed(session.view(SPECTATOR), NAMES, 1, tr=tr_for(lang))
    return [f.value or "" for f in embed.fields[:2]]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_marriages_and_extensions_read_on_the_text_table_as_the_picture_draws_them(
        lang: str) -> None:
    """A marriage ×2 on its starter's line; an extension inside its meld, shown whole on the
    line of the player who started it, and named with its player's name when that is the
    other player (tests/test_fix156_text_table.py: the exact form)."""
    marriages = extensions = 0
    for seed in range(4):
        session = Session(RuleSet.english(), seed)
        while not session.over:
            seat = session.to_act
            events = session.apply(GreedyPlayer().choose(session.view(seat)), seat)
            laid = [e for e in events if isinstance(e, Extended | Melded)]
            if not laid or session.hand.plays == []:
                continue  # the hand ended with this turn: a new table
            fields = _fields(session, lang)
            view = session.view(SPECTATOR)
            starter = {p.meld: p.player for p in view.plays if p.kind is not PlayKind.EXTENSION}
            for e in laid:
                card = e.card if isinstance(e, Extended) else e.cards[0]
                meld = next(m for m in view.melds if card in m.cards)
                first = starter[meld.index]
                shown = "[" + GLUE.join(str(c) for c in meld.cards) + "]"
                if isinstance(e, Melded) and e.kind is PlayKind.MARRIAGE:
                    shown += "×2"
                    marriages += 1
                assert f" {shown}" in f" {fields[first]}", (shown, fields[first])
                assert shown not in fields[1 - first]
                if isinstance(e, Extended):
                    extensions += 1
                    if e.player != first:
                        note = fields[first].split(shown, 1)[1].split(" [")[0]
                        assert str(e.card) in note and NAMES[e.player] in note, note
    assert marriages >= 3 and extensions >= 20


def _longest_table() -> Session:
    """Every card on the table, one seat's, each suit a lone jack and twelve extensions:
    the most plays, each as long as its text can be."""
    data = session_to_json(Session(RuleSet.english(), 1))
    h = data["hand"]
    melds, plays = [], []
    for suit in range(4):
        order = [JACK, 10, 12, 9, 13, 8, 7, 6, 5, 4, 3, 2, 1]
        cards = [Card.of(rank, suit).code for rank in order]
        melds.append({"shape": "run", "cards": cards})
        plays.append({"player": 0, "kind": "jack", "cards": cards[:1], "meld": suit,
                      "points": 5})
        plays += [{"player": 0, "kind": "extension", "cards": [c], "meld": suit, "points": 1}
                  for c in cards[1:]]
    h.update(melds=melds, plays=plays, hands=[[], []], stock=[], discard=[], points=[116, 0],
             phase="meld", turn=1, taken=None, must_meld=[], drawn=[], face_down=False)
    return session_from_json(data)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_longest_table_fits_whole_in_a_field_and_a_message(lang: str) -> None:
    tr = tr_for(lang)
    session = _longest_table()
    view = session.view(SPECTATOR)
    assert sum(len(p.cards) for p in view.plays) == 52
    # Names of markdown characters at their longest: each escaped, twice as long.
    names = ("*" * MAX_NAME, "_" * MAX_NAME)
    embed = table_embed(view, names, 10**18, tr=tr, note="x" * 200, clock="y" * 200)
    field = embed.fields[0].value or ""
    # Whole: every meld there, every card, not cut at the field's 1,024.
    assert field.count("[") == 4 and field.endswith("Q♣" + GLUE + "K♣]"), field
    assert len(field) <= 1024 and len(embed) <= 6000
    # A DM panel while the channel is lost: this table, the last turn, and the hand.
    live = LiveMatch(id=7, guild_id=1, channel_id=2, table_message_id=None, player_ids=(10, 11),
                     names=names, turn_timer=0, session=session, deadline=None, warned=False,
                     dm_channel_ids=[None, None], dm_message_ids=[None, None],
                     dm_refused=[False, False], pending=[], channel_lost=True,
                     last_turn="z " * LAST_TURN)
    look = Look(tr, pictures=False)
    shown = dm_panel_of(live, 1, look=look, table_look=look)
    assert sum(len(e) for e in shown.embeds) <= 6000


def test_the_table_names_its_cards_in_one_form() -> None:
    session = _longest_table()
    en, ru = _fields(session, "en")[0], _fields(session, "ru")[0]
    runs = ["[" + GLUE.join(str(Card.of(rank, suit)) for rank in range(1, 14)) + "]"
            for suit in range(4)]
    assert en == ru == " ".join(runs), en
    assert all(str(c) in en for c in CARDS)


def test_the_terminals_table_marks_them_too() -> None:
    session = _longest_table()
    text = render_view(session.view(1), NAMES, tr_for("ru"))
    spades = GLUE.join(str(Card.of(rank, 0)) for rank in range(1, 14))
    assert f"Комбинации (ada): [{spades}] [" in text, text
