"""Start ``bot.py``'s ``main()`` with discord.py pointed at a loopback server.

Used by the tests as a subprocess: ``UMTALI_LOOPBACK_URL=http://127.0.0.1:PORT`` chooses the
server; everything else (DISCORD_TOKEN, UMTALI_DB_PATH, ...) is read by ``bot.py`` as usual.
bot.py itself is not changed: only discord.py's two addresses are patched before it starts.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: The first session's seed, if the deals are to come from it (``_seeded``).
SEED_VAR = "UMTALI_LOOPBACK_SEED"
#: The computer's pause before its turns, in seconds (``_computer_pause``).
PAUSE_VAR = "UMTALI_LOOPBACK_COMPUTER_PAUSE"
#: The matches' lease in seconds (``_lease``), if a test would not wait bot.py's 15 s for a
#: killed process's matches to be taken over.
LEASE_VAR = "UMTALI_LOOPBACK_LEASE"
#: The database's busy timeout in seconds (``_busy_timeout``), if shorter than bot.py's 5 s.
BUSY_VAR = "UMTALI_LOOPBACK_BUSY_TIMEOUT"
#: Seconds a start waits for a database another process holds (``data.db.START_WAIT``).
START_WAIT_VAR = "UMTALI_LOOPBACK_START_WAIT"
#: Seconds between the timers' checks (``run_timers``'s ``every``, 1 s), shorter for a test.
TIMERS_VAR = "UMTALI_LOOPBACK_TIMERS_EVERY"
#: Seconds between lease renewals (``cogs.umtali.owners.RENEW_EVERY``, 5 s), shorter too.
RENEW_VAR = "UMTALI_LOOPBACK_RENEW_EVERY"
#: A stop's wait for the interactions under way, in seconds (``_drain``).
DRAIN_VAR = "UMTALI_LOOPBACK_DRAIN"
#: Every pause of discord.py between its tries to reconnect, in seconds (``_backoff``).
BACKOFF_VAR = "UMTALI_LOOPBACK_BACKOFF"
#: How often the clocks ask whether Discord's REST API answers again, in seconds
#: (``_ask_rest_every``).
ASK_REST_VAR = "UMTALI_LOOPBACK_ASK_REST_EVERY"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _patch(url: str) -> None:
    import discord

    from tests.loopback.server import point_discord_py_at

    host = url.rstrip("/")
    point_discord_py_at(f"{host}/api/v10", host.replace("http", "ws", 1) + "/gateway")
    original = discord.Client.__init__

    def init(self: discord.Client, *args: Any, **options: Any) -> None:
        # "ready" comes this long after the last GUILD_CREATE; the default 2 s only slows tests.
        options.setdefault("guild_ready_timeout", 0.1)
        original(self, *args, **options)

    discord.Client.__init__ = init  # type: ignore[method-assign]

    async def no_wait(self: discord.Client, shard_id: int | None, *,
                      initial: bool = False) -> None:
        """No 5 s pause before a shard's IDENTIFY: the loopback does not limit them."""

    discord.Client.before_identify_hook = no_wait  # type: ignore[method-assign]
    if shards := os.environ.get("UMTALI_SHARD_IDS", ""):
        _named(f"shards-{shards}")
    # Each setting given to this bot (unset: the bot's own), and what it changes.
    settings: tuple[tuple[str, Callable[[str], None]], ...] = (
        (SEED_VAR, lambda v: _seeded(int(v))),
        (PAUSE_VAR, lambda v: _computer_pause(float(v))),
        (LEASE_VAR, lambda v: _lease(float(v))),
        (BUSY_VAR, lambda v: _busy_timeout(float(v))),
        (START_WAIT_VAR, lambda v: _start_wait(float(v))),
        (DRAIN_VAR, lambda v: _drain(float(v))),
        (BACKOFF_VAR, lambda v: _backoff(float(v))),
        (ASK_REST_VAR, lambda v: _ask_rest_every(float(v))),
    )
    for var, setting in settings:
        if value := os.environ.get(var, ""):
            setting(value)
    _shorter_waits(os.environ.get(TIMERS_VAR, ""), os.environ.get(RENEW_VAR, ""))

