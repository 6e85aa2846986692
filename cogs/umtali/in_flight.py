"""A stop lets the clicks and commands under way finish, and turns new ones away politely.

A deploy's SIGTERM used to close the database under an interaction still running: an Accept
cut short between making its match and posting its table left a match nobody was shown (the
next start cancels it), and a move saved but not yet shown waited for the next start to
appear. Now a close first waits, for at most ``DRAIN`` seconds, for the interactions the bot
had taken in; any that comes meanwhile is answered that the bot is restarting, with nothing
done, so that nothing new starts under a close.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from cogs.umtali.access import tr_of
from cogs.umtali.in_time import answer
from umtali.i18n import N_

log = logging.getLogger(__name__)

#: The answer to an interaction that reaches a bot already stopping.
RESTARTING = N_("The bot is restarting, so nothing was done: try again in a minute.")
#: Seconds a close waits for the interactions under way: most take well under one; a busy
#: database may hold one for five (``in_time``). Within ``docker stop``'s 10 s before its
#: SIGKILL, with room left for the close's own saves and sends.
DRAIN = 6.0


class InFlight:
    """The interactions under way in this process (each the task running it), and whether the
    bot is stopping."""

    def __init__(self) -> None:
        self.stopping = False
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Called as the stop begins: what interactions wait on that is not worth finishing
        #: (the coach's hints, a search of seconds with nothing to save) is given up, so that
        #: they answer at once that the bot is restarting, and hold no drain.
        self.giving_up: list[Callable[[], None]] = []

    @property
    def under_way(self) -> int:
        return len(self._tasks)

    def track(self) -> bool:
        """Count the running task as under way, for a close to wait for: False, and not
        counted, once the bot is stopping, unless counted before (a command's action guarded
        like a click's asks again)."""
        task = asyncio.current_task()
        if task is not None and task in self._tasks:
            return True
        if self.stopping:
            return False
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return True

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Whether the interaction may go on (``track``); if not, it is answered that the bot
        is restarting."""
        if self.track():
            return True
        await _turned_away(interaction)
        return False

    async def drain(self, flush: Callable[[], Awaitable[None]] | None = None,
                    timeout: float | None = None) -> int:
        """Stop taking interactions in, wait for those under way, then for ``flush`` (what
        they and the matches have queued to send, sent now rather than at the next start):
        ``timeout`` seconds at most for both (``DRAIN``, as it is when called: a test's
        shorter one). How many interactions were still running then (the close cuts them
        short)."""
        if timeout is None:
            timeout = DRAIN
        self.stopping = True
        for give_up in list(self.giving_up):
            give_up()
        deadline = asyncio.get_running_loop().time() + timeout
        waiting = self._tasks - {asyncio.current_task()}
        pending: set[asyncio.Task[Any]] = set()
        if waiting:
            log.info("Stopping: waiting for %d interaction(s) under way.", len(waiting))
            _, pending = await asyncio.wait(waiting, timeout=timeout)
        if pending:
            log.warning("Stopping: %d interaction(s) still under way after %.0f s are cut "
                        "short.", len(pending), timeout)
        elif flush is not None:
            left = deadline - asyncio.get_running_loop().time()
            try:
                await asyncio.wait_for(flush(), max(left, 0.0))
            except TimeoutError:
                # Saved all the same: sent at the next start (or by the process taking over).
                log.info("Stopping: what was still being sent goes out at the next start.")
        return len(pending)


async def _turned_away(interaction: discord.Interaction) -> None:
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await answer(interaction, tr_of(interaction)(RESTARTING))
    except (discord.HTTPException, discord.ClientException, aiohttp.ClientError,
            RuntimeError) as e:
        # The connection may be closed already (aiohttp's closed session raises RuntimeError):
        # nobody can be told, and nothing was done.
        log.info("an interaction during a stop could not be answered (%s)", e)


def in_flight(client: discord.Client) -> InFlight | None:
    """The client's record of interactions under way (a bot of ours has one)."""
    found = getattr(client, "in_flight", None)
    return found if isinstance(found, InFlight) else None


async def admitted(interaction: discord.Interaction) -> bool:
    """``InFlight.admit`` for the interaction's client; any interaction of a client keeping
    no record goes on."""
    record = in_flight(interaction.client)
    return record is None or await record.admit(interaction)
