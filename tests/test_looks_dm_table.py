"""The table a DM panel carries while the match's channel is lost: the last turn's
announcement shortened by whole lines, never from the middle of an escaped name."""

from __future__ import annotations

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.render import turn_message
from cogs.umtali.showing import LAST_TURN, Look, dm_panel_of, table_of
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session

#: Names all markdown: escaped, each character takes two.
NAMES = ("_" * 32, "*" * 32)


def _long_turn(lang: str) -> tuple[Session, str]:
    """A session just after a turn whose announcement (a game's end) is longer than a DM
    panel's table shows."""
    session = Session(RuleSet.english(), 0)
    while not session.over:
        seat = session.to_act
        events = session.apply(GreedyPlayer().choose(session.view(seat)), seat)
        text = turn_message(events, NAMES, tr_for(lang))
        if len(text) > LAST_TURN:
            return session, text
    raise AssertionError("no announcement long enough")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_last_turn_on_a_lost_channels_dm_table_is_cut_between_lines(lang: str) -> None:
    session, text = _long_turn(lang)
    live = LiveMatch(id=7, guild_id=1, channel_id=2, table_message_id=None, player_ids=(10, 11),
                     names=NAMES, turn_timer=0, session=session, deadline=None, warned=False,
                     dm_channel_ids=[None, None], dm_message_ids=[None, None],
                     dm_refused=[False, False], pending=[], channel_lost=True, last_turn=text)
    look = Look(tr_for(lang), pictures=False)
    shown = dm_panel_of(live, session.to_act, look=look, table_look=look)
    table = shown.embeds[0].description or ""
    lines = text.split("\n")
    shown_lines = table.split("\n")
    # No line of the announcement shown cut at its start (a name's escape cut in two leaves a
    # lone * or _, which turns the rest of the text italic): its last lines, each whole.
    cut = [s for s in shown_lines if s not in lines and any(a.endswith(s) for a in lines)]
    assert not cut, cut
    kept = [s for s in shown_lines if s in lines]
    assert kept and kept == lines[-len(kept):]
    assert sum(len(line) + 1 for line in kept) <= LAST_TURN


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_dm_table_and_a_finished_one_send_nobody_to_a_my_hand_button(lang: str) -> None:
    """The footer's "press My hand" is for the live table in the channel, which has the
    button: the table a DM panel carries has none (the hand is right under it), and a
    finished session's table offers a replay and a rematch, not a hand to play."""
    tr = tr_for(lang)
    hint = tr("Match {match} · press “My hand” to see your cards and play", match=7)
    session = Session(RuleSet.english(), 0)
    live = LiveMatch(id=7, guild_id=1, channel_id=2, table_message_id=None, player_ids=(10, 11),
                     names=("ada", "ben"), turn_timer=0, session=session, deadline=None,
                     warned=False, dm_channel_ids=[None, None], dm_message_ids=[None, None],
                     dm_refused=[False, False], pending=[], channel_lost=False)
    look = Look(tr, pictures=False)
    assert table_of(live, look=look).embed.footer.text == hint  # the live table keeps it
    live.channel_lost = True
    shown = dm_panel_of(live, 0, look=look, table_look=look)
    assert shown.embeds[0].footer.text == tr("Match {match}", match=7)
    live.channel_lost = False
    session.resign(0)
    assert table_of(live, look=look).embed.footer.text == tr("Match {match}", match=7)
