"""A new message to a seat's DMs, one at a time per seat (``refused_here.sending``), a
refusal found noted and told as a delivery notes it (moved out of ``reminders``; the
reminders, the time-out notices, the reviews and the removal notices send through it)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.refused_here import known, sending
from cogs.umtali.unheard import InDoubt
from data.failing import failing_for_now

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

# The reminders' logger: these lines keep the name they have always had (log filters).
log = logging.getLogger("cogs.umtali.reminders")


async def to_dms(svc: MatchService, live: LiveMatch, seat: int,
                 send: Callable[[], Awaitable[discord.Message]]) -> discord.Message | None:
    """A new message to the seat's DMs (``send``), under the seat's lock of this process,
    whichever copy sends it (``refused_here.sending``): None, nothing sent, if they are known
    here to refuse the bot, or were found to now (saved and known to every copy here before
    the next send, then told as a delivery tells it: with the channel lost too, the match is
    abandoned). The refusal's save or notice failing for now (Discord, or the database: a
    busy SQLite file, a PostgreSQL lock timed out) gives up quietly, as told below; any other
    failure is the caller's."""
    async with sending(svc, live, seat):
        if known(svc, live, seat):  # (by another copy here too: ``refused_here``)
            return None
        try:
            return await send()
        except GONE as e:
            log.info("match %d: DMs to seat %d refused (%s)", live.id, seat, e)
        if not await _tried(svc.delivery.refusal_saved(live, seat), live.id, "saved"):
            return None  # (unsaved, and not known here: found again by the next send there)
    # (Not told: owed, here and as saved: told at the seat's next delivery.)
    await _tried(svc.delivery.refusal_said(live, seat), live.id, "told")
    return None


async def _tried(step: Awaitable[None], match_id: int, what: str) -> bool:
    """``step`` of a refusal (its save, its notice), or False if it failed for now
    (``_for_now``, logged: the refused DMs could not be ``what``); any other failure raised."""
    try:
        await step
    except Exception as e:
        if not _for_now(e):
            raise
        log.info("match %d: the refused DMs could not be %s for now (%s: %s)", match_id, what,
                 e.__class__.__name__, e)
        return False
    return True


def _for_now(error: BaseException) -> bool:
    """Discord's failure that may pass, or the database's (``failing_for_now``: not all are
    OSErrors, SQLite's "database is locked" is not), or a save of unknown outcome, the
    database out of reach (``InDoubt``: an abandon, the clock's next check settles it)."""
    return isinstance(error, (*PASSING, InDoubt)) or failing_for_now(error)
