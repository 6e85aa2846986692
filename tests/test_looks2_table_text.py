"""The public table in text alone (pictures off) marks what the picture marks: a marriage
scores double (×2), and each extension names the meld it went on, as its announcement did;
the longest table a hand can make still fits Discord's limits, in English and Russian."""

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
from umtali.text import render_view
from umtali.view import SPECTATOR

NAMES = ("ada", "ben")


def _fields(session: Session, lang: str) -> list[str]:
    embed = table_embed(session.view(SPECTATOR), NAMES, 1, tr=tr_for(lang))
    return [f.value or "" for f in embed.fields[:2]]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_marriages_and_extensions_read_on_the_text_table_as_they_were_announced(
        lang: str) -> None:
    tr = tr_for(lang)
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
            for e in laid:
                mine, theirs = fields[e.player], fields[1 - e.player]
                if isinstance(e, Extended):
                    # The card it went next to, as the turn's announcement said.
                    shown = tr("+{card} on {target}", card=e.card, target=e.target)
                    extensions += 1
                elif e.kind is PlayKind.MARRIAGE:
                    shown = "[" + " ".join(str(c) for c in e.cards) + "]×2"
                    marriages += 1
                else:
                    shown = "[" + " ".join(str(c) for c in e.cards) + "]"
                assert f" {shown} " in f" {mine} ", (shown, mine)
                assert shown not in theirs
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
    # Whole: every extension there, not cut at the field's 1,024.
    assert field.count("+") == 48 and field.endswith(tr("+{card} on {target}", card="A♣",
                                                          target="2♣"))
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
    assert "+10♠ on J♠" in en and "+10♠ к J♠" in ru and "+Q♠ on J♠" in en
    assert "+9♠ on 10♠" in en and "+K♠ on Q♠" in en
    assert all(str(c) in en for c in CARDS)


def test_the_terminals_table_marks_them_too() -> None:
    session = _longest_table()
    text = render_view(session.view(1), NAMES, tr_for("ru"))
    assert "[J♠] +10♠ к J♠ +Q♠ к J♠ +9♠ к 10♠" in text
