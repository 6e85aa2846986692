"""The database, whichever backend holds it: SQLite (the default, one file beside the bot) or
PostgreSQL (``UMTALI_DATABASE_URL``). Everything above this module is the same for both.

``Database.open(target)`` opens an SQLite file for a path, PostgreSQL for a
``postgresql://`` URL (``data.sqlite_db``, ``data.pg_db``), migrated to the latest schema.
Queries are written once, in the SQL both understand, with ``?`` placeholders; rows are read
by column name or index. An INSERT that needs its new id asks for it with ``RETURNING id``.

Every write goes through ``transaction()``, and a process runs one at a time (a lock), on either
backend: two coroutines can never interleave their statements inside one transaction, and a
check-then-write inside one (a limit, a version) is not raced by the same process. Across
processes (PostgreSQL only), a move is still saved once: its UPDATE carries ``version = ?``, and
PostgreSQL re-checks that row after waiting for another writer's lock.

A database that cannot be used (damaged, unreachable, from a newer bot) is refused at once with
``DatabaseUnusable``, whatever it held closed again. One held by another process (its upgrade
migrating a big file, or any write past the busy timeout) is waited for at start, up to
``START_WAIT`` when the caller (the bot) asks for a wait: it passes by itself.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import asyncpg

from data.migrations import MIGRATIONS

if TYPE_CHECKING:
    import aiosqlite

log = logging.getLogger(__name__)

#: Seconds a statement waits for another process's lock before it fails.
BUSY_TIMEOUT = 5.0
#: Seconds a starting bot waits for a database another process holds (its upgrade migrating:
#: minutes on a big file) before it stops with exit status 1, which a service restarts: the
#: upgrade of a rolling restart ends by itself, and a second process must not stay down.
START_WAIT = 300.0

#: A unique key or foreign key refused a write, on either backend.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

T = TypeVar("T")
#: Work done inside a shared transaction.
Job = Callable[["Tx"], Awaitable[T]]


class Row(Protocol):
    """A row as both backends give it: by column name or by index."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Result:
    """What a statement that returns no rows did: how many rows it changed."""

    rowcount: int


class Reads(Protocol):
    """What reads: the database itself, a transaction, or a snapshot (``Database.snapshot``)."""

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...


class Tx(ABC):
    """Statements inside one transaction."""

    #: Ends a SELECT whose rows this transaction claims (``claiming``).
    CLAIM = ""

    def claiming(self, select: str) -> str:
        """``select`` made to claim the rows it reads until the transaction ends: on
        PostgreSQL it locks them and skips rows another process's transaction holds (FOR
        UPDATE SKIP LOCKED), so that two processes never take the same due timer; SQLite's one
        writer has the whole database to itself already."""
        return select + self.CLAIM

    @abstractmethod
    async def serialise(self, keys: Iterable[int]) -> None:
        """Hold ``keys`` (players' ids, say) until the transaction ends, so that two processes
        reading and rewriting what belongs to one of them (a rating) take turns."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[object] = ()) -> Result: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...


class DatabaseUnusable(Exception):
    """The database cannot be opened as it is; the message is one sentence for whoever runs
    the bot."""


class DatabaseUnreachable(DatabaseUnusable):
    """The database server is out of reach for now (down, still starting, the network): the
    same start a while later may work, where the others need someone to mend something."""


class DatabaseHeld(DatabaseUnreachable):
    """Another process still held the database after the start's wait (``START_WAIT``)."""


def held_too_long(where: str, waited: float) -> DatabaseHeld:
    return DatabaseHeld(f"the database {where} was still held by another process after "
                        f"{_seconds(waited)} of waiting (an upgrade under way, or a copy of the "
                        f"bot stuck?): start the bot again later (a service restarts it by "
                        f"itself).")


def _seconds(seconds: float) -> str:
    """A wait in words, as the README quotes it ("5 minutes", "10 seconds")."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


def say_waiting(where: str, wait: float | None) -> None:
    """The one line a start waiting for another process says (an admin wonders why the bot
    does not log in)."""
    most = "" if wait is None else f", {_seconds(wait)} at most"
    log.warning("the database %s is held by another process (an upgrade?): waiting for "
                "it%s", where, most)


class SchemaTooNew(Exception):
    """The database was migrated by a newer bot, to a schema this one does not know."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(found, known)
        self.found, self.known = found, known


class MigrationFailed(Exception):
    """Migration ``number`` failed (``cause``): the upgrade it was part of was rolled back
    whole, the database left at schema ``before``, as the version before used it."""

    def __init__(self, number: int, before: int, cause: BaseException) -> None:
        super().__init__(number, before, cause)
        self.number, self.before, self.cause = number, before, cause


async def run_steps(execute: Callable[[str], Awaitable[object]],
                    steps: Sequence[tuple[int, Sequence[str]]], before: int) -> list[int]:
    """The statements of each step newer than ``before`` run by ``execute`` (inside the
    caller's transaction); the steps run. A statement failing raises ``MigrationFailed``
    naming its migration (from the database's error: the caller's transaction rolls back)."""
    if before > len(MIGRATIONS):
        # Another process, a newer bot, migrated it while this one waited for its turn.
        raise SchemaTooNew(before, len(MIGRATIONS))
    applied: list[int] = []
    for number, statements in steps:
        if number <= before:
            continue  # another process got there first
        try:
            for sql in statements:
                await execute(sql)
        except Exception as e:
            raise MigrationFailed(number, before, e) from e
        applied.append(number)
    return applied


