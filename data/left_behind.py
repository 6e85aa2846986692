"""A start that would make a new, empty database while the bot's matches sit in the default one.

A new service unit (``UMTALI_DB_PATH=/var/lib/umtali/…``), a changed setting or a start from
another directory (the default ``data/umtali.sqlite3`` is taken from the working directory)
would otherwise start on an empty database: every record seemingly lost, and new matches
played on the wrong one. Such a start is refused (``LeftBehind``: exit status 2), naming both
databases and what to do; ``UMTALI_NEW_DATABASE=1`` starts anew on purpose.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from urllib.request import pathname2url

import asyncpg

from data.db import DatabaseUnreachable, DatabaseUnusable, is_postgres_url
from data.location import DEFAULT_DB_PATH
from data.pg_db import CONNECT_TIMEOUT, redacted, unusable

log = logging.getLogger(__name__)

#: The setting that lets a start make a new database beside a full one.
NEW_DATABASE = "UMTALI_NEW_DATABASE"
#: The checkout the bot runs from (``bot.py``'s folder): the default database is in its data/.
CHECKOUT = Path(__file__).resolve().parent.parent
#: Where the bot's database is when ``UMTALI_DB_PATH`` is unset and it is started in the
#: checkout (``make run``; the old service units).
CHECKOUT_DB_PATH = CHECKOUT / DEFAULT_DB_PATH


class LeftBehind(DatabaseUnusable):
    """The start would make a new database while the checkout's holds matches."""


def matches_in(path: Path) -> int | None:
    """How many matches the SQLite file at ``path`` holds (0 without the table); None if it
    cannot be read (damaged, or its write-ahead log in a folder this process cannot write)."""
    # With nothing in a write-ahead log (or journal), the file is whole: read as immutable, which
    # makes no -wal or -shm file beside it (in a checkout the bot may not write, or as root).
    # With one, it is read through it: SQLite then makes the -shm file if missing (mode=ro as
    # well), in a folder this process can write; else the count is None.
    wal, journal = Path(f"{path}-wal"), Path(f"{path}-journal")
    try:
        live = (wal.exists() and wal.stat().st_size > 0) or journal.exists()
        uri = f"file:{pathname2url(str(path))}?mode=ro{'' if live else '&immutable=1'}"
        with closing(sqlite3.connect(uri, uri=True, timeout=1.0)) as db:
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'matches'").fetchone() is None:
                return 0
            count: int = db.execute("SELECT count(*) FROM matches").fetchone()[0]
            return count
    except (sqlite3.Error, OSError):
        return None


def _held(n: int | None) -> str:
    if n is None:  # read or not, it is there: assumed to matter
        return "may hold the bot's matches (it could not be read to tell)"
    return f"holds {n} match{'es' if n != 1 else ''}"


async def _postgres_is_new(url: str) -> bool | DatabaseUnreachable:
    """Whether the PostgreSQL database holds no bot schema yet; out of reach for now: the error
    to raise (``DatabaseUnreachable``: exit 1, tried again); unusable otherwise: False (the
    start says so itself, in its own words)."""
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        error = unusable(redacted(url), e)
        return error if isinstance(error, DatabaseUnreachable) else False
    try:
        return bool(await conn.fetchval("SELECT to_regclass('schema_version') IS NULL"))
    except asyncpg.PostgresError:
        return False
    finally:
        await conn.close()


async def refuse_left_behind(database: str | Path, environ: Mapping[str, str],
                             cwd: Path) -> None:
    """``LeftBehind`` if ``database`` (``cwd`` resolving a relative path) would be made new
    while the checkout's default database holds matches, unless ``UMTALI_NEW_DATABASE=1``."""
    if str(database) == ":memory:":
        return
    old = CHECKOUT_DB_PATH
    if not old.is_file():
        return
    on_purpose = environ.get(NEW_DATABASE, "").strip() == "1"
    if is_postgres_url(database):
        url = str(database)
        # The checkout's file counted only when it could matter, not on every start.
        fresh = await _postgres_is_new(url)
        if isinstance(fresh, DatabaseUnreachable):
            # A server coming up between this check and the start's would be given a new
            # empty schema: tried again later (exit 1), as the start itself would.
            if not on_purpose and matches_in(old) != 0:
                raise fresh
            return
        if not fresh or (held := matches_in(old)) == 0:
            return
        if on_purpose:
            _allowed(redacted(url), old, held)
            return
        raise LeftBehind(
            f"the PostgreSQL database {redacted(url)} holds no tables yet, but {old} "
            f"{_held(held)}: copy them there first (stop the bot, then make "
            f"copy-to-postgres FROM={old} TO=…, see README, Running on PostgreSQL), or "
            f"empty UMTALI_DATABASE_URL to go on with SQLite; to start an empty database "
            f"on purpose, set {NEW_DATABASE}=1 for its first start.")
    new = Path(cwd, database).resolve()
    if new.exists() or new == old.resolve() or (held := matches_in(old)) == 0:
        return
    if on_purpose:
        _allowed(str(new), old, held)
        return
    if not environ.get("UMTALI_DB_PATH", "").strip():
        # The default, from another directory: its data/ is not the checkout's.
        raise LeftBehind(
            f"the bot was started in {cwd}, where it would make a new empty database {new}, "
            f"but its database {old} {_held(held)}: start it in {CHECKOUT} (as make run does; "
            f"a service's WorkingDirectory=), or set UMTALI_DB_PATH={old}; to start an empty "
            f"database on purpose, set {NEW_DATABASE}=1 for its first start.")
    raise LeftBehind(
        f"UMTALI_DB_PATH names {new}, which does not exist yet, but {old} {_held(held)}: "
        f"copy it there first, as the bot's user, in {CHECKOUT}: UMTALI_DB_PATH={old} make "
        f"backup DEST={new} (or sqlite3 {old} \".backup {new}\"), or set UMTALI_DB_PATH back "
        f"to {old}; to start an empty database at {new} on purpose, set {NEW_DATABASE}=1 "
        f"for its first start.")


def _allowed(new: str, old: Path, held: int | None) -> None:
    """Said when the setting lets a new database be made beside a played one: left in .env, it
    would otherwise keep the check off for good, unseen."""
    log.warning("starting a new empty database at %s as %s asks; %s %s (remove the setting "
                "once started)", new, NEW_DATABASE, old, _held(held))
