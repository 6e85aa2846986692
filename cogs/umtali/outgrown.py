"""A newer bot migrated the database under this one: several processes upgraded one at a time
(the README asks for all to be stopped first), or a newer checkout started beside a running
bot. This process was never tested against that schema, so it stops rather than play on it:
its matches are given up at its close (their leases released, the newer bot takes them at
once), and it exits saying why. Looked at with the heartbeat, every ten seconds; a bot
starting on a newer schema is refused before it connects (``data.db.SchemaTooNew``)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from data.db import SchemaTooNew
from data.migrations import MIGRATIONS

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: The closes under way: a task the loop alone refers to may be collected before it ends.
_CLOSING: set[asyncio.Task[None]] = set()


async def outgrown(svc: MatchService) -> SchemaTooNew | None:
    """The database's schema, if newer than this bot knows."""
    found, known = await svc.store.db.schema_version(), len(MIGRATIONS)
    return SchemaTooNew(found, known) if found > known else None


async def stop_if_outgrown(client: discord.Client, svc: MatchService) -> bool:
    """Close ``client`` if a newer bot migrated the database (``svc.outgrown`` says so, for
    the exit status); whether it does."""
    try:
        newer = await outgrown(svc)
    except Exception as e:
        # The database failing: the tick's own checks say so; looked at again at the next.
        log.debug("the schema's version could not be read (%s)", e)
        return False
    if newer is None:
        return False
    svc.outgrown = newer
    log.error("A newer bot migrated the database to schema %d; this one knows %d and stops, "
              "giving its matches up to the newer. Stop every process before an upgrade, then "
              "start only the new version.", newer.found, newer.known)
    # Not awaited here: the close cancels the timers' task, which may be this one.
    closing = asyncio.create_task(client.close())
    _CLOSING.add(closing)
    closing.add_done_callback(_CLOSING.discard)
    return True
