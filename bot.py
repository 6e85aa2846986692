"""Entry point of the Umtali Discord bot.

It loads and checks the settings (from the environment and an optional ``.env`` file in the
current working directory), opens the database, then runs the bot until SIGINT or SIGTERM
closes it. Run it with ``make run``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from data.location import DotenvError, read_dotenv

if __name__ == "__main__":
    # Run as the bot: .env is read before ``umtali`` is imported, whose umtali/compiled.py
    # reads UMTALI_ENGINE then, so that the bot runs the engine .env asks for, as its
    # computer's worker processes do. (Imported by tests and tools, it is read by main().)
    with contextlib.suppress(DotenvError):  # said by main(), which reads it again
        read_dotenv()

import umtali
from cogs.umtali.admin_confirm import EndButton
from cogs.umtali.clock import hear_gateway
from cogs.umtali.errors import answer_error, answered_stale_autocomplete, quiet_late_autocompletes
from cogs.umtali.final_card import FINAL_ITEMS
from cogs.umtali.in_flight import InFlight, admitted
from cogs.umtali.invite import invite_url
from cogs.umtali.lost_answers import answer_once
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.panels import DYNAMIC_ITEMS
from cogs.umtali.rematch import RematchButton
from cogs.umtali.removal import hear_removals
from cogs.umtali.rest_outage import FirstTries, hear_rest
from cogs.umtali.rest_timeout import bound_calls
from cogs.umtali.season_summaries import run_seasons, season_tick
from cogs.umtali.service import MatchService
from cogs.umtali.startup import run_timers, sync_if_changed
from cogs.umtali.stops import StopButton
from cogs.umtali.translator import UmtaliTranslator
from cogs.umtali.unknown import answered_unknown
from data.db import START_WAIT, DatabaseUnreachable, DatabaseUnusable, too_new
from data.left_behind import refuse_left_behind
from data.location import DEFAULT_DB_PATH, shown
from data.process_name import hold_name
from data.store import Store
from scale import gateway_refusal, rest_failure, shards_held, use_discord_api
from settings import (
    DEFAULT_LOG_LEVEL,
    LOG_LEVELS,
    Settings,
    SettingsError,
    load_settings,
    private_log_levels,
)

__all__ = [
    "DEFAULT_DB_PATH",
    "DEFAULT_LOG_LEVEL",
    "LOG_LEVELS",
    "Settings",
    "SettingsError",
    "ShardedUmtaliBot",
    "UmtaliBot",
    "load_settings",
    "main",
    "make_bot",
]

log = logging.getLogger("umtali.bot")

#: Every control the bot makes, each read by its custom id's template.
ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*DYNAMIC_ITEMS, *FINAL_ITEMS, RematchButton,
                                                       StopButton, EndButton)

EXIT_SETTINGS_ERROR = 2
EXIT_DATABASE_ERROR = 2
#: Something out of reach for now (Discord, the REST proxy, the database server): the same
#: start may work a while later, as a supervisor would try it (docs/examples/umtali.service).
EXIT_FOR_NOW = 1
#: How often the leases are renewed, seconds (well within ``cogs.umtali.claims.LEASE``).
RENEW_EVERY = 1.0


class UmtaliTree(app_commands.CommandTree[commands.Bot]):
    """The one place a failed command is answered: briefly for the user, fully in the log."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Every command (and autocomplete) passes here: the close waits for those let on.
        if not await admitted(interaction):
            return False
        return not await answered_stale_autocomplete(interaction)


