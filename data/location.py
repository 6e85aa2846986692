"""Where the database lives: the one setting the bot and its tools (``data.backup``) share."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DB_PATH = Path("data/umtali.sqlite3")


def read_dotenv() -> None:
    """Load ``.env`` from the current working directory, never one found further up the
    tree; variables already in the environment win over the file."""
    path = Path.cwd() / ".env"
    if path.is_file():
        load_dotenv(path, override=False)


def database_path(environ: Mapping[str, str]) -> Path:
    """``UMTALI_DB_PATH``, or the default when it is unset or empty."""
    text = environ.get("UMTALI_DB_PATH", "").strip()
    return Path(text) if text else DEFAULT_DB_PATH
