"""``python -m data.copy_to_postgres SQLITE_FILE postgresql://…``: the bot's SQLite database
copied into PostgreSQL, every row, then counted on both sides.

Stop the bot first: moves made after the copy began would not be in it. A bot running on the
PostgreSQL database is refused too (its name's lock tells): it would go on with the matches
the copy replaces under it. The SQLite file is
never changed: a snapshot of it is taken (as ``data.backup`` does) and brought to this bot's
schema, and the rows are read from that. PostgreSQL's database is migrated to the same schema,
then filled in one transaction: every table (parents before the tables that refer to them),
each identity column's sequence set past the largest id SQLite ever gave (so new matches and
challenges never reuse one), and the rows of every table counted against the SQLite file. A
count that differs undoes it all. A database that already holds rows is refused unless
``--replace`` says to empty it first (in the same transaction).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from data.backup import BackupError, backup
from data.db import DatabaseUnusable, MigrationFailed, is_postgres_url
from data.location import DotenvError, database_path, read_dotenv
from data.pg_db import CONNECT_TIMEOUT, URL_SETTING, PgDatabase, PgTx, redacted, why_unusable
from data.process_name import running_on, running_on_postgres
from data.sqlite_db import SqliteDatabase

#: Rows read from SQLite and sent to PostgreSQL at a time.
CHUNK = 5000
#: Tables of one backend only: PostgreSQL's schema version, SQLite's own.
_OWN_TABLES = ("schema_version",)


class CopyError(Exception):
    """Nothing was copied; the message is one sentence for whoever asked."""


@dataclass(frozen=True, slots=True)
class Copied:
    schema: int
    #: Rows per table, as counted in PostgreSQL once committed (the same as in SQLite).
    counts: dict[str, int]


def parents_first(tables: dict[str, set[str]]) -> list[str]:
    """The tables in an order where each comes after those it refers to."""
    ordered: list[str] = []
    left = dict(tables)
    while left:
        ready = sorted(t for t, refs in left.items() if refs - {t} <= set(ordered))
        if not ready:
            raise CopyError(f"the tables {sorted(left)} refer to each other in a circle.")
        ordered += ready
        for t in ready:
            del left[t]
    return ordered


async def _sqlite_tables(lite: SqliteDatabase) -> dict[str, set[str]]:
    names = [str(r[0]) for r in await lite.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {name: {str(r["table"]) for r in await lite.fetchall(
        f"SELECT * FROM pragma_foreign_key_list('{name}')")} for name in names}


async def _pg_columns(tx: PgTx) -> dict[str, dict[str, str]]:
    """Each table's columns and their types."""
    columns: dict[str, dict[str, str]] = {}
    for r in await tx.conn.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"):
        columns.setdefault(r["table_name"], {})[r["column_name"]] = r["data_type"]
    for own in _OWN_TABLES:
        columns.pop(own, None)
    return columns


_AS_TYPE: dict[str, Callable[[Any], Any]] = {
    "bigint": int, "integer": int, "double precision": float, "text": str}


async def _copy_table(lite: SqliteDatabase, tx: PgTx, table: str,
                      types: dict[str, str]) -> int:
    """Copy one table's rows; how many."""
    names = list(types)
    convert = [_AS_TYPE.get(types[c], lambda v: v) for c in names]
    copied = 0
    quoted = ", ".join(f'"{c}"' for c in names)
    async with lite.conn.execute(f"SELECT {quoted} FROM {table}") as cur:
        while rows := await cur.fetchmany(CHUNK):
            records = [tuple(None if v is None else f(v)
                             for f, v in zip(convert, row, strict=True)) for row in rows]
            await tx.conn.copy_records_to_table(table, records=records, columns=names)
            copied += len(records)
    return copied


async def _reset_sequences(lite: SqliteDatabase, tx: PgTx) -> None:
    """Each identity column continues after the largest id SQLite gave, deleted rows' too."""
    given = {str(r["name"]): int(r["seq"]) for r in await lite.fetchall(
        "SELECT name, seq FROM sqlite_sequence")} if await lite.fetchone(
        "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'") else {}
    for r in await tx.conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"):
        table, column = r["table_name"], r["column_name"]
        largest = await tx.conn.fetchval(f'SELECT COALESCE(MAX("{column}"), 0) FROM {table}')
        last = max(int(largest), given.get(table, 0))
        # setval(…, 1, false): the next id is 1; setval(…, n, true): it is n + 1.
        await tx.conn.execute("SELECT setval(pg_get_serial_sequence($1, $2), $3, $4)",
                              table, column, max(last, 1), last > 0)


async def _sqlite_rows(lite: SqliteDatabase, table: str) -> int:
    row = await lite.fetchone(f"SELECT COUNT(*) FROM {table}")
    return 0 if row is None else int(row[0])


async def _pg_rows(conn: Any, table: str) -> int:
    """Rows in ``table``, on a connection or the pool."""
    return int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))


