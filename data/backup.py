"""``python -m data.backup [DEST]``: a copy of the live database, taken while the bot runs.

SQLite's online backup API copies the pages of one read transaction: everything committed when
it began and nothing of a transaction still in progress, while the bot (WAL) goes on writing.
The copy is checked (``integrity_check``) and only then given its name, so a file at DEST is
always a whole, sound database. Without DEST it goes to ``backups/`` beside the database, named
after it and the time (UTC): ``data/backups/umtali-20250101-120000Z.sqlite3`` by default.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from data.db import BUSY_TIMEOUT
from data.location import DotenvError, database_path, read_dotenv


class BackupError(Exception):
    """The backup was not made; the message is one sentence for whoever asked for it."""


def default_destination(source: Path, now: datetime) -> Path:
    return source.parent / "backups" / f"{source.stem}-{now:%Y%m%d-%H%M%S}Z{source.suffix}"


class Backup(NamedTuple):
    """A backup made: its file and its page count."""

    path: Path
    pages: int


#: The most numbered names tried for a backup named with the time (``…Z-2.sqlite3``, …).
NUMBERED = 100


def _names(dest: Path, numbered: bool) -> Iterator[Path]:
    """``dest``, then, ``numbered``, ``dest`` with ``-2``, ``-3``… before its suffix."""
    yield dest
    if numbered:
        for n in range(2, NUMBERED + 1):
            yield dest.with_name(f"{dest.stem}-{n}{dest.suffix}")


def backup(source: Path, dest: Path, *, numbered: bool = False) -> Backup:
    """Copy the database at ``source`` to ``dest``, which must not exist; ``numbered`` (a
    name made of the time: two backups in one second), to the first of ``dest``, ``dest-2``…
    free."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}: check UMTALI_DB_PATH.")
    free = next((d for d in _names(dest, numbered) if not d.exists()), None)
    if free is None:
        raise BackupError(f"{dest} exists already: choose another name.")
    dest = free
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a file where a folder was meant, no permission, a full disk
        raise BackupError(f"could not back up {source} ({e}).") from e
    try:
        # A partial file of its own: two backups begun in the same second to one name (the
        # default's) never write, cut short or delete each other's.
        fd, name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
        os.close(fd)
    except OSError as e:
        raise BackupError(f"could not back up {source} ({e}).") from e
    part = Path(name)
    try:
        # Read-only: a backup never changes the live database.
        with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True,
                                     timeout=BUSY_TIMEOUT)) as live, \
                closing(sqlite3.connect(part)) as copy:
            live.backup(copy)  # in one step: one consistent snapshot
            # One self-contained file, with no write-ahead log beside it.
            copy.execute("PRAGMA journal_mode = DELETE")
            check = copy.execute("PRAGMA integrity_check").fetchall()
            pages = int(copy.execute("PRAGMA page_count").fetchone()[0])
        if check != [("ok",)]:
            raise BackupError(f"the copy of {source} failed its integrity check "
                              f"({check[0][0]}): the database itself may be damaged.")
        made = _publish(part, dest, numbered)
    except (sqlite3.Error, OSError) as e:
        raise BackupError(f"could not back up {source} ({e}).") from e
    finally:
        part.unlink(missing_ok=True)
    return Backup(made, pages)


def _publish(part: Path, dest: Path, numbered: bool) -> Path:
    """``part`` named ``dest`` (or, ``numbered``, the next free name), never over a file made
    there meanwhile (another backup's): a hard link fails if the name is taken, where a rename
    would replace it."""
    for name in _names(dest, numbered):
        try:
            os.link(part, name)
            return name
        except FileExistsError:
            continue
        except OSError:
            # A file system without hard links: checked again, then renamed (a race left only
            # within this instant).
            if name.exists():
                continue
            os.replace(part, name)
            return name
    raise BackupError(f"{dest} exists already: choose another name.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.backup",
        description="Copy the bot's database (UMTALI_DB_PATH, or data/umtali.sqlite3) safely "
                    "while the bot runs.")
    parser.add_argument("dest", nargs="?",
                        help="the file to write, or a directory to write it in (default: "
                             "backups/ beside the database, named with the time)")
    args = parser.parse_args(argv)
    try:
        read_dotenv()
    except DotenvError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2  # as a bad command line, and the bot's status for a bad setting
    if os.environ.get("UMTALI_DATABASE_URL", "").strip():
        print("error: the bot's database is PostgreSQL (UMTALI_DATABASE_URL): back it up with "
              "PostgreSQL's own pg_dump.", file=sys.stderr)
        return 1
    source = database_path(os.environ)
    name = default_destination(source, datetime.now(UTC))
    # A name of the time, ours: numbered if another backup took it in the same second.
    numbered = True
    if args.dest is None:
        dest = name
    else:
        dest = Path(args.dest).expanduser()
        # A trailing slash says a folder, made if missing (Path drops the slash).
        if dest.is_dir() or args.dest.endswith(("/", os.sep)):
            dest = dest / name.name
        else:
            numbered = False  # the file named: never another
    try:
        made = backup(source, dest, numbered=numbered)
    except BackupError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {made.path} ({made.pages} pages, integrity ok)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
