"""A player whose DMs refuse the bot, out of reach of the match's channel too: gone from its
server, or no longer allowed to see the channel (its permissions changed mid-match). Told
there to use My hand, they would get a ping they never see and an instruction they cannot
follow (review121): the notice is not posted, and stays owed (saved so, for any copy).

Discord is asked again at most every ``ASK_AGAIN`` seconds, never a request a move: at the
seat's deliveries, and at the clock's check, as nothing else may come (their turn, with no
clock: nobody moves). Back (rejoined, or the channel theirs again), they are told, once
(``ChannelLoss.tell_refused``). One told while in reach is asked again, at the clock's
check on their turn, at most every ``ASK_AGAIN`` too: gone since, they are known away.
Meanwhile the match goes as for any player gone: a clock runs out on them (its warnings,
and each "your turn" line, naming them, not pinging them: ``addressed``); with none, the
opponent's ``/umtali resign`` ends it with no result, a day after it first found them out of
reach (``resigning.NO_RESULT_AFTER``)."""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

import discord

from cogs.umtali.dms_again import owed, release
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS, only, ping
from cogs.umtali.names import safe_name
from cogs.umtali.outbox import Batch
from cogs.umtali.permissions import reach
from data.failing import failing_for_now
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Seconds between two questions to Discord of whether a player out of reach is back.
ASK_AGAIN = 300.0

#: By match: when (``MatchService.ticks``) each seat was last found out of reach here.
_away: weakref.WeakKeyDictionary[LiveMatch, dict[int, float]] = weakref.WeakKeyDictionary()
#: By match: when (``MatchService.ticks``) the clock's check last asked about each seat.
_asked: weakref.WeakKeyDictionary[LiveMatch, dict[int, float]] = weakref.WeakKeyDictionary()


def away(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat was found out of reach less than ``ASK_AGAIN`` seconds ago."""
    at = _away.get(live, {}).get(seat)
    return at is not None and svc.ticks() - at < ASK_AGAIN


def known_away(live: LiveMatch, seat: int) -> bool:
    """Whether the seat was found out of reach and not found back since: as Discord last
    answered (while it is asked again too), no request made."""
    return seat in _away.get(live, {})


def found_back(live: LiveMatch, seat: int) -> None:
    """The seat's player found in reach (or that could not be known): away no more."""
    for seats in (_away.get(live), _asked.get(live)):
        if seats is not None:
            seats.pop(seat, None)


async def back_in_reach(svc: MatchService, live: LiveMatch, seat: int) -> None:
    """The seat's player found in reach by Discord: away no more, here and as saved, where the
    day of their absence was counted (``Store.found_back``): a later one, a moment's kick,
    counts its own day (``resigning.NO_RESULT_AFTER``), not one from before they came back."""
    found_back(live, seat)
    try:
        await svc.store.found_back(live.id, seat)
    except Exception as e:
        if not failing_for_now(e):
            raise
        # Kept as saved: the next move of theirs, or /umtali resign finding them, forgets it.
        log.info("match %d: seat %d found back could not be saved (%s: %s)", live.id, seat,
                 e.__class__.__name__, e)


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
        asked = _asked.setdefault(live, {})
        for seat, at in list(seats.items()):
            if now - max(at, asked.get(seat, at)) < ASK_AGAIN:
                continue
            if owed(live, seat) and live.dm_refused[seat] and not live.over and \
                    not live.channel_lost:
                # Known away still till Discord answers (``known_away``: the warning of this
                # very check names them); asked by this check alone, its delivery on its way.
                asked[seat] = now
                svc.delivery.enqueue(live, Batch(hands={seat}))
            elif not _told_refused(live, seat):
                found_back(live, seat)  # nothing owed them (DMs open, over): not asked
    # Told while in reach, then gone: asked on their turn (its "your turn" line pings them).
    for live in list(svc.matches.values()):
        seat = live.session.to_act
        at = max(_away.get(live, {}).get(seat, -ASK_AGAIN),
                 _asked.get(live, {}).get(seat, -ASK_AGAIN))
        if _told_refused(live, seat) and now - at >= ASK_AGAIN:
            _asked.setdefault(live, {})[seat] = now
            svc.beside.start(_ask_told(svc, live, seat), live.id, "whether a player is in reach")


def _told_refused(live: LiveMatch, seat: int) -> bool:
    """Whether the seat's player, their DMs refused, was told so (the channel their only
    way to play): asked on their turn whether they are still in reach."""
    return live.dm_refused[seat] and not owed(live, seat) and not live.over and \
        not live.channel_lost and not live.is_computer(seat)


async def _ask_told(svc: MatchService, live: LiveMatch, seat: int) -> None:
    """Discord asked whether a player already told of their refused DMs is in reach: known
    away (named, not pinged) or found back. Nothing is owed them: nothing posted."""
    said = await reach(svc.client, live.guild_id, live.channel_id, live.player_ids[seat])
    if said == "reached":
        await back_in_reach(svc, live, seat)
    elif said == "unknown":
        found_back(live, seat)  # (as saved: unknown proves nothing)
    else:
        _away.setdefault(live, {})[seat] = svc.ticks()


def addressed(live: LiveMatch, seat: int, tr: Tr) -> tuple[str, discord.AllowedMentions]:
    """How a warning or a "your turn" line in the channel names the seat's player, and whom
    it pings: them, unless known out of reach (gone from the server, or no longer allowed to
    see the channel, DMs closed: ``known_away``), a ping nobody reads being noise there. Their
    name then, pinging nobody; the table still sees the line, and the clock still runs. Known
    from their refused DMs' notice: Discord is not asked for a warning, nor a move."""
    if known_away(live, seat):
        return safe_name(live.names_in(tr)[seat]), NO_MENTIONS
    return ping(live.player_ids[seat]), only(live.player_ids[seat])