async def copy(source: Path, url: str, *, replace: bool = False) -> Copied:
    """Copy the SQLite database at ``source`` into the PostgreSQL database at ``url``."""
    if not is_postgres_url(url):
        raise CopyError(f"{redacted(url)!r} is not a PostgreSQL URL (postgresql://…).")
    if (pid := running_on(source)) is not None:
        raise CopyError(f"a bot process{f' (pid {pid})' if pid else ''} is running on {source}: "
                        f"stop it first, or the moves made after the copy began would not be "
                        f"in PostgreSQL.")
    with tempfile.TemporaryDirectory(prefix="umtali-copy-") as tmp:
        snapshot = Path(tmp) / "snapshot.sqlite3"
        try:
            backup(source, snapshot)
        except BackupError as e:
            raise CopyError(str(e)) from e
        try:
            lite = await SqliteDatabase.open(snapshot)  # brought to this bot's schema
        except DatabaseUnusable as e:
            # Said of the file asked for: the snapshot's folder is gone by the time it is read.
            raise CopyError(str(e).replace(str(snapshot), str(source))) from e
        try:
            return await _copy_into(lite, url, replace)
        finally:
            await lite.close()


def _bot_running(name: str, where: str) -> CopyError:
    return CopyError(f"a bot process{f' ({name})' if name else ''} is running on {where}: stop "
                     "it first (every process of the bot), or it would go on with matches the "
                     "copy replaces under it.")


async def _refuse_if_running(url: str) -> None:
    """CopyError if a bot runs on the database at ``url``: asked before it is migrated (an
    older bot running there could not start again on a schema newer than it knows)."""
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError):
        return  # said in one sentence by opening it
    try:
        name = await running_on_postgres(conn)
    finally:
        await conn.close()
    if name is not None:
        raise _bot_running(name, redacted(url))


def _full(where: str, held: dict[str, int]) -> CopyError:
    return CopyError(f"{where} already holds rows ({sum(held.values())} in {len(held)} "
                     "tables): copy into an empty database, or pass --replace to empty it "
                     "first.")


async def _held(tx: PgTx, tables: list[str]) -> dict[str, int]:
    """The rows of each of ``tables`` that holds some."""
    return {t: n for t in tables if (n := await _pg_rows(tx.conn, t))}


async def _copy_into(lite: SqliteDatabase, url: str, replace: bool) -> Copied:
    await _refuse_if_running(url)
    # Opened at the schema it has: a database refused for its rows is left as it was, not
    # migrated under the older bot that may still use it (which could not start again).
    pg = await PgDatabase.open(url, schema=0, timed=False)
    try:
        if not replace:
            async with pg.transaction() as tx:
                assert isinstance(tx, PgTx)
                if held := await _held(tx, list(await _pg_columns(tx))):
                    raise _full(pg.where, held)
        try:
            await pg.migrate()
        except (OSError, asyncpg.PostgresError, MigrationFailed) as e:
            raise DatabaseUnusable(why_unusable(pg.where, e)) from e
        tables = parents_first(await _sqlite_tables(lite))
        async with pg.transaction() as tx:
            assert isinstance(tx, PgTx)
            # Again, in the copy's transaction: a bot started meanwhile.
            if (name := await running_on_postgres(tx.conn)) is not None:
                raise _bot_running(name, pg.where)
            columns = await _pg_columns(tx)
            if set(columns) != set(tables):
                raise CopyError(f"the two databases' tables differ: SQLite has {sorted(tables)}, "
                                f"PostgreSQL {sorted(columns)}.")
            held = await _held(tx, tables)  # again: filled meanwhile
            if held and not replace:
                raise _full(pg.where, held)
            if held:
                await tx.conn.execute(f"TRUNCATE {', '.join(tables)}")
            for table in tables:
                expected = await _sqlite_rows(lite, table)
                copied = await _copy_table(lite, tx, table, columns[table])
                found = await _pg_rows(tx.conn, table)
                if not copied == expected == found:
                    raise CopyError(f"{table}: {expected} rows in SQLite but {found} in "
                                    "PostgreSQL: nothing was copied.")
            await _reset_sequences(lite, tx)
        # Counted again once committed, by another connection.
        counts = {t: await _pg_rows(pg.pool, t) for t in tables}
        return Copied(await pg.schema_version(), counts)
    finally:
        await pg.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.copy_to_postgres",
        description="Copy the bot's SQLite database into PostgreSQL (stop the bot first), then "
                    "check that every table has as many rows on both sides.")
    parser.add_argument("source", type=Path, nargs="?",
                        help="the SQLite file (default: the bot's, UMTALI_DB_PATH in the "
                             "environment or .env, else data/umtali.sqlite3)")
    parser.add_argument("url", help="the PostgreSQL database: postgresql://user:pass@host/db")
    parser.add_argument("--replace", action="store_true",
                        help="empty the PostgreSQL database first if it holds rows")
    args = parser.parse_args(argv)
    if args.source is None:
        # The file the bot uses, as ``make backup`` finds it: not a default path that may
        # hold an old database while the bot's is elsewhere.
        try:
            read_dotenv()
        except DotenvError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2  # as a bad command line, and the bot's status for a bad setting
        args.source = database_path(os.environ)
    # Its sentences send the user to the URL given here, not to the bot's setting.
    named = URL_SETTING.set("the PostgreSQL URL given (TO=)")
    try:
        done = asyncio.run(copy(args.source, args.url, replace=args.replace))
    except (CopyError, DatabaseUnusable) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        URL_SETTING.reset(named)
    width = max(map(len, done.counts), default=0)
    print(f"copied {args.source} into {redacted(args.url)} (schema {done.schema}):")
    for table, n in done.counts.items():
        print(f"  {table:<{width}}  {n:>9} rows")
    print(f"every table has as many rows in PostgreSQL as in SQLite "
          f"({sum(done.counts.values())} rows in {len(done.counts)} tables).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
