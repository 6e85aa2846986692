"""PostgreSQL, through asyncpg: chosen by ``UMTALI_DATABASE_URL=postgresql://…``.

A pool of connections; each transaction has one to itself, and reads outside a transaction take
any free one (they see what is committed). Writes are serialised per process as with SQLite
(``data.db``). Between processes the default READ COMMITTED isolation is enough where a write
carries its own check (a move's ``version = ?``, a challenge's ``status = 'open'``, a result's
``recorded = 0``): PostgreSQL re-reads a row it waited for before it applies the check. What
is read and written back whole (a player's rating, a server's season) is held by a
transaction-scoped advisory lock first (``PgTx.serialise``): two processes take turns.

The store's SQL uses SQLite's ``?`` placeholders; each statement text is rewritten once to
PostgreSQL's ``$1, $2, …`` (``numbered``) and the result cached, and asyncpg prepares each
statement once per connection. The schema version is the one row of ``schema_version``;
migrations take an advisory lock, so two processes starting together migrate once. Every start
takes it, even with nothing to migrate: another process's upgrade under way is waited for
(the bot: ``START_WAIT`` at most, said once in the log), and the version it left read after.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from data.db import (
    BUSY_TIMEOUT,
    Database,
    DatabaseUnreachable,
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
from data.pool_log import quiet_pool_reconnects

#: Connections a process keeps at most: one writer at a time, the rest for reads.
POOL_SIZE = 8
#: Seconds to reach the server before giving up.
CONNECT_TIMEOUT = 10.0
#: Seconds a statement may take before it fails (and its connection is dropped): a server
#: that stopped answering (a connection left half-open by a failover) would otherwise hold
#: the bot's writes, and even their cancelling, until TCP gives up, many minutes later.
COMMAND_TIMEOUT = 60.0
#: A migration's statement may take as long as it needs (an index built over a big table).
MIGRATION_TIMEOUT = 24 * 3600.0
#: Any number: the advisory lock taken while migrating (one migrator at a time).
MIGRATION_LOCK = 0x756D74616C69  # "umtali"

log = logging.getLogger(__name__)

_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\?(\d*)""")


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """``sql`` with SQLite's placeholders as PostgreSQL's: ``?`` is the next number after the
    highest so far, ``?N`` is ``$N`` (as SQLite numbers them). Quoted text and comments are
    left alone."""
    highest = 0

    def one(m: re.Match[str]) -> str:
        nonlocal highest
        if not m.group(0).startswith("?"):
            return m.group(0)
        n = int(m.group(1)) if m.group(1) else highest + 1
        highest = max(highest, n)
        return f"${n}"

    return _TOKEN.sub(one, sql)


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs: in the user part, or given as
    ``?password=`` (libpq and asyncpg take both)."""
    parts = urlsplit(url)
    if parts.password is not None:
        host = parts.netloc.rsplit("@", 1)[-1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    query = "&".join("password=***" if p.split("=", 1)[0].lower() == "password" else p
                     for p in parts.query.split("&")) if parts.query else ""
    return urlunsplit(parts._replace(query=query))


class PgTx(Tx):
    """Statements inside one transaction on its own connection."""

    CLAIM = " FOR UPDATE SKIP LOCKED"

    def __init__(self, conn: Any) -> None:
        self.conn: asyncpg.Connection[Any] = conn

    async def serialise(self, keys: Iterable[int]) -> None:
        # In one order, so that two transactions wanting the same two keys cannot deadlock.
        # A row lock would not do: a newcomer has no row to lock yet.
        for key in sorted(set(keys)):
            await self.conn.execute("SELECT pg_advisory_xact_lock($1)", key)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> Result:
        return Result(_rowcount(await self.conn.execute(numbered(sql), *params)))

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        row: Row | None = await self.conn.fetchrow(numbered(sql), *params)
        return row

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *params))


#: Where the user named the PostgreSQL database, for ``why_unusable`` to send them to: the
#: bot's setting, or the URL ``make copy-to-postgres`` was given (``data.copy_to_postgres``).
URL_SETTING: ContextVar[str] = ContextVar("URL_SETTING", default="UMTALI_DATABASE_URL")


def why_unusable(where: str, e: BaseException) -> str:
    """One sentence for a database that cannot be used: what to mend, the password hidden."""
    setting = URL_SETTING.get()
    if isinstance(e, MigrationFailed) and isinstance(e.cause, _CONTENDED):
        return (f"the database {where} could not be upgraded yet: another connection holds "
                f"a lock migration {e.number} needs ({e.cause}); nothing was changed. Stop "
                f"the bot's other processes (an older version still running?).")
    if isinstance(e, MigrationFailed) and not isinstance(e.cause, _FOR_NOW):
        return not_migrated(where, e)
    if isinstance(e, MigrationFailed):
        e = e.cause  # the server lost meanwhile, not a migration of ours failing
    if isinstance(e, SchemaTooNew):
        return too_new(where, e)
    if isinstance(e, asyncpg.InvalidCatalogNameError):
        return (f"the database {where} does not exist ({e}): create it (createdb) or correct "
                f"{setting}.")
    if isinstance(e, asyncpg.InvalidAuthorizationSpecificationError | asyncpg.InvalidPasswordError):
        return (f"the database {where} refused the bot's login ({e}): check the user and "
                f"password in {setting}.")
    if isinstance(e, OSError | TimeoutError):
        return (f"the database {where} cannot be reached ({e}): check that PostgreSQL runs "
                f"there and {setting}.")
    return f"the database {where} cannot be opened ({e})."


def unusable(where: str, e: BaseException) -> DatabaseUnusable:
    """``why_unusable``'s sentence, as the error to raise: a server out of reach or still
    starting is so for now (``DatabaseUnreachable``: a supervisor may try again)."""
    cause = e.cause if isinstance(e, MigrationFailed) else e
    if isinstance(cause, (*_FOR_NOW, *_CONTENDED)):
        return DatabaseUnreachable(why_unusable(where, e))
    return DatabaseUnusable(why_unusable(where, e))


#: A server out of reach or still starting: so for now.
_FOR_NOW = (OSError, TimeoutError, asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError,
            asyncpg.CrashShutdownError, asyncpg.ConnectionDoesNotExistError)
#: An upgrade meeting another connection's locks (an older process still running): it may
#: pass once that one stopped.
_CONTENDED = (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError,
              asyncpg.SerializationError)


class PgDatabase(Database):
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool[Any], where: str, wait: float | None = None) -> None:
        super().__init__()
        self.pool = pool
        #: The URL without its password.
        self.where = where
        #: Seconds a migration waits for another process's (None: as long as it takes).
        self.wait = wait

    @staticmethod
    async def open(target: str | Path, *, schema: int | None = None,
                   timed: bool = True, wait: float | None = None) -> PgDatabase:
        """The database at the URL ``target``, migrated; DatabaseUnusable if it cannot be
        used. ``timed``: each statement fails after ``COMMAND_TIMEOUT`` (the bot; a tool
        copying a whole database waits as long as it takes). ``wait``: seconds to wait for
        another process's migration, then ``DatabaseHeld`` (None: as long as it takes)."""
        url = str(target)
        where = redacted(url)
        quiet_pool_reconnects()
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT if timed else None,
                # As SQLite's busy timeout: a row another process keeps locked fails the
                # statement after a while instead of hanging the bot.
                server_settings={"lock_timeout": f"{int(BUSY_TIMEOUT * 1000)}",
                                 "application_name": "umtali"})
        except (OSError, TimeoutError, ValueError, asyncpg.PostgresError,
                asyncpg.InterfaceError) as e:
            raise unusable(where, e) from e
        db = PgDatabase(pool, where, wait)
        try:
            await db.migrate(schema)
        except BaseException as e:
            await pool.close()
            if isinstance(e, asyncpg.PostgresError | SchemaTooNew | MigrationFailed | OSError):
                raise unusable(where, e) from e
            raise
        return db

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def _begin(self) -> AsyncIterator[Tx]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PgTx(conn)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Reads]:
        # REPEATABLE READ: every statement sees what was committed before the first one.
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read",
                                                                 readonly=True):
            yield PgTx(conn)

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        row: Row | None = await self.pool.fetchrow(numbered(sql), *params)
        return row

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return list(await self.pool.fetch(numbered(sql), *params))

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await _version(conn)

    def statements(self, number: int) -> list[str]:
        return statements_for(number, "postgresql")

    async def _migrate(self, steps: Sequence[tuple[int, Sequence[str]]]) -> list[int]:
        async with self.transaction() as tx:
            assert isinstance(tx, PgTx)
            conn = tx.conn
            await self._wait_for_migrators(conn)
            await conn.execute(f"SET LOCAL lock_timeout = {int(BUSY_TIMEOUT * 1000)}")
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL);"
                "INSERT INTO schema_version SELECT 0 WHERE NOT EXISTS "
                "(SELECT 1 FROM schema_version)")

            async def execute(sql: str) -> object:
                return await conn.execute(sql, timeout=MIGRATION_TIMEOUT)
            applied = await run_steps(execute, steps, await _version(conn))
            if applied:
                await conn.execute("UPDATE schema_version SET version = $1", applied[-1])
        return applied


    async def _wait_for_migrators(self, conn: Any) -> None:
        """The migration lock, in this transaction. Another process migrating holds it for as
        long as its migration takes: waited for as long, or ``self.wait`` (the lock timeout
        meant for rows would give up after seconds)."""
        if await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", MIGRATION_LOCK):
            return
        say_waiting(self.where, self.wait)
        wait = MIGRATION_TIMEOUT if self.wait is None else self.wait
        # The server gives up (lock_timeout) and the connection stays usable; the client's
        # timeout is only for a server that stopped answering meanwhile.
        await conn.execute(f"SET LOCAL lock_timeout = {max(1, int(wait * 1000))}")
        try:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK,
                               timeout=wait + COMMAND_TIMEOUT)
        except asyncpg.LockNotAvailableError as e:
            raise held_too_long(self.where, wait) from e
        log.info("the database %s is free again: starting", self.where)


async def _version(conn: Any) -> int:
    """The schema version: 0 before the first migration made its table."""
    if not await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
        return 0
    return int(await conn.fetchval("SELECT version FROM schema_version"))
