"""Where the database lives: the settings the bot and its tools (``data.backup``) share.

``UMTALI_DATABASE_URL=postgresql://…`` puts it in PostgreSQL; unset or empty, it is the SQLite
file at ``UMTALI_DB_PATH`` (default ``data/umtali.sqlite3``), exactly as before.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Mapping
from pathlib import Path

from dotenv.main import DotEnv

from data.db import is_postgres_url
from data.pg_db import redacted

DEFAULT_DB_PATH = Path("data/umtali.sqlite3")


class DotenvError(Exception):
    """``.env`` could not be read; the message is one sentence (the bot's and the tools' exit
    status 2, as for a bad setting)."""


#: The .env files read by this process, by path and content, with their values: read again
#: (``bot.py`` reads it as it starts and in ``main``), one is not parsed again, so that
#: python-dotenv's warning for a line it cannot read is said once.
_read: dict[tuple[Path, bytes], dict[str, str | None]] = {}


def dotenv_text(path: Path, raw: bytes) -> str:
    """The text of the .env at ``path``: UTF-8 (a byte-order mark dropped), or UTF-16 with its
    mark, as Windows PowerShell 5 writes a file ("echo X=1 > .env"). Anything else is
    ``DotenvError``: read as UTF-8 it would end in a traceback, or wrong values."""
    try:
        if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return raw.decode("utf-16")
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DotenvError(f"{path} is not UTF-8 text (byte {e.start + 1} cannot be read): save "
                          "it as UTF-8, as any text editor can.") from e


def read_dotenv() -> None:
    """Load ``.env`` from the current working directory, never one found further up the
    tree; variables already in the environment win over the file. ``DotenvError`` if it
    cannot be read."""
    path = Path.cwd() / ".env"
    if not path.is_file():
        return
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise DotenvError(f"could not read {path} ({e.strerror or e}).") from e
    values = _read.get((path, raw))
    if values is None:
        # As ``load_dotenv(override=False)`` reads it: ${NAME} is the environment's first.
        text = dotenv_text(path, raw)
        values = DotEnv(None, stream=io.StringIO(text), interpolate=True, override=False).dict()
        _read[(path, raw)] = values
    for name, value in values.items():
        if value is not None:
            os.environ.setdefault(name, value)


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
