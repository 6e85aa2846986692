"""An abandoned match says whom the bot could no longer reach: one player, both, or the match's
channel. Russian cannot decline a member's name, so each case is its own message, worded to be
grammatical with a name in the nominative ("с одним из игроков (ada)", "ни с одним из игроков
(ada, ben)": no noun just before a name, which may be "Игрок 1"; "писать в
канал этого матча"), never "связаться с ada" or "связаться с каналом этого матча"."""

from __future__ import annotations

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.showing import Look, hand_of
from umtali.i18n import tr_for
from umtali.rules import RuleSet
from umtali.session import Session


def _abandoned(lost: tuple[bool, bool], channel_lost: bool = True) -> LiveMatch:
    return LiveMatch(
        id=7, guild_id=1, channel_id=2, table_message_id=3, player_ids=(10, 11),
        names=("ada", "ben"), turn_timer=0, session=Session(RuleSet.english(), 5),
        deadline=None, warned=False, dm_channel_ids=[None, None], dm_message_ids=[None, None],
        dm_refused=list(lost), pending=[], channel_lost=channel_lost, abandoned=True)


def _note(live: LiveMatch, lang: str) -> str:
    shown = hand_of(live, 0, look=Look(tr=tr_for(lang), pictures=False))
    return shown.embed.description or ""


@pytest.mark.parametrize("lost, channel_lost, english, russian", [
    ((False, True), True, "I could no longer reach ben.",
     "я больше не могу связаться с одним из игроков (ben)."),
    ((True, True), True, "I could no longer reach ada and ben.",
     "я больше не могу связаться ни с одним из игроков (ada, ben)."),
    ((False, False), True, "I could no longer reach this match's channel.",
     "я больше не могу писать в канал этого матча."),
    # Its channel kept, both reachable: abandoned because the opponent left (review44).
    ((False, False), False, "a player left the server",
     "один из игроков покинул сервер"),
])
def test_whom_the_bot_could_not_reach_reads_right_in_each_language(
        lost: tuple[bool, bool], channel_lost: bool, english: str, russian: str) -> None:
    live = _abandoned(lost, channel_lost)
    assert english in _note(live, "en")
    ru = _note(live, "ru")
    assert russian in ru and "Этот матч прерван" in ru
    assert "связаться с ada" not in ru and "связаться с ben" not in ru
    assert "каналом" not in ru
