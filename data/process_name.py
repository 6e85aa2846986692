"""One running bot process per name, and per shard, on a database (docs/processes.md, "Names";
docs/scale.md).

Two processes under one name would both believe they hold the same matches: both would run
their timers, post their announcements and play the computer's turns. Two processes running
one shard, or shards of different counts (Discord sends a server's events to every session
whose shard and count it belongs to), would both receive the same clicks. Each happens by
mistake (``make run`` in a terminal while systemd runs the bot; one process's
UMTALI_SHARD_COUNT changed and not the other's), so the process that would make it so is
refused at start.

What a process runs is held for as long as it runs, by locks the operating system (SQLite: a
``flock`` on ``<database>.<what>.lock`` beside the file) or the server (PostgreSQL: session
advisory locks on a connection of its own) lets go of when the process ends, however it ends:
a process killed by SIGKILL or a power cut never blocks its own restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import glob
import logging
import os
import zlib
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg

from data.db import DatabaseUnusable, is_postgres_url
from data.pg_db import CONNECT_TIMEOUT, redacted, unusable

#: The first keys of the advisory locks: the two-key form is a key space of its own, apart
#: from the one-key locks the store takes (players, migrations).
_PG_NAME, _PG_SHARD, _PG_COUNT = 0x756D74, 0x756D75, 0x756D76
#: The shard count of a process with no shards: one connection, every server's events.
PLAIN = 1
#: Seconds between checks that the PostgreSQL connection holding the locks is still there.
KEEP_EVERY = 5.0

log = logging.getLogger(__name__)


#: A session on the PostgreSQL server: its pid and when it started (a pid alone may be reused).
Backend = tuple[int, Any]


class NameTaken(DatabaseUnusable):
    """Another running process holds this name or shard on this database, or runs another
    shard count; one sentence for the user."""


def _by(pid: str) -> str:
    return f" (pid {pid})" if pid else ""


def _name_taken(name: str, where: str, pid: str = "") -> NameTaken:
    return NameTaken(f"another bot process named {name!r} is running on the database "
                     f"{where}{_by(pid)}: stop it first, or give each process its own "
                     f"UMTALI_PROCESS (see docs/processes.md).")


def _shard_taken(shard: int, where: str, pid: str = "") -> NameTaken:
    return NameTaken(f"another bot process runs shard {shard} on the database {where}"
                     f"{_by(pid)}: each shard must run in exactly one process "
                     f"(UMTALI_SHARD_IDS; see docs/scale.md).")


def _count(count: int | None) -> str:
    if count is None:
        return "UMTALI_SHARD_COUNT=auto"
    return "no shards (UMTALI_SHARD_COUNT empty or 1)" if count == PLAIN else \
        f"UMTALI_SHARD_COUNT={count}"


def _count_differs(other: int | None, mine: int | None, where: str) -> NameTaken:
    return NameTaken(f"another bot process runs on the database {where} with {_count(other)}, "
                     f"this one with {_count(mine)}: every process of the bot must give the "
                     f"same UMTALI_SHARD_COUNT (see docs/scale.md).")


class HeldName:
    """What the process runs, held; ``release()`` lets it go (ending the process does too).

    On PostgreSQL the locks live as long as their connection: should it drop (the server
    restarted, failed over, or ended it), they are taken back on a new one (``_keep``)."""

    def __init__(self, fds: list[int] | None = None, conn: Any = None,
                 take: Callable[[Backend | None], Awaitable[tuple[Any, Backend]]] | None = None,
                 backend: Backend | None = None) -> None:
        self._fds, self._conn, self._backend = fds or [], conn, backend
        self._keeping = None if take is None else asyncio.create_task(self._keep(take))

    async def _keep(self, take: Callable[[Backend | None], Awaitable[tuple[Any, Backend]]]
                    ) -> None:
        """Every ``KEEP_EVERY`` seconds: if the locks' connection is gone, take them back. It
        is asked a question each time: one cut without a word (the network) is found out,
        and one in use is not closed as idle by a router on the way."""
        told = ""
        while True:
            await asyncio.sleep(KEEP_EVERY)
            if self._conn is not None and not self._conn.is_closed():
                try:
                    await self._conn.fetchval("SELECT 1", timeout=KEEP_EVERY)
                    continue
                except (OSError, TimeoutError, asyncpg.PostgresError,
                        asyncpg.InterfaceError):
                    self._conn.terminate()
            try:
                # The server may not know yet that the old connection is gone (a stall sends
                # no word): its session, still holding our locks, is ended first.
                self._conn, self._backend = await take(self._backend)
            except NameTaken as e:
                if str(e) != told:  # said once, not every few seconds
                    log.error("this process's hold on its name and shards was lost with its "
                              "database connection, and cannot be taken back: %s", e)
                told = str(e)
            except (OSError, TimeoutError, DatabaseUnusable, asyncpg.PostgresError,
                    asyncpg.InterfaceError) as e:
                if told != "down":  # said once an outage, not every few seconds of it
                    log.warning("this process's hold on its name was lost with its database "
                                "connection; taking it back (%s), said again when it is", e)
                told = "down"
            else:
                told = ""
                log.warning("this process's hold on its name was lost with its database "
                            "connection, and taken back")

    async def release(self) -> None:
        keeping, self._keeping = self._keeping, None
        if keeping is not None:
            keeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeping
        fds, self._fds = self._fds, []
        for fd in fds:
            os.close(fd)  # closing the file drops its flock
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


def lock_file(database: Path, what: str) -> Path:
    return database.with_name(f"{database.name}.{what}.lock")


async def hold_name(database: str | Path, name: str, *, count: int | None = PLAIN,
                    shards: tuple[int, ...] | None = (0,)) -> HeldName:
    """Hold ``name`` on ``database`` (before the store opens it: a SQLite file's folder is
    made) for this process, with its shard ``count`` (None: auto) and the ``shards`` it runs (None:
    not known before connecting); NameTaken if a running process holds the name or one of
    the shards, or runs another count. The default: a bot with no shards."""
    if is_postgres_url(database):
        return await _hold_on_postgres(str(database), name, count, shards or ())
    if str(database) == ":memory:":
        return HeldName()
    held = HeldName()
    try:
        where = str(database)
        # Held before the store opens the file (opening migrates it): its folder made here.
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        held._fds.append(_exclusive(database, name, partial(_name_taken, name, where)))
        held._fds.append(_same_count(Path(database), count))
        for shard in shards or ():
            # ':' is in no process's name: a shard's file is never a name's.
            held._fds.append(_exclusive(database, f"shard:{shard}",
                                        partial(_shard_taken, shard, where)))
    except OSError as e:
        await held.release()
        raise DatabaseUnusable(f"the database {database} cannot be opened ({e}).") from e
    except BaseException:
        await held.release()
        raise
    return held


def _exclusive(database: str | Path, what: str, taken: Callable[[str], NameTaken]) -> int:
    """An exclusive lock on ``what``'s file; ``taken(pid of its holder)`` if held."""
    fd = os.open(lock_file(Path(database), what), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise taken(pid) from None
    except BaseException:
        os.close(fd)
        raise
    # Who holds it, for the sentence a second process prints.
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _count_key(count: int | None) -> str:
    return "auto" if count is None else str(count)


def _same_count(database: Path, count: int | None) -> int:
    """A shared lock on this count's file; NameTaken if another count's file is locked."""
    mine = _count_key(count)
    fd = os.open(lock_file(database, f"count:{mine}"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)  # held exclusively only for a moment, by a check
        for other in database.parent.glob(f"{glob.escape(database.name)}.count:*.lock"):
            key = other.name[len(database.name) + len(".count:"):-len(".lock")]
            if key == mine:
                continue
            with open(other, "rb") as f:
                try:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise _count_differs(None if key == "auto" else int(key), count,
                                         str(database)) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


async def _hold_on_postgres(url: str, name: str, count: int | None,
                            shards: tuple[int, ...]) -> HeldName:
    take = partial(_take_on_postgres, url, name, count, shards)
    conn, backend = await take(None)
    return HeldName(conn=conn, take=take, backend=backend)


async def _take_on_postgres(url: str, name: str, count: int | None, shards: tuple[int, ...],
                            stale: Backend | None) -> tuple[Any, Backend]:
    """A connection of its own holding ``name``, ``shards`` and ``count``'s locks, and its
    session on the server; ``stale``: this process's session that held them, ended first."""
    where = redacted(url)
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT,
                                     server_settings={"application_name": f"umtali {name}"})
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        # Said as opening the store says it: a refused login or a missing database is no
        # server out of reach, and the sentence names what to mend.
        raise unusable(where, e) from e
    try:
        if stale is not None:
            await _end(conn, stale)
        key = zlib.crc32(name.encode()) - 2**31  # a signed 32-bit key
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", _PG_NAME, key):
            raise _name_taken(name, where)
        mine = 0 if count is None else count
        await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", _PG_COUNT, mine)
        held = await conn.fetch(
            "SELECT DISTINCT objid::bigint AS count FROM pg_locks WHERE locktype = 'advisory' "
            "AND granted AND classid = $1 AND objsubid = 2 AND database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())", _PG_COUNT)
        for row in held:
            if row["count"] != mine:
                raise _count_differs(int(row["count"]) or None, count, where)
        for shard in shards:
            if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", _PG_SHARD,
                                       shard):
                raise _shard_taken(shard, where)
        me = await conn.fetchrow(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()")
        assert me is not None, "a session always sees itself"
        backend = (int(me["pid"]), me["backend_start"])
    except BaseException:
        await conn.close()
        raise
    return conn, backend


async def _end(conn: Any, stale: Backend) -> None:
    """End this process's former session ``stale`` on the server and wait, a few seconds at
    most, until its locks are let go. Named by its pid and start time: after a server restart
    the pid may be another session's, which is left alone."""
    pid, start = stale
    gone = "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1 " \
           "AND backend_start = $2)"
    await conn.fetchval("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE pid = $1 AND backend_start = $2", pid, start)
    for _ in range(50):
        if await conn.fetchval(gone, pid, start):
            return
        await asyncio.sleep(0.05)


async def running_on_postgres(conn: Any) -> str | None:
    """Whether a bot process runs on the PostgreSQL database of the connection ``conn``: its
    name ('' if unknown), or None. (Its name's lock is held by a connection of its own.)"""
    row = await conn.fetchrow(
        "SELECT a.application_name FROM pg_locks l LEFT JOIN pg_stat_activity a "
        "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 "
        "AND l.objsubid = 2 AND l.database = "
        "(SELECT oid FROM pg_database WHERE datname = current_database()) LIMIT 1", _PG_NAME)
    if row is None:
        return None
    name = str(row["application_name"] or "")
    return name.removeprefix("umtali ") if name.startswith("umtali ") else ""


def running_on(database: Path) -> str | None:
    """Whether a bot process runs on the SQLite file ``database``: its pid ('' if unknown),
    or None. (Checking takes each name's lock for an instant.)"""
    # The name escaped: ``[``, ``*`` or ``?`` in it would be read as a pattern (missing its
    # own locks, or finding another database's).
    for path in database.parent.glob(f"{glob.escape(database.name)}.*.lock"):
        if path.name.startswith(f"{database.name}.count:"):
            continue  # shared by every process; the names and shards tell
        with open(path, "rb") as f:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return f.read(32).decode(errors="replace").strip()
    return None
