"""Challenges past their ten minutes: closed in the database, then said so on their messages,
by the click that found one expired, or by the timer's tick, whose edits go on in the
background, a few at a time (``ExpiryEdits``)."""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.umtali.access import service
from cogs.umtali.challenge_posts import message_of
from cogs.umtali.challenge_text import challenge_embed
from data.models import Challenge

log = logging.getLogger(__name__)


async def expire(client: discord.Client, ch: Challenge) -> None:
    """Close ``ch`` as expired (if still open) and say so on its message."""
    if await service(client).store.close_challenge(ch.id, "expired"):
        await _say_expired(client, ch)


async def _say_expired(client: discord.Client, ch: Challenge) -> None:
    message_id = message_of(client, ch)
    service(client).unsaved_posts.pop(ch.id, None)
    if message_id is None:
        return
    from cogs.umtali.practice import expired_embed  # it builds on this module

    svc = service(client)
    channel = client.get_partial_messageable(ch.channel_id)
    tr = svc.prefs.guild_tr(ch.guild_id)
    embed = expired_embed(ch, tr) if ch.computer_level is not None else challenge_embed(
        ch, tr, tr("This challenge expired: nobody answered in time."))
    try:
        await channel.get_partial_message(message_id).edit(embed=embed, view=None)
    except discord.HTTPException:
        log.info("challenge %d expired; its message could not be edited", ch.id)


class ExpiryEdits:
    """The messages of expired challenges, edited in the background, a few at a time: the
    timer tick that closed them goes on to the turn timers at once, however many expired
    together and however slowly Discord answers (an edit may wait out a rate limit).

    Bounded: ``at_once`` edits in flight, ``backlog`` waiting at most; past that a message is
    left as it is (a click on it is answered "no longer open"), and the log says so."""

    def __init__(self, client: discord.Client, at_once: int = 4, backlog: int = 1000) -> None:
        self.client = client
        self.backlog = backlog
        self._slots = asyncio.Semaphore(at_once)
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, ch: Challenge) -> None:
        """Say on ``ch``'s message (closed as expired already) that it expired."""
        if message_of(self.client, ch) is None:
            return
        if len(self._tasks) >= self.backlog:
            log.info("challenge %d expired; its message is left as it is (%d edits waiting)",
                     ch.id, len(self._tasks))
            return
        task = asyncio.create_task(self._edit(ch), name=f"umtali-challenge-expiry-{ch.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _edit(self, ch: Challenge) -> None:
        async with self._slots:
            try:
                await _say_expired(self.client, ch)
            except Exception as e:
                # Never lost silently: the challenge is closed all the same, the message stays.
                log.info("challenge %d expired; its message could not be edited (%s: %s)",
                         ch.id, e.__class__.__name__, e)

    async def idle(self) -> None:
        """Wait until every edit asked for so far is done (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """Shutdown: the edits still waiting are cancelled (their challenges are closed)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def expire_challenges(client: discord.Client, now: float | None = None,
                            edits: ExpiryEdits | None = None) -> None:
    """Close every challenge past its time; its message says so, edited here or, with
    ``edits`` (the timer loop's), in the background."""
    svc = service(client)
    for ch in await svc.store.due_challenges(svc.clock() if now is None else now):
        # Closed first, in the database: memory and messages follow it.
        if not await svc.store.close_challenge(ch.id, "expired"):
            continue
        if edits is None:
            await _say_expired(client, ch)
        else:
            edits.add(ch)