class UmtaliBot(commands.Bot):
    """The bot: the store opened once, the cog loaded, matches and their buttons restored."""

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 sync_commands: bool = True, timers: bool = True,
                 computer_pause: float = 1.5,
                 clock: Callable[[], float] = time.time, **client_options: Any) -> None:
        # Slash commands, buttons and DMs need no privileged intent, not even guild members.
        intents = discord.Intents.none()
        intents.guilds = True
        if settings.discord_api is not None:
            # Through the shared proxy: each try of a call heard (``hear_rest``).
            client_options.setdefault("http_trace", FirstTries())
        # No voice here: discord.py's WARNINGs at a process's first client that PyNaCl and
        # davey are missing (voice would not work) would ask the admin, at every start, to
        # install what this bot does not use.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # Nothing pings unless a send names whom it pings (cogs/umtali/mentions.py).
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         tree_cls=UmtaliTree, help_command=None,
                         allowed_mentions=NO_MENTIONS, **client_options)
        bound_calls(self.http)
        answer_once()
        self.settings = settings
        #: Given when ``main()`` opened it already; otherwise opened in ``setup_hook``.
        self.store = store
        self.sync_commands = sync_commands
        self.timers = timers
        self.computer_pause = computer_pause
        self.clock = clock
        self.matches: MatchService | None = None
        self._timers: asyncio.Task[None] | None = None
        self._seasons: asyncio.Task[None] | None = None
        #: The close, once begun: asked for again, it is waited for, not begun anew.
        self._umtali_closing: asyncio.Task[None] | None = None
        #: The interactions under way, which a close lets finish first.
        self.in_flight = InFlight()
        #: Set up (matches restored, commands loaded): a stop now closes it as it runs.
        self.serving = False
        #: The gateway's READY had once (its IDENTIFY accepted): only then may its close say
        #: every move is saved (a gateway refusing it, 4014 disallowed intents, ends a start
        #: with nothing played).
        self.connected = False
        #: The matches setup_hook restored, said once the gateway accepts the bot.
        self._restored = 0
        #: Set once the close is done (``run_until_closed`` ends the start then).
        self.closed = asyncio.Event()
        self._frozen = False

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await Store.open(self.settings.database)
        store = self.store
        self.matches = MatchService(self, store, clock=self.clock,
                                    computer_pause=self.computer_pause,
                                    thinking_workers=self.settings.thinking_workers,
                                    owner=self.settings.process)
        restored = await self.matches.load_active()
        if self.timers:
            # Held from now on, connected or not (the clocks start at READY): connecting may
            # take longer than a lease (shards identify 5 s apart, Discord may be slow), and
            # another process taking the matches meanwhile would run the clocks of turns
            # nobody can play, their servers on this process's shards.
            self.matches.owners.renew_beside(RENEW_EVERY)
        hear_gateway(self, self.matches)
        if self.settings.discord_api is not None:
            # Through the shared proxy: all of the REST API out of reach is told apart.
            hear_rest(self.http, self.matches, self.is_closed)
        hear_removals(self, self.matches)
        self.add_dynamic_items(*ITEMS)
        quiet_late_autocompletes()
        await self.tree.set_translator(UmtaliTranslator())
        await self.load_extension("cogs.umtali")
        if self.sync_commands:
            await sync_if_changed(self, store, self.settings.dev_guild_id)
        if self.timers:
            self._timers = asyncio.create_task(run_timers(self))
            self._seasons = asyncio.create_task(run_seasons(self))
        # Said at the gateway's READY (``dispatch``), not here: a gateway refusing the bot
        # (4014 disallowed intents) would else follow "Ready to play" with its error.
        self._restored = restored
        self.serving = True

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A click or submit no control reads: answered, where discord.py would drop it.
        if await answered_unknown(interaction, ITEMS):
            return
        # The member's language, for what later reaches them with no interaction (their DMs);
        # not once stopping, the database about to close.
        if self.matches is not None and not self.in_flight.stopping:
            try:
                await self.matches.prefs.saw_locale(interaction.user.id,
                                                    interaction.locale.value)
                if interaction.guild_id is not None and interaction.guild_locale is not None:
                    # For another process, which may draw the server's matches unheard.
                    await self.matches.prefs.note_guild_locale(
                        interaction.guild_id, interaction.guild_locale.value)
            except Exception as e:
                log.warning("could not keep a member's or a server's language (%s)", e)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Once stopping, only interactions go on (to be answered that the bot restarts); the
        # rest is for the next start, whose READY finds what changed meanwhile. Once closed,
        # nothing: discord.py's close unsets the loop that a READY still pending would use.
        if event_name == "connect" and not self.connected:
            # (discord.py's, on READY: before on_ready's guild wait); said once, not at each
            # reconnect or shard
            self.connected = True
            if self.serving and not self.in_flight.stopping and not self.is_closed():
                log.info("Ready to play: %d active match(es) restored.", self._restored)
        if self.is_closed() or (self.in_flight.stopping and event_name != "interaction"):
            return
        super().dispatch(event_name, *args, **kwargs)

    async def on_ready(self) -> None:
        # (a close waits for the chore below, and a start's READY during a close skips it)
        if not self._frozen and self.in_flight.track():
            # A full garbage collection scans every object, and pauses every match while it
            # does. What is alive once connected (code, caches, restored matches) lives as
            # long as the process: leave it out of those scans. Under load this took the p99
            # answer time from ~80 ms to ~15 ms (bench/discord_load.py).
            self._frozen = True
            gc.collect()
            gc.freeze()
            # The link that adds this bot to a server, for whoever runs it (once a process).
            client_id = self.application_id or (self.user.id if self.user else None)
            if client_id is not None:
                log.info("Invite link: %s", invite_url(client_id))
            # A season that ended while the bot was away ends now (once), and its summary is
            # posted once, timers or not: a start-up chore, like counting a result's backlog.
            await season_tick(self, start=True)

    async def close(self) -> None:
        # Once: a newer schema's close (``cogs.umtali.outgrown``) and a signal's may cross,
        # and a second would close the store under the first's saves.
        if self._umtali_closing is None:
            self._umtali_closing = asyncio.create_task(self._close())
            self._umtali_closing.add_done_callback(lambda _: self.closed.set())
        await self._umtali_closing

    async def _close(self) -> None:
        # The clocks stop first: from now on a move is turned away, so no turn may run out
        # (the next start gives each its time back). The leases are still renewed beside.
        for task in (self._timers, self._seasons):
            if task is not None:
                task.cancel()
        # Then the clicks and commands under way (an Accept between its match and its table),
        # while the database and the connection are still there for them.
        await self.in_flight.drain(self.matches.flush if self.matches is not None else None)
        if self.matches is not None:
            await self.matches.close()
        if self.store is not None:
            await self.store.close()
            if self.serving and self.connected:
                log.info("Closed: every move is saved and the database closed.")
            else:
                # Never ready (Discord out of reach, a refused token or intents, a stop while
                # starting): no move was played here, and the error said next is the news.
                log.info("Closed after an unfinished start: nothing was played; "
                         "the database closed.")
        await super().close()


