"""The bot's settings, read from the environment and an optional ``.env`` file (see
.env.example): each is checked at start, and a bad one stops the bot with one sentence that
says how to mend it (``SettingsError``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cogs.umtali.alive import MAIN
from data.location import DEFAULT_DB_PATH, database_path, database_url
from scale import ShardPlan, load_discord_api, load_shards

__all__ = ["DEFAULT_LOG_LEVEL", "LOG_LEVELS", "Settings", "SettingsError", "load_settings",
           "process_name"]

DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_MAX_SNOWFLAKE = 2**64 - 1


class SettingsError(ValueError):
    """A setting is missing or invalid; the message is one sentence meant for the user."""


@dataclass(frozen=True)
class Settings:
    """The bot's configuration, read from the environment (see .env.example)."""

    token: str = field(repr=False)
    db_path: Path = DEFAULT_DB_PATH
    dev_guild_id: int | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    #: Worker processes where the hard computer thinks; None: the default (cogs.umtali.thinking).
    thinking_workers: int | None = None
    #: The shards this process runs; None: one plain connection (scale.py).
    shards: ShardPlan | None = None
    #: The REST API's base URL (a rate-limit proxy); None: Discord's own.
    discord_api: str | None = None
    #: A PostgreSQL URL (UMTALI_DATABASE_URL); empty: the SQLite file at ``db_path``.
    database_url: str = field(default="", repr=False)
    #: This process's name among those sharing the database (docs/processes.md): stable
    #: across restarts, so that a restarted process takes back its own matches at once.
    process: str = MAIN

    @property
    def database(self) -> str | Path:
        """Where the store is: the PostgreSQL URL, or else the SQLite file."""
        return self.database_url or self.db_path


def _get(environ: Mapping[str, str], name: str) -> str:
    """The stripped value of ``name``; an unset variable reads as empty."""
    return environ.get(name, "").strip()


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Read the settings from ``environ``; empty values count as unset.

    Raises SettingsError for a missing DISCORD_TOKEN, an invalid UMTALI_DEV_GUILD_ID,
    UMTALI_THINKING_WORKERS, UMTALI_DATABASE_URL, UMTALI_PROCESS or UMTALI_ENGINE, or an
    unknown UMTALI_LOG_LEVEL.
    """
    token = _get(environ, "DISCORD_TOKEN")
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: create an application in the Discord developer portal "
            "(https://discord.com/developers/applications), add a bot on its Bot tab, and copy "
            "the bot's token into DISCORD_TOKEN in a .env file copied from .env.example."
        )

    db_path = database_path(environ)
    if db_path.is_dir():
        # SQLite's own refusal of a folder reads "unable to open database file".
        raise SettingsError(f"UMTALI_DB_PATH must name the database file, not the folder "
                            f"{str(db_path)!r}: such as {str(db_path / 'umtali.sqlite3')!r}.")
    try:
        url = database_url(environ)
    except ValueError as e:
        raise SettingsError(str(e)) from None
    folder = db_path.parent
    if not url and folder.exists() and not folder.is_dir():
        raise SettingsError(f"UMTALI_DB_PATH names a file in {str(folder)!r}, which is a file, "
                            f"not a folder: correct the path.")
    if not url and folder != DEFAULT_DB_PATH.parent and not folder.is_dir():
        # Made silently, a typo ("dtaa/") would start an empty database beside the real one.
        # The default data/ is made: a fresh clone has none.
        raise SettingsError(f"UMTALI_DB_PATH names a file in the folder {str(folder)!r}, which "
                            f"does not exist: correct the path, or create the folder for a "
                            f"new database.")

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

    workers_text = _get(environ, "UMTALI_THINKING_WORKERS")
    if workers_text and not (workers_text.isascii() and workers_text.isdigit()
                             and 1 <= int(workers_text) <= 64):
        raise SettingsError(f"UMTALI_THINKING_WORKERS must be a whole number from 1 to 64 or "
                            f"empty, not {workers_text!r}.")
    thinking_workers = int(workers_text) if workers_text else None

    # Read exactly so by umtali/compiled.py: another value (a typo, 'Interpreted') ran the
    # compiled engine without a word.
    engine = environ.get("UMTALI_ENGINE", "")
    if engine not in ("", "interpreted"):
        raise SettingsError(f"UMTALI_ENGINE must be interpreted (the rules engine from its "
                            f"Python sources) or empty (compiled, where make compiled it), "
                            f"not {engine!r}.")

    try:
        shards, discord_api = load_shards(environ), load_discord_api(environ)
    except ValueError as exc:
        raise SettingsError(str(exc)) from None

    return Settings(token=token, db_path=db_path, dev_guild_id=dev_guild_id, log_level=log_level,
                    thinking_workers=thinking_workers, database_url=url, shards=shards,
                    discord_api=discord_api,
                    process=process_name(environ, (shards.ids or ()) if shards else ()))


def process_name(environ: Mapping[str, str], shard_ids: tuple[int, ...] = ()) -> str:
    """UMTALI_PROCESS if given; else named after the shards it runs (``shards-0-1``); else
    ``main``. Raises SettingsError for a name that is not 1-64 letters, digits, ``.``,
    ``_`` or ``-``."""
    name = _get(environ, "UMTALI_PROCESS")
    if name and not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", name):
        raise SettingsError(f"UMTALI_PROCESS must be 1 to 64 letters, digits, '.', '_' or '-' "
                            f"(a name for this process, the same at every start), not {name!r}.")
    if name:
        return name
    if shard_ids:
        return "shards-" + "-".join(str(i) for i in sorted(shard_ids))
    return MAIN


#: discord.py's loggers whose DEBUG lines hold what is sent and received whole (the bodies of
#: requests and answers, every gateway event): DM panels, and the clicks on them, so hands;
#: and the URL of each answer to an interaction, its token in it (``discord.webhook.async_``:
#: whoever reads it may answer as the bot for 15 minutes).
PRIVATE_AT_DEBUG = ("discord.http", "discord.gateway", "discord.webhook")


def private_log_levels(level: str) -> None:
    """Even at DEBUG, the log holds no player's cards and no interaction's token: discord.py's
    loggers that would write them stay at INFO (or ``level``, if above); the bot's own DEBUG
    lines stay."""
    quiet = max(logging.INFO, logging.getLevelName(level))
    for name in PRIVATE_AT_DEBUG:
        logging.getLogger(name).setLevel(quiet)
