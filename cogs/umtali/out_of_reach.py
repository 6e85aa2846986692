"""A player whose DMs refuse the bot, out of reach of the match's channel too: gone from its
server, or no longer allowed to see the channel (its permissions changed mid-match). Told
there to use My hand, they would get a ping they never see and an instruction they cannot
follow (review121): the notice is not posted, and stays owed (saved so, for any copy).

Discord is asked again at most every ``ASK_AGAIN`` seconds, never a request a move: at the
seat's deliveries, and at the clock's check, as nothing else may come (their turn, with no
clock: nobody moves). Back (rejoined, or the channel theirs again), they are told, once
(``ChannelLoss.tell_refused``). Meanwhile the match goes as for any player gone: a clock runs
out on them; with none, the opponent's ``/umtali resign`` ends it with no result."""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

from cogs.umtali.dms_again import owed, release
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Seconds between two questions to Discord of whether a player out of reach is back.
ASK_AGAIN = 300.0

#: By match: when (``MatchService.ticks``) each seat was last found out of reach here.
_away: weakref.WeakKeyDictionary[LiveMatch, dict[int, float]] = weakref.WeakKeyDictionary()


def away(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat was found out of reach less than ``ASK_AGAIN`` seconds ago."""
    at = _away.get(live, {}).get(seat)
    return at is not None and svc.ticks() - at < ASK_AGAIN


async def found_away(svc: MatchService, live: LiveMatch, seat: int) -> None:
    """The seat's notice, claimed by this copy, found with nobody to read it: owed again as
    saved (any copy may tell it later, this one gone), asked again ``ASK_AGAIN`` later."""
    _away.setdefault(live, {})[seat] = svc.ticks()
    try:
        await svc.store.owe_dm_notice(live.id, seat)
    except Exception as e:
        # Held here still (saved as told, by the claim): this copy posts it, unclaimed.
        log.info("match %d: seat %d's refused DMs, not told, could not be saved as owed "
                 "(%s: %s)", live.id, seat, e.__class__.__name__, e)
    else:
        release(live, seat)


def ask_if_back(svc: MatchService) -> None:
    """The clock's check: each seat found out of reach ``ASK_AGAIN`` ago, its notice still
    owed, delivered again (its delivery asks Discord, and tells them if they are back)."""
    if svc.clock_state.outage is not None:
        return  # the gateway is down: asked once it is back
    now = svc.ticks()
    for live, seats in list(_away.items()):
        if svc.matches.get(live.id) is not live:
            continue  # not this process's (any more): its holder's copy asks
        for seat, at in list(seats.items()):
            if now - at < ASK_AGAIN:
                continue
            del seats[seat]
            if owed(live, seat) and live.dm_refused[seat] and not live.over and \
                    not live.channel_lost:
                svc.delivery.enqueue(live, Batch(hands={seat}))
