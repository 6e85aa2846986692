"""SQLite, the default backend: one connection, opened once at start-up, WAL, migrated in
place. Its schema version is the file's ``user_version``.

The one connection serves reads and writes; ``transaction()`` (``data.db``) holds the write
lock. A read outside a transaction waits for the open one to end, as SQLite would make another
connection do: on the shared connection it would see writes not yet committed, which a failed
commit then takes back (a result shown that never was).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from pathlib import Path

import aiosqlite

from data.db import (
    BUSY_TIMEOUT,
    Database,
    DatabaseUnusable,
    MigrationFailed,
    Reads,
    Result,
    Row,
    SchemaTooNew,
    Tx,
    held_too_long,
    not_migrated,
    run_steps,
    say_waiting,
    too_new,
)
from data.migrations import statements_for

log = logging.getLogger(__name__)
# aiosqlite's DEBUG lines are every statement with its parameters: an open challenge's seed and
# salt, and each match's state (its seed, every hand). With UMTALI_LOG_LEVEL=DEBUG they would
# put in the log what stays secret until a session ends.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

#: Bytes of write-ahead log kept after a checkpoint (``journal_size_limit``).
WAL_KEPT = 64 * 1024 * 1024

#: Whether the running code is inside this process's open transaction (set by ``_begin``, in
#: the context of the task that holds it): its reads must not wait for the lock it holds.
_IN_TRANSACTION: ContextVar[bool] = ContextVar("umtali_sqlite_in_transaction", default=False)


class SqliteTx(Tx):
    """Statements inside one transaction on the connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def serialise(self, keys: Iterable[int]) -> None:
        """Nothing to do: SQLite's one writer has the whole database already."""

    async def execute(self, sql: str, params: Sequence[object] = ()) -> Result:
        """Run a statement that returns no rows (those run to completion at once, so their
        cursor needs no closing: one trip to the database thread, not two)."""
        cur = await self.conn.execute(sql, tuple(params))
        return Result(cur.rowcount)

    # A read runs to its end in one call on the connection's thread, as outside a transaction
    # (below): a cursor left open, its task cancelled mid-read (a bot stopping, a delivery
    # handed over), would keep a snapshot after the rollback, and SQLite then refuses the next
    # BEGIN IMMEDIATE at once once another process has written (SQLITE_BUSY_SNAPSHOT).

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return list(await self.conn.execute_fetchall(sql, tuple(params)))


def _why(path: str | Path, e: BaseException) -> str:
    """One sentence on why ``path`` cannot be used, and what to do about it."""
    if isinstance(e, MigrationFailed):
        if not getattr(e.cause, "sqlite_errorname", "").startswith(_THE_FILES):
            return not_migrated(str(path), e)
        e = e.cause  # the file locked or damaged, not a migration of ours failing
    code = getattr(e, "sqlite_errorname", "")
    if isinstance(e, SchemaTooNew):
        return too_new(str(path), e)
    if _locked(e):
        return (f"the database {path} is locked by another process (still after "
                f"{BUSY_TIMEOUT:g} s): stop it (another copy of the bot?) and start again.")
    if code.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return (f"the database {path} is damaged or not an SQLite database ({e}): restore a "
                f"backup, or move the file away to start with an empty database.")
    return f"the database {path} cannot be opened ({e})."


#: Errors of the file, whatever statement met them.
_THE_FILES = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOTADB", "SQLITE_CORRUPT")