def not_migrated(where: str, e: MigrationFailed) -> str:
    return (f"the database {where} could not be upgraded: migration {e.number} failed "
            f"({e.cause}). Nothing of the upgrade was kept: the database is at schema "
            f"{e.before} as before, and the version of the bot that ran it still runs on it; "
            f"or restore a backup.")


def too_new(where: str, e: SchemaTooNew) -> str:
    return (f"the database {where} has schema version {e.found}, newer than this bot "
            f"knows ({e.known}): run the newer bot that wrote it, or restore a backup.")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Database(ABC):
    """One backend's database: transactions, batched writes, reads and migrations."""

    #: ``"sqlite"`` or ``"postgresql"``: for the few tests and tools that must know.
    dialect: str

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._queued: list[tuple[Job[Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    @staticmethod
    async def open(target: str | Path, *, schema: int | None = None,
                   wait: float | None = None) -> Database:
        """The database at ``target`` (an SQLite path, or a ``postgresql://`` URL), migrated
        to ``schema`` (default: the latest) and writable; DatabaseUnusable if it cannot be.
        ``wait``: seconds to wait for it while another process holds it (an upgrade), then
        ``DatabaseHeld``; None: SQLite's busy timeout only, PostgreSQL's migration as long as
        it takes (the tools)."""
        if is_postgres_url(target):
            from data.pg_db import PgDatabase
            return await PgDatabase.open(str(target), schema=schema, wait=wait)
        from data.sqlite_db import SqliteDatabase
        return await SqliteDatabase.open(target, schema=schema, wait=wait)

    @property
    def conn(self) -> aiosqlite.Connection:
        """The SQLite connection itself, for tests of SQLite's own faults."""
        raise TypeError(f"a {self.dialect} database has no SQLite connection")

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def _begin(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction of the backend's own, committed when left without an error."""

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Reads]:
        """Reads that all see the database as it was at one moment, writing nothing: a
        board's page read in several statements (its players, its rows, the place of its
        first row) is then of one board, not partly of the board before a session ended
        meanwhile and partly of the board after it."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        """A read of what is committed (inside a transaction: and of its own writes)."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def _migrate(self, steps: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
        """Apply the migrations of ``steps`` (each its number and statements, in order) not
        applied yet (another process may be migrating the same database), all in one
        transaction; the numbers applied here. One failing raises ``MigrationFailed``, none
        of them kept."""

    @abstractmethod
    def statements(self, number: int) -> list[str]:
        """Migration ``number`` in the backend's own SQL."""

    async def migrate(self, schema: int | None = None) -> None:
        """Apply every migration newer than the database (up to ``schema``), all in one
        transaction: an upgrade whose migration fails midway keeps none of them, so the
        database stays as the version before knows it (review148: each committed alone, a
        failure left a schema that neither version would open)."""
        target = len(MIGRATIONS) if schema is None else schema
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise SchemaTooNew(current, len(MIGRATIONS))
        if current > target or (current == target and schema is not None):
            return  # a schema asked for (a tool, a test): the database left as it is
        # Also with nothing left to apply: under the migration lock, the start waits for
        # another process's upgrade under way, and reads what it left (a newer schema).
        applied = await self._migrate([(number, self.statements(number))
                                       for number in range(current + 1, target + 1)])
        if applied and current == 0:
            log.info("database created at schema %d", applied[-1])  # one line, not one a step
        elif applied:
            for number in applied:
                log.info("database migrated to schema %d", number)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock, self._begin() as tx:
            yield tx

    async def batched(self, job: Job[T]) -> T:
        """Run ``job`` in a transaction shared with the other jobs queued meanwhile.

        Many matches saving moves at once then pay for one commit, not one each. Each job runs
        in a savepoint: one that raises leaves none of its writes and its error is its own,
        while the others commit. The result comes back only once the transaction is committed.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        return await future

    async def _write_queued(self) -> None:
        while self._queued:
            jobs, self._queued = self._queued, []
            done: list[tuple[asyncio.Future[Any], Any]] = []
            try:
                async with self.transaction() as tx:
                    if len(jobs) == 1:
                        # Alone in its transaction, a failing job is undone by the rollback:
                        # no savepoint to pay for (the common case at a human pace).
                        job, future = jobs[0]
                        done.append((future, await job(tx)))
                    for job, future in jobs if len(jobs) > 1 else ():
                        await tx.execute("SAVEPOINT job")
                        try:
                            result = await job(tx)
                        except Exception as e:  # the job's own failure: undo its writes only
                            await tx.execute("ROLLBACK TO job")
                            await tx.execute("RELEASE job")
                            if not future.done():
                                future.set_exception(e)
                        else:
                            await tx.execute("RELEASE job")
                            done.append((future, result))
            except BaseException as e:
                for _, future in jobs:
                    if not future.done():
                        future.set_exception(e)
                if not isinstance(e, Exception):
                    raise
                continue
            for future, result in done:
                if not future.done():
                    future.set_result(result)
