"""Autocomplete within Discord's 3 seconds: its answer cannot be deferred, and a read behind a
save waiting on the database (SQLite's lock, for up to ``BUSY_TIMEOUT``; a PostgreSQL pool run
dry, for longer) would come after Discord gave up, on every key typed. Past ``SUGGEST_WITHIN``
of the interaction's life, none are suggested: the member types on, or sends what they typed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from cogs.umtali.errors import once_a_while
from cogs.umtali.in_time import clock_started

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Seconds of the interaction's life (``in_time.clock_started``) by which its suggestions are
#: read: room left for the answer to reach Discord within its 3 seconds.
SUGGEST_WITHIN = 2.3


async def suggested(interaction: discord.Interaction, work: Awaitable[T], what: str
                    ) -> T | None:
    """``work``'s result (the reads behind suggestions); None if it did not finish in time.
    Left to finish then, not cancelled (a read cancelled as it returns may keep its statement
    open: tests/test_sqlite_cancelled_read.py), its result or failure dropped."""
    left = SUGGEST_WITHIN - (time.monotonic() - clock_started(interaction))
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, left))
    if done:
        return await task
    task.add_done_callback(_dropped)
    log.log(once_a_while(interaction.client, "suggestions late"),
            "%s: none suggested, the database did not answer within %.1f s",
            what, SUGGEST_WITHIN)
    return None


def _dropped(task: asyncio.Future[Any]) -> None:
    """A late read's outcome, nobody waiting for it: its failure retrieved (never logged as
    an exception never retrieved), its result dropped."""
    if not task.cancelled():
        task.exception()
