"""Challenges past their ten minutes: closed in the database, then said so on their messages,
by the click that found one expired, or by the timer's tick, whose edits go on in the
background, a few at a time (``ExpiryEdits``). The tick also says on their messages the
withdrawals a stop owes still (``stops.say_withdrawn``: an edit failed for now, a restart)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.umtali.access import service
from cogs.umtali.challenge_posts import message_of, save_unsaved
from cogs.umtali.challenge_text import challenge_embed
from data.models import Challenge
from umtali.i18n import N_

log = logging.getLogger(__name__)

#: At most this many withdrawals owed are said again at a tick (the one due longest first;
#: each tried again later, further apart, then given up: ``data.stops.WITHDRAWN_TRIES``).
WITHDRAWN_AT_ONCE = 50


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


#: Said on a challenge another process cancelled, taking it as never posted (``drop_lost``:
#: its message's id was never saved), once its poster's tick finds its buttons still there.
CANCELLED = N_("This challenge was cancelled.")
PRACTICE_CANCELLED = N_("This practice session was cancelled: nothing was dealt.")


async def _say_cancelled(client: discord.Client, ch: Challenge) -> None:
    message_id = message_of(client, ch)
    if message_id is None:
        return
    from cogs.umtali.practice import offer_embed  # it builds on this module

    tr = service(client).prefs.guild_tr(ch.guild_id)
    message = client.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id) \
        .get_partial_message(message_id)
    embed = offer_embed(ch, tr, tr(PRACTICE_CANCELLED)) if ch.computer_level is not None \
        else challenge_embed(ch, tr, tr(CANCELLED))
    try:
        # A withdraw click on it said so already (on the message it came from): left so.
        if (await message.fetch()).components:
            await message.edit(embed=embed, view=None)
    except discord.HTTPException:
        log.info("challenge %d cancelled; its message could not be edited", ch.id)


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
        #: The challenges whose edits are under way (a withdrawal owed, found again by the
        #: next tick meanwhile, is not edited twice).
        self._editing: set[int] = set()

    def add(self, ch: Challenge,
            say: Callable[[discord.Client, Challenge], Awaitable[None]] | None = None) -> None:
        """Say on ``ch``'s message (closed as expired already) that it expired; or ``say``
        it otherwise (a withdrawal owed, which says itself whether it has a message)."""
        if (say is None and message_of(self.client, ch) is None) or ch.id in self._editing:
            return
        if len(self._tasks) >= self.backlog:
            if say is None or say is _say_cancelled:
                log.info("challenge %d closed; its message is left as it is (%d edits "
                         "waiting)", ch.id, len(self._tasks))
            else:  # (still owed: a later tick finds it again)
                log.info("challenge %d withdrawn; its message is edited at a later tick "
                         "(%d edits waiting)", ch.id, len(self._tasks))
            return
        self._editing.add(ch.id)
        task = asyncio.create_task(self._edit(ch, say or _say_expired),
                                   name=f"umtali-challenge-expiry-{ch.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _edit(self, ch: Challenge,
                    say: Callable[[discord.Client, Challenge], Awaitable[None]]) -> None:
        async with self._slots:
            try:
                await say(self.client, ch)
            except Exception as e:
                # Never lost silently: the challenge is closed all the same, the message stays.
                log.info("challenge %d closed; its message could not be edited (%s: %s)",
                         ch.id, e.__class__.__name__, e)
            finally:
                self._editing.discard(ch.id)

    def room(self) -> int:
        """How many more edits it takes now (a withdrawal claimed past that would be counted
        as tried, and left as it is: review163)."""
        return max(0, self.backlog - len(self._tasks))

    def editing(self) -> frozenset[int]:
        """The challenges whose edits are under way (or waiting for their turn)."""
        return frozenset(self._editing)

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
    from cogs.umtali.stops import say_claimed  # (it builds on the challenges' modules)

    svc = service(client)
    now = svc.clock() if now is None else now

    async def say(ch: Challenge) -> None:
        how = _say_cancelled if ch.status == "cancelled" else None
        if edits is None:
            await (how or _say_expired)(client, ch)
        else:
            edits.add(ch, how)

    # Each said as soon as it is closed (review163: kept in a list for after the loop, it was
    # lost to a later save failing, its buttons left for good, nothing finding it again).
    # Messages whose ids only this process knows, saved now; one another process expired
    # meanwhile said here, where its message is known (fix170: its buttons stayed for good),
    # and one cancelled elsewhere as never posted (review163).
    async for ch in save_unsaved(client):
        await say(ch)
    for due in await svc.store.due_challenges(now):
        # Closed first, in the database, and read back as closed (its message's id maybe
        # saved since, by its poster): memory and messages follow it.
        closed = await svc.store.expire_challenge(due.id)
        if closed is not None:
            await say(closed)
    # Withdrawn by a stop, their messages not saying so yet (review158: closed, expiry passed
    # them by, and their buttons stayed for good): each try taken by one process (fix170).
    # A try is counted as it is claimed: no more than the edits take now, none being edited
    # (review163: each skipped by ``add`` was a try counted, never made).
    limit = WITHDRAWN_AT_ONCE if edits is None else min(WITHDRAWN_AT_ONCE, edits.room())
    if limit <= 0:
        return
    for ch in await svc.store.claim_withdrawals(
            now, limit, () if edits is None else sorted(edits.editing())):
        if edits is None:
            await say_claimed(client, ch)
        else:
            edits.add(ch, say_claimed)
