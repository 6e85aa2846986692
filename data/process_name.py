"""One running bot process per name and database (docs/processes.md, "Names").

Two processes under one name would both believe they hold the same matches: both would run
their timers, post their announcements and play the computer's turns. That happens by mistake
(``make run`` in a terminal while systemd runs the bot), so the second one is refused at start.

The name is held for as long as the process runs, by a lock the operating system (SQLite: an
exclusive ``flock`` on ``<database>.<name>.lock`` beside the file) or the server (PostgreSQL: a
session advisory lock on a connection of its own) lets go of when the process ends, however
it ends: a process killed by SIGKILL or a power cut never blocks its own restart.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import zlib
from pathlib import Path
from typing import Any

import asyncpg

from data.db import DatabaseUnusable, is_postgres_url
from data.pg_db import CONNECT_TIMEOUT, redacted

#: The first key of the advisory locks holding names: the two-key form is a key space of its
#: own, apart from the one-key locks the store takes (players, migrations).
_PG_LOCK_CLASS = 0x756D74  # "umt"


class NameTaken(DatabaseUnusable):
    """Another running process holds this name on this database; one sentence for the user."""


def _taken(name: str, where: str, pid: str = "") -> NameTaken:
    by = f" (pid {pid})" if pid else ""
    return NameTaken(f"another bot process named {name!r} is running on the database "
                     f"{where}{by}: stop it first, or give each process its own UMTALI_PROCESS "
                     f"(see docs/processes.md).")


class HeldName:
    """The name held; ``release()`` lets it go (ending the process does too)."""

    def __init__(self, fd: int | None = None, conn: Any = None) -> None:
        self._fd, self._conn = fd, conn

    async def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the file drops its flock
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


def lock_file(database: Path, name: str) -> Path:
    return database.with_name(f"{database.name}.{name}.lock")


async def hold_name(database: str | Path, name: str) -> HeldName:
    """Hold ``name`` on ``database`` (an opened store's: the SQLite file's folder exists) for
    this process; NameTaken if a running process holds it already."""
    if is_postgres_url(database):
        return await _hold_on_postgres(str(database), name)
    if str(database) == ":memory:":
        return HeldName()
    path = lock_file(Path(database), name)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise _taken(name, str(database), pid) from None
    except BaseException:
        os.close(fd)
        raise
    # Who holds it, for the sentence a second process prints.
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return HeldName(fd=fd)


async def _hold_on_postgres(url: str, name: str) -> HeldName:
    where = redacted(url)
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT,
                                     server_settings={"application_name": f"umtali {name}"})
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise DatabaseUnusable(f"the database {where} cannot be reached ({e}).") from e
    try:
        key = zlib.crc32(name.encode()) - 2**31  # a signed 32-bit key
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", _PG_LOCK_CLASS, key):
            raise _taken(name, where)
    except BaseException:
        await conn.close()
        raise
    return HeldName(conn=conn)
