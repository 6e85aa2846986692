"""Where the database lives: the settings the bot and its tools (``data.backup``) share.

``UMTALI_DATABASE_URL=postgresql://…`` puts it in PostgreSQL; unset or empty, it is the SQLite
file at ``UMTALI_DB_PATH`` (default ``data/umtali.sqlite3``), exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from dotenv import load_dotenv

from data.db import is_postgres_url
from data.pg_db import redacted

DEFAULT_DB_PATH = Path("data/umtali.sqlite3")


def read_dotenv() -> None:
    """Load ``.env`` from the current working directory, never one found further up the
    tree; variables already in the environment win over the file."""
    path = Path.cwd() / ".env"
    if path.is_file():
        load_dotenv(path, override=False)


def database_path(environ: Mapping[str, str]) -> Path:
    """``UMTALI_DB_PATH``, or the default when it is unset or empty. A leading ``~`` is the
    home directory, as in a shell: .env and systemd do not expand it, and it would otherwise
    be a folder named ``~``. A relative path is taken from the working directory, as .env is."""
    text = environ.get("UMTALI_DB_PATH", "").strip()
    return Path(text).expanduser() if text else DEFAULT_DB_PATH


def database_url(environ: Mapping[str, str]) -> str:
    """``UMTALI_DATABASE_URL`` ('' when unset: SQLite); ValueError, in one sentence, for one
    that does not name a PostgreSQL database."""
    url = environ.get("UMTALI_DATABASE_URL", "").strip()
    if url and not is_postgres_url(url):
        raise ValueError(f"UMTALI_DATABASE_URL must be a PostgreSQL URL such as "
                         f"postgresql://user:password@host:5432/umtali, or empty for the SQLite "
                         f"file at UMTALI_DB_PATH, not {redacted(url)!r}.")
    return url


def shown(target: str | Path) -> str:
    """A database's name for logs and messages (a URL without its password)."""
    return redacted(target) if isinstance(target, str) else str(target)
