"""When a turn's "your turn" mention is sent silent (review139: every turn pinged): the
player was just told by a DM that notified them (by correspondence), or is at the table, their
own move under a minute ago (against the computer, a timed game). Otherwise it pings, as the
README promises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.umtali.announcing import turn_player
from cogs.umtali.live import LiveMatch
from cogs.umtali.reminders import TurnNotices

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

#: A player whose last move is this recent is still at the table: not pinged.
AT_TABLE = 60.0


def silent(svc: MatchService, live: LiveMatch, text: str) -> bool:
    """``text``'s turn mention (if any) names a player who needs no ping."""
    who = turn_player(text)
    if who is None or live.over or who not in live.player_ids:
        return False
    seat = live.player_ids.index(who)
    if live.is_computer(seat) or seat != live.session.to_act:
        return False
    if any(isinstance(n, TurnNotices) and n.told_now(live) for n in svc.hand_listeners):
        return True  # the turn's DM notified them
    acted = live.acted[seat]
    return acted is not None and 0 <= svc.clock() - acted < AT_TABLE