class ShardedUmtaliBot(UmtaliBot, commands.AutoShardedBot):
    """The bot running shards of its own (UMTALI_SHARD_COUNT, UMTALI_SHARD_IDS): one gateway
    connection each, and everything else as in ``UmtaliBot``."""


def make_bot(settings: Settings, **options: Any) -> UmtaliBot:
    """The bot the settings ask for: a plain one, or one running the shards they name."""
    if settings.shards is None:
        return UmtaliBot(settings, **options)
    return ShardedUmtaliBot(settings, **options, **settings.shards.options())


async def serve(settings: Settings) -> None:
    """Open the database, then run the bot until it closes, or SIGINT or SIGTERM (Ctrl-C,
    systemd, ``docker stop``) closes it: the same clean close for all three."""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    stopping = False
    #: The signal's close, held here: a task nobody refers to may be collected mid-way.
    closing: asyncio.Task[None] | None = None

    def stop() -> None:
        nonlocal stopping, closing
        if stopping:  # a second signal must not cut the close short
            return
        stopping = True
        if bot is not None and bot.serving:
            # Closed as a newer schema closes it: the gateway still read while the interactions
            # under way finish, so that those coming meanwhile are answered.
            closing = asyncio.create_task(bot.close())
        else:
            task.cancel()  # still starting: nothing under way yet

    signals = (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        loop.add_signal_handler(sig, stop)
    bot: UmtaliBot | None = None
    try:
        # Before anything is made (a lock file, a folder): a new database beside the full one
        # would seem to have lost every record, and take the next matches.
        await refuse_left_behind(settings.database, os.environ, Path.cwd())
        # A second process under this name would play this one's matches too. Checked before
        # the database is opened: opening migrates it, and a newer checkout started by mistake
        # under a running bot's name would leave that bot a database it cannot restart on.
        held = await hold_name(settings.database, settings.process,
                               **shards_held(settings.shards))
        try:
            # Before Discord: a database that cannot be used stops the bot before it logs in;
            # one another process holds (its upgrade) is waited for, a while.
            store = await Store.open(settings.database, wait=START_WAIT)
        except BaseException:
            await held.release()
            raise
        log.info(
            "Database %s open; command sync %s.",
            shown(settings.database),
            f"to guild {settings.dev_guild_id}" if settings.dev_guild_id else "global",
        )
        # Compiled by make, or the sources where a changed one was not compiled again.
        log.info("Rules engine %s.", umtali.ENGINE)
        use_discord_api(settings.discord_api)
        # Leaving ``async with`` closes the bot (store included), however it is left.
        try:
            async with make_bot(settings, store=store) as bot:
                await run_until_closed(bot, settings.token)
        finally:
            await held.release()
    except asyncio.CancelledError:
        if not stopping:
            raise
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
    if bot is not None and bot.matches is not None and bot.matches.outgrown is not None:
        # Closed by itself: a newer bot migrated the database meanwhile. Said so (and its exit
        # status) also when a signal came as it closed, which stopped nothing more.
        raise DatabaseUnusable(too_new(shown(settings.database), bot.matches.outgrown))


async def run_until_closed(bot: UmtaliBot, token: str) -> None:
    """``bot.start(token)``, until it ends or the bot is closed (a signal, a newer schema):
    discord.py's connect sees a close only when it next looks, and in an outage it may be
    sleeping out a reconnect's backoff (minutes), well past docker's SIGKILL."""
    starting = asyncio.create_task(bot.start(token))
    closed = asyncio.create_task(bot.closed.wait())
    try:
        await asyncio.wait({starting, closed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        closed.cancel()
        if not starting.done():
            # Closed (or this serve cancelled): the start has nothing left to do.
            starting.cancel()
            await asyncio.wait({starting})
    if not starting.cancelled():
        starting.result()  # its failure (a refused token, say), if it ended with one


def main() -> int:
    """Load the settings and start the bot; returns the process exit status."""
    try:
        read_dotenv()  # again when run as bot.py (its values kept: said once); tests call main()
    except DotenvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_SETTINGS_ERROR

    try:
        settings = load_settings(os.environ)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_SETTINGS_ERROR

    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    private_log_levels(settings.log_level)
    try:
        asyncio.run(serve(settings))
    except DatabaseUnusable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FOR_NOW if isinstance(exc, DatabaseUnreachable) else EXIT_DATABASE_ERROR
    except KeyboardInterrupt:  # Ctrl-C before serve() took over the signals
        pass
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN: reset the token on the Bot tab of your "
            "application in the developer portal and put the new one in .env.",
            file=sys.stderr,
        )
        return EXIT_SETTINGS_ERROR
    except discord.ConnectionClosed as exc:
        if (refusal := gateway_refusal(exc)) is None:
            raise
        print(f"error: {refusal}", file=sys.stderr)
        return EXIT_SETTINGS_ERROR
    except (OSError, aiohttp.ClientError, discord.DiscordServerError) as exc:
        if (failure := rest_failure(exc, settings.discord_api)) is not None:
            print(f"error: {failure}", file=sys.stderr)
            return EXIT_FOR_NOW
        if isinstance(exc, discord.DiscordServerError):
            raise
        print(f"error: could not reach Discord ({exc.__class__.__name__}): check the network "
              "connection and try again.", file=sys.stderr)
        return EXIT_FOR_NOW
    return 0


if __name__ == "__main__":
    sys.exit(main())
