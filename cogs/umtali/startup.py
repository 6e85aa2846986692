"""Start-up chores: syncing slash commands only when they changed, and the timer loop."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.umtali.access import service
from cogs.umtali.alive import heartbeat
from cogs.umtali.challenge_expiry import ExpiryEdits, expire_challenges
from cogs.umtali.clock_state import CONNECTING
from cogs.umtali.command_scope import commands_fingerprint, scope_is_current, sync_commands
from cogs.umtali.failures import PASSING
from cogs.umtali.lasting import Lasting
from cogs.umtali.outgrown import stop_if_outgrown
from cogs.umtali.standing_still import judge_stood, judged_check
from cogs.umtali.steps import note_step
from data.store import Store

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


async def sync_if_changed(bot: commands.Bot, store: Store, guild_id: int | None) -> bool:
    """Sync the slash commands with Discord only when their definition changed."""
    fingerprint = await commands_fingerprint(bot, guild_id)
    # The scope too: a scope left behind that could not be emptied yet is tried again.
    if await store.get_meta("commands_fingerprint") == fingerprint and \
            await scope_is_current(bot, store, guild_id):
        log.info("slash commands unchanged: no sync")
        return False
    try:
        await sync_commands(bot, store, guild_id)
    except discord.Forbidden as e:
        # A test server the bot is not in (a mistyped UMTALI_DEV_GUILD_ID), or invited without
        # the commands scope: said once, plainly; the bot plays on with the commands Discord
        # has, and the next start tries again (the fingerprint is not kept).
        where, check = (
            (f"to the server {guild_id} (UMTALI_DEV_GUILD_ID)", "Is the bot in that server, "
             "invited with the applications.commands scope?") if guild_id is not None else
            ("globally", "Check the application's bot token and scopes."))
        log.error("slash commands could not be synced %s: Discord refused (%s). %s The bot "
                  "runs on with the commands as they were.", where, e, check)
        return False
    except PASSING as e:
        # Discord failing for now (a 5xx after discord.py's retries, the network): no reason
        # not to play on with the commands it has; the next start tries again.
        log.error("slash commands could not be synced %s: Discord failed (%s: %s). The bot runs "
                  "on with the commands as they were; the next start tries again.",
                  f"to guild {guild_id}" if guild_id is not None else "globally",
                  e.__class__.__name__, e)
        return False
    await store.set_meta("commands_fingerprint", fingerprint)
    log.info("slash commands synced %s", f"to guild {guild_id}" if guild_id else "globally")
    return True


def _waking(bot: commands.Bot, every: float) -> float | None:
    """When the timers' loop, about to sleep ``every`` seconds, should wake, on the steady
    clock (None: the service is not there). A step of the wall clock is no pause: it is seen
    apart, as the two clocks set apart (``steps``), and would be seen twice, or one way alone
    (a step back seen by the watch, forward by the loop)."""
    try:
        return service(bot).ticks() + every
    except Exception:
        return None


def _late(svc: MatchService, waking: float) -> tuple[float, float]:
    """Woken now, meant to at ``waking`` (steady): the sleep seen as ``stood`` has it, from
    when it meant to wake to now, on the wall clock. A step of the clock is looked for first
    (``note_step``): one back, judged after a pause seen in the same sleep, left what was
    judged ahead of that pause, which was lost."""
    note_step(svc)
    now = svc.clock()
    return now - max(0.0, svc.ticks() - waking), now


async def _judge(svc: MatchService) -> None:
    """The late wakes the watch saw, judged once a check under way is over."""
    try:
        async with svc.clock_state.judging:
            await judge_stood(svc)
    except Exception as e:
        log.warning("the watch of the timers failed (%s: %s); trying again",
                    e.__class__.__name__, e)


async def _watch(bot: commands.Bot, every: float) -> None:
    """Beside the timers' loop, a sleeper that does nothing else: woken late, the bot stood
    still. The loop sees a pause only in its own sleep, not while a check awaits the database
    (whose slowness is no pause: players play on meanwhile); a pause then would forfeit the
    turns at the next check. What it sees is noted, and judged beside it (``_judge``):
    waiting for the check under way itself, it saw no pause until that check was over."""
    waking: float | None = None
    judging: asyncio.Task[None] | None = None
    try:
        while not bot.is_closed():
            if waking is not None:
                try:
                    svc = service(bot)
                    since, now = _late(svc, waking)
                    if now - since >= CONNECTING:  # woken late
                        svc.clock_state.stood.append((since, now))
                        if judging is None or judging.done():
                            judging = asyncio.create_task(_judge(svc))
                except Exception as e:
                    log.warning("the watch of the timers failed (%s: %s); trying again",
                                e.__class__.__name__, e)
            waking = _waking(bot, every)
            await asyncio.sleep(every)
    finally:
        if judging is not None:
            judging.cancel()
            await asyncio.gather(judging, return_exceptions=True)


async def run_timers(bot: commands.Bot, every: float = 1.0) -> None:
    """Turn deadlines and challenge expiry, checked every second for as long as the bot runs."""
    await bot.wait_until_ready()
    watch = asyncio.create_task(_watch(bot, every))
    # Expired challenges' messages are edited beside the tick, never holding it up.
    edits = ExpiryEdits(bot)
    ticks = 0
    # The database failing a while fails a check every ten seconds: said once.
    failing = Lasting(log, "timer check failed", "the timer checks work again")
    #: When the loop meant to wake next (by the service's steady clock: ``_waking``).
    waking: float | None = None
    try:
        while not bot.is_closed():
            try:
                svc = service(bot)
                # As it woke, before anything awaits: a read waiting on a busy database is
                # no standing still.
                woken = _late(svc, svc.ticks() if waking is None else waking)
                if waking is not None:
                    # Noted as it woke, in turn with the watch's (a wait for the lock is no
                    # standing still), with no await between: a step back the watch notes
                    # meanwhile would leave this wake ahead of the clock, and a pause in
                    # the time it is ahead judged as seen (review158).
                    svc.clock_state.stood.append(woken)
                # First: a schema this bot does not know may fail the checks below.
                if ticks % 10 == 0 and await stop_if_outgrown(bot, svc):
                    return
                # The leases are renewed beside the checks, which Discord may hold up.
                svc.owners.renew_beside(every)
                with svc.owners.checking(woken[1]):
                    await judged_check(svc)
                    if ticks % 10 == 0:
                        await expire_challenges(bot, edits=edits)
                        # A server's removal whose ending failed (the database) is tried again.
                        await svc.removals.retry()
                        # When the bot was last alive: after a crash, running turns get their
                        # time back.
                        await heartbeat(svc)
                        # (a run of failures ends at a check that did all of this)
                        failing.worked()
            except Exception as e:
                failing.failed(e)
            ticks += 1
            waking = _waking(bot, every)
            await asyncio.sleep(every)
    finally:
        watch.cancel()
        await asyncio.gather(watch, return_exceptions=True)
        await edits.close()
