"""The load bench's bot processes and their database: one SQLite file, or one throwaway
PostgreSQL server (``tests/pg_server.py``) shared by one or two processes, each running one
shard of two (``UMTALI_SHARD_COUNT=2``, ``UMTALI_SHARD_IDS`` 0 and 1, ``UMTALI_PROCESS``
p0 and p1) as a bot spread over processes would."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

# Run as a script (make bench runs every bench/*.py), this module only imports.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from data.left_behind import NEW_DATABASE
from tests.loopback.gateway import shard_of
from tests.loopback.harness import BotProcess
from tests.loopback.server import LoopbackDiscord
from tests.pg_server import PgServer, start_server
from umtali.codec import session_from_json
from umtali.session import Session

#: Every configuration runs two shards' worth of guilds, so the figures compare.
SHARDS = 2


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process used so far, from /proc (Linux); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the PostgreSQL server's backends)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Backend:
    """Where the bot processes keep their matches, and how the bench reads a match back."""

    def __init__(self, kind: str, workdir: Path) -> None:
        self.kind, self.workdir = kind, workdir
        self.db = workdir / "bench.sqlite3"
        self.pg: PgServer | None = None
        self.url = ""
        self._conn: Any = None  # a small pool: pairs read at once

    async def start(self) -> None:
        if self.kind != "postgresql":
            return
        self.pg = start_server()
        admin = await asyncpg.connect(self.pg.url("postgres"))
        try:
            await admin.execute("CREATE DATABASE bench")
        finally:
            await admin.close()
        self.url = self.pg.url("bench")

    def env(self) -> dict[str, str]:
        """The bot's settings for this database (an empty URL: the SQLite file), a new one on
        purpose: the checkout's own data/umtali.sqlite3, played in, would refuse the start."""
        return {"UMTALI_DATABASE_URL": self.url, NEW_DATABASE: "1"}

    async def session(self, match_id: int) -> Session:
        """The match's session as the bot saved it (read once, to start a pair's replica)."""
        if self.pg is None:
            with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30) as conn:
                row = conn.execute("SELECT state FROM matches WHERE id = ?",
                                   (match_id,)).fetchone()
            conn.close()
            return session_from_json(json.loads(row[0]))
        if self._conn is None:
            self._conn = await asyncpg.create_pool(self.url, min_size=0, max_size=4)
        state = await self._conn.fetchval("SELECT state FROM matches WHERE id = $1", match_id)
        return session_from_json(json.loads(state))

    def cpu_seconds(self) -> float:
        """CPU the PostgreSQL server used so far (its postmaster and the backends alive now:
        the bots' pools keep theirs open for the whole run); 0 for SQLite."""
        if self.pg is None or self.pg.process is None:
            return 0.0
        main = self.pg.process.pid
        return sum(cpu_seconds(pid) for pid in [main, *children(main)])

    async def stop(self) -> None:
        if self._conn is not None:
            await self._conn.close()
        if self.pg is not None:
            self.pg.stop()


def bot_processes(server: LoopbackDiscord, backend: Backend, count: int) -> list[BotProcess]:
    """One process unsharded, or ``count`` processes each running its shard of ``count``."""
    bots = []
    for n in range(count):
        env = backend.env()
        if count > 1:
            env.update({"UMTALI_SHARD_COUNT": str(count), "UMTALI_SHARD_IDS": str(n),
                        "UMTALI_PROCESS": f"p{n}"})
        workdir = backend.workdir / f"p{n}"
        workdir.mkdir(exist_ok=True)
        bots.append(BotProcess(server, backend.db, workdir, env=env))
    return bots


def guild_channels(server: LoopbackDiscord) -> list[int]:
    """A channel in a guild on each shard of ``SHARDS`` (the first guild's included)."""
    first = shard_of(server.guild_id, SHARDS)
    channels = {first: server.channel_id}
    for shard in range(SHARDS):
        if shard not in channels:
            channels[shard] = server.add_guild(f"Club {shard}", shard=(shard, SHARDS))[1]
    return [channels[s] for s in range(SHARDS)]