def _shorter_waits(timers: str, renew: str) -> None:
    """The waits a test of the database failing would otherwise sit out in real time (as the
    tests in this process monkeypatch them); unset: the bot's own."""
    import importlib

    def shorter(module: str, name: str, value: object) -> None:
        setattr(importlib.import_module(module), name, value)

    if timers:
        import functools

        from cogs.umtali.startup import run_timers

        shorter("bot", "run_timers", functools.partial(run_timers, every=float(timers)))
    if renew:
        shorter("cogs.umtali.owners", "RENEW_EVERY", float(renew))


def _drain(seconds: float) -> None:
    """A stop waits this long for the interactions under way (``in_flight.DRAIN``, 6 s)."""
    from cogs.umtali import in_flight

    in_flight.DRAIN = seconds


def _ask_rest_every(seconds: float) -> None:
    """While Discord's REST API is out of reach, the clocks' checks ask it whether it answers
    again this often (``rest_outage.ASK_EVERY``, 5 s)."""
    from cogs.umtali import rest_outage

    rest_outage.ASK_EVERY = seconds


def _backoff(seconds: float) -> None:
    """discord.py pauses ``seconds`` before each try to reconnect, from the first: not a random
    pause growing each time (up to 2, 4, 8 s...), waited out before a long one comes."""
    import discord.backoff
    import discord.client

    class Fixed(discord.backoff.ExponentialBackoff[bool]):
        def delay(self) -> float:
            super().delay()
            return seconds

    setattr(discord.client, "ExponentialBackoff", Fixed)  # noqa: B010 (not exported)


def _named(name: str) -> None:
    """Each REST call says which process made it (its user agent), for a soak's trace."""
    import discord.http

    original = discord.http.HTTPClient.__init__

    def init(self: discord.http.HTTPClient, *args: Any, **options: Any) -> None:
        original(self, *args, **options)
        self.user_agent += f" umtali-process/{name}"

    discord.http.HTTPClient.__init__ = init  # type: ignore[method-assign]


def _computer_pause(seconds: float) -> None:
    """The computer's pause before each of its turns (1.5 s in bot.py), shorter for a soak."""
    import bot

    original = bot.UmtaliBot.__init__

    def init(self: bot.UmtaliBot, *args: Any, **options: Any) -> None:
        options.setdefault("computer_pause", seconds)
        original(self, *args, **options)

    bot.UmtaliBot.__init__ = init  # type: ignore[method-assign]


def _lease(seconds: float) -> None:
    """The matches' lease (``cogs.umtali.claims.LEASE``, 15 s), shorter for a test. It is
    renewed every ``cogs.umtali.owners.RENEW_EVERY`` (5 s; ``RENEW_VAR`` shortens it): a lease
    under about 10 s needs that shorter too, or a renewal comes too near its end."""
    from cogs.umtali import claims, owners

    claims.LEASE = seconds
    owners.LEASE = seconds  # type: ignore[attr-defined]


def _busy_timeout(seconds: float) -> None:
    """How long a save waits for a database busy elsewhere (``data.db.BUSY_TIMEOUT``, 5 s),
    shorter for a soak that makes it busy past it (its waits shortened alike)."""
    from data import backup, db, pg_db, sqlite_db

    for module in (db, backup, pg_db, sqlite_db):
        module.BUSY_TIMEOUT = seconds  # type: ignore[attr-defined]


def _start_wait(seconds: float) -> None:
    """How long a start waits for a database another process holds (``START_WAIT``, 300 s)."""
    import bot
    from data import db

    db.START_WAIT = seconds
    bot.START_WAIT = seconds  # type: ignore[attr-defined]  # (imported there, read at start)


def _seeded(first: int) -> None:
    """Sessions seeded ``first``, ``first + 1``, ... (as the tests' ``fixed_seeds``), so that
    with the cuts typed a soak's deals come again from its seed."""
    from cogs.umtali.service import MatchService

    seeds = iter(range(first, first + 10**6))
    MatchService.new_seed = lambda self: str(next(seeds))  # type: ignore[method-assign]


def run() -> int:
    url = os.environ.get("UMTALI_LOOPBACK_URL", "")
    if not url.startswith("http://127.0.0.1:"):
        print("error: UMTALI_LOOPBACK_URL must be http://127.0.0.1:<port>", file=sys.stderr)
        return 2
    _patch(url)
    from bot import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
