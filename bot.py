"""Entry point of the Umtali Discord bot.

For now it only loads and checks the settings (from the environment and an optional
``.env`` file in the current working directory); the Discord client comes in later work.
Run it with ``make run`` or ``.venv/bin/python bot.py``.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

__all__ = [
    "DEFAULT_DB_PATH",
    "DEFAULT_LOG_LEVEL",
    "LOG_LEVELS",
    "Settings",
    "SettingsError",
    "load_settings",
    "main",
]

log = logging.getLogger("umtali.bot")

DEFAULT_DB_PATH = Path("data/umtali.sqlite3")
DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_MAX_SNOWFLAKE = 2**64 - 1

EXIT_SETTINGS_ERROR = 2


class SettingsError(ValueError):
    """A setting is missing or invalid; the message is one sentence meant for the user."""


@dataclass(frozen=True)
class Settings:
    """The bot's configuration, read from the environment (see .env.example)."""

    token: str = field(repr=False)
    db_path: Path = DEFAULT_DB_PATH
    dev_guild_id: int | None = None
    log_level: str = DEFAULT_LOG_LEVEL


def _get(environ: Mapping[str, str], name: str) -> str:
    """The stripped value of ``name``; an unset variable reads as empty."""
    return environ.get(name, "").strip()


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Read the settings from ``environ``; empty values count as unset.

    Raises SettingsError for a missing DISCORD_TOKEN, an invalid UMTALI_DEV_GUILD_ID
    or an unknown UMTALI_LOG_LEVEL.
    """
    token = _get(environ, "DISCORD_TOKEN")
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: create an application in the Discord developer portal "
            "(https://discord.com/developers/applications), add a bot on its Bot tab, and copy "
            "the bot's token into DISCORD_TOKEN in a .env file copied from .env.example."
        )

    db_path_text = _get(environ, "UMTALI_DB_PATH")
    db_path = Path(db_path_text) if db_path_text else DEFAULT_DB_PATH

    guild_text = _get(environ, "UMTALI_DEV_GUILD_ID")
    dev_guild_id: int | None = None
    if guild_text:
        if not (guild_text.isascii() and guild_text.isdigit()) or not (
            0 < int(guild_text) <= _MAX_SNOWFLAKE
        ):
            raise SettingsError(
                f"UMTALI_DEV_GUILD_ID must be a Discord server id (a positive whole number "
                f"such as 123456789012345678) or empty, not {guild_text!r}."
            )
        dev_guild_id = int(guild_text)

    level_text = _get(environ, "UMTALI_LOG_LEVEL").upper()
    log_level = level_text or DEFAULT_LOG_LEVEL
    if log_level not in LOG_LEVELS:
        raise SettingsError(
            f"UMTALI_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, "
            f"not {_get(environ, 'UMTALI_LOG_LEVEL')!r}."
        )

    return Settings(token=token, db_path=db_path, dev_guild_id=dev_guild_id, log_level=log_level)


def main() -> int:
    """Load the settings and start the bot; returns the process exit status."""
    # Only the current working directory's .env, never one found further up the tree.
    # Variables already in the environment win over the file.
    dotenv_path = Path.cwd() / ".env"
    if dotenv_path.is_file():
        load_dotenv(dotenv_path, override=False)

    try:
        settings = load_settings(os.environ)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_SETTINGS_ERROR

    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    log.info(
        "Settings loaded (database %s, command sync %s).",
        settings.db_path,
        f"to guild {settings.dev_guild_id}" if settings.dev_guild_id else "global",
    )
    log.warning(
        "The Discord bot is not implemented yet; meanwhile play in the terminal with `make play`."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