def _locked(e: BaseException) -> bool:
    return getattr(e, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def _held(e: BaseException) -> bool:
    """Whether the open failed only because another process holds the file."""
    return _locked(e.cause if isinstance(e, MigrationFailed) else e)


#: Seconds between two tries to open a database another process holds, and the most each
#: try waits for its lock, given a wait (some locks answer at once: SQLITE_LOCKED).
RETRY_EVERY = 1.0


class _Held(Exception):
    """One try to open found the file held by another process (``error``)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


class SqliteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__()
        self._conn = conn

    @property
    def conn(self) -> aiosqlite.Connection:
        return self._conn

    @staticmethod
    async def open(target: str | Path, *, schema: int | None = None,
                   wait: float | None = None) -> SqliteDatabase:
        """The database at ``target``, migrated and writable; DatabaseUnusable if it cannot
        be. Held by another process past the busy timeout (given ``wait``, a try's second),
        it is tried again for ``wait`` seconds (said once in the log), each try anew: what
        another's upgrade migrated meanwhile is read again, never migrated twice (a newer
        schema is refused)."""
        deadline = None if wait is None else time.monotonic() + wait
        said = False
        while True:
            try:
                # Given a wait, every try waits out a shorter busy timeout, the first too: a
                # Ctrl-C meanwhile stops the start within a second, not after SQLite's 5 s wait
                # in its thread (the bot's own 5 s is set once open: ``_prepare``).
                busy = min(BUSY_TIMEOUT, RETRY_EVERY) if deadline is not None else BUSY_TIMEOUT
                db = await SqliteDatabase._open_once(target, schema, busy)
            except _Held as held:
                if deadline is None:
                    raise DatabaseUnusable(_why(target, held.error)) from held.error
                if time.monotonic() >= deadline:
                    assert wait is not None
                    raise held_too_long(str(target), wait) from held.error
                if not said:
                    say_waiting(str(target), wait)
                    said = True
                await asyncio.sleep(min(RETRY_EVERY, max(0.0, deadline - time.monotonic())))
                continue
            if said:
                log.info("the database %s is free again: starting", target)
            return db

    @staticmethod
    async def _open_once(path: str | Path, schema: int | None, busy: float) -> SqliteDatabase:
        """One try, waiting ``busy`` seconds for another's lock: ``_Held`` if another process
        holds the file."""
        connecting: aiosqlite.Connection | None = None
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connecting = aiosqlite.connect(str(path), isolation_level=None, timeout=busy)
            conn = await connecting
        except (OSError, sqlite3.Error) as e:
            if connecting is not None:
                # aiosqlite stops its thread after a failed connect, and the thread then
                # answers on this loop: let it, or it prints a traceback once the loop closed.
                await asyncio.to_thread(connecting._thread.join, 5)
            if _held(e):
                raise _Held(e) from e
            raise DatabaseUnusable(_why(path, e)) from e
        try:
            db = SqliteDatabase(conn)
            await db._prepare(schema)
            return db
        except BaseException as e:
            # aiosqlite's worker thread is not a daemon: left open, it keeps the process alive.
            with contextlib.suppress(Exception):
                await conn.close()
            if isinstance(e, sqlite3.Error | MigrationFailed) and _held(e):
                raise _Held(e) from e
            if isinstance(e, sqlite3.Error | SchemaTooNew | MigrationFailed):
                raise DatabaseUnusable(_why(path, e)) from e
            raise

    async def _prepare(self, schema: int | None) -> None:
        self.conn.row_factory = aiosqlite.Row
        # FULL: a commit reaches the disk before it is acknowledged. With WAL, NORMAL could
        # lose the last moves to a power cut, after their players were told they were saved.
        # journal_size_limit: the write-ahead log is cut back to this size once checkpointed;
        # without it, a spike (a long backup holding a read while play goes on) leaves the
        # -wal file at its peak until the bot stops.
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON",
                       f"journal_size_limit = {WAL_KEPT}"):
            # Some pragmas answer with a row: close each cursor so no statement stays open.
            async with self.conn.execute(f"PRAGMA {pragma}"):
                pass
        await self.migrate(schema)
        # A database another process keeps locked is refused now, not at the first move.
        async with self.transaction():
            pass
        # The bot's own busy timeout from now on, whatever the try that opened it waited.
        async with self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}"):
            pass

    async def close(self) -> None:
        await self.conn.close()

    async def schema_version(self) -> int:
        # As any read (``fetchall``): read while the bot runs (``cogs.umtali.outgrown``), a
        # cursor's statement open between its trips, or kept by a cancelled task, would make a
        # save's BEGIN IMMEDIATE fail at once instead of waiting for another process.
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    def statements(self, number: int) -> list[str]:
        return statements_for(number, "sqlite")

    async def _migrate(self, steps: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
        async with self.transaction() as tx:
            # Read again under the write lock (BEGIN IMMEDIATE), as on PostgreSQL: two
            # processes started together on an older file both saw the old version.
            row = await tx.fetchone("PRAGMA user_version")
            before = int(row[0]) if row is not None else 0
            applied = await run_steps(tx.execute, steps, before)
            if applied:
                await tx.execute(f"PRAGMA user_version = {applied[-1]}")
        return applied

    def _begin(self) -> AbstractAsyncContextManager[Tx]:
        return self._within("BEGIN IMMEDIATE")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Reads]:
        # A deferred BEGIN takes no write lock: its first read fixes what the rest see (WAL),
        # whatever another process commits meanwhile. This process's writes wait for it, as
        # they wait for any read on the one connection (they would join its transaction).
        if _IN_TRANSACTION.get():  # inside this process's transaction: read in it
            yield SqliteTx(self.conn)
            return
        async with self._lock, self._within("BEGIN DEFERRED") as tx:
            yield tx

    @asynccontextmanager
    async def _within(self, begin: str) -> AsyncIterator[SqliteTx]:
        """A transaction begun by ``begin``, committed when left without an error."""
        tx = SqliteTx(self.conn)
        inside = _IN_TRANSACTION.set(True)
        try:
            await tx.execute(begin)
            yield tx
            await tx.execute("COMMIT")
        except BaseException:
            await self._rollback()
            raise
        finally:
            _IN_TRANSACTION.reset(inside)

    async def _rollback(self) -> None:
        # A failed COMMIT leaves its transaction open (and the connection unable to begin
        # another). Asked even when no transaction looks open: a BEGIN or a COMMIT whose
        # caller was cancelled (a bot stopping) still runs in aiosqlite's thread, before this
        # ROLLBACK, as its queue keeps order. "No transaction is active" then only says that
        # it had ended already: committed, never begun, or ended by the error (a full disk).
        try:
            await SqliteTx(self.conn).execute("ROLLBACK")
        except sqlite3.Error:
            if self.conn.in_transaction:
                log.exception("rollback failed")  # the caller gets the error that caused it

    # A read outside a transaction runs to its end in one call on the connection's thread:
    # with its statement left open while a transaction begins behind it in aiosqlite's queue,
    # SQLite refuses that BEGIN at once when another process holds the write lock ("database is
    # locked", no busy wait: waiting could deadlock), and a save fails that would have waited.
    # So a read's rows are all fetched at once: reads here are small (by key, or LIMITed).
    # Outside a transaction it first waits for the open one, if any, to end (module docstring);
    # inside one (the transaction's own code) it reads at once, seeing its own writes.

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        if _IN_TRANSACTION.get():
            return list(await self.conn.execute_fetchall(sql, tuple(params)))
        async with self._lock:
            return list(await self.conn.execute_fetchall(sql, tuple(params)))
