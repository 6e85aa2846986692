"""Only a scope this database knows it synced, for this application, is emptied. A developer's
checkout started on its test server (``UMTALI_DEV_GUILD_ID``) with a new database and
production's token must leave production's global commands alone: production's next start sees
nothing changed ("unchanged: no sync"), so they would stay gone. Nor does a database kept while
the token changes empty the new application's commands."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from tests.loopback.harness import bot_in_process, loopback_server

NAMES = {"umtali", "umtali-admin"}


def _names(commands: list[dict[str, object]]) -> set[object]:
    return {c["name"] for c in commands}


def _meta(db: Path, key: str, value: str | None) -> None:
    """A database as an older version left it (what the bot itself never writes now)."""
    with sqlite3.connect(db) as c:
        if value is None:
            c.execute("DELETE FROM meta WHERE key = ?", (key,))
        else:
            c.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    c.close()


async def test_a_new_database_on_a_test_server_leaves_production_s_global_commands(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    prod, dev = tmp_path / "prod.sqlite3", tmp_path / "dev.sqlite3"
    async with loopback_server(monkeypatch) as server:
        test_server, _ = server.add_guild("Test Server")
        async with bot_in_process(server, prod):
            assert _names(server.commands) == NAMES
        async with bot_in_process(server, dev, dev_guild_id=test_server):
            assert _names(server.guild_commands[test_server]) == NAMES
        assert _names(server.commands) == NAMES  # production's, not this database's
        async with bot_in_process(server, prod):
            assert _names(server.commands) == NAMES


async def test_a_database_kept_under_another_application_leaves_its_global_commands(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as first, bot_in_process(first, db):
        assert _names(first.commands) == NAMES
    async with loopback_server(monkeypatch) as other:
        assert other.app_id != first.app_id
        other.commands = list(first.commands)  # the other application's production, say
        async with bot_in_process(other, db, dev_guild_id=other.guild_id):
            assert _names(other.guild_commands[other.guild_id]) == NAMES
        assert _names(other.commands) == NAMES


@pytest.mark.parametrize("scope", [None, "global"])
async def test_a_database_of_before_that_synced_globally_still_empties_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, scope: str | None) -> None:
    """No scope kept (before it was), or one without its application: the fingerprint kept
    says the commands were synced globally, for this application."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db):
            assert _names(server.commands) == NAMES
        _meta(db, "commands_scope", scope)
        async with bot_in_process(server, db, dev_guild_id=server.guild_id):
            assert _names(server.guild_commands[server.guild_id]) == NAMES
            assert server.commands == []


async def test_a_database_of_before_with_an_old_test_server_empties_its_copies(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        test_server, _ = server.add_guild("Test Server")
        async with bot_in_process(server, db, dev_guild_id=test_server):
            assert _names(server.guild_commands[test_server]) == NAMES
        _meta(db, "commands_scope", str(test_server))
        async with bot_in_process(server, db):
            assert _names(server.commands) == NAMES
            assert server.guild_commands[test_server] == []


async def test_a_scope_it_cannot_tell_is_left_with_a_warning(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """No scope kept and a fingerprint of other commands (or another application): where they
    were synced cannot be told, so nothing is taken off; said once, with what to do."""
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db):
            assert _names(server.commands) == NAMES
        _meta(db, "commands_scope", None)
        _meta(db, "commands_fingerprint", "0" * 64)
        async with bot_in_process(server, db, dev_guild_id=server.guild_id):
            assert _names(server.guild_commands[server.guild_id]) == NAMES
        assert _names(server.commands) == NAMES
        [warning] = [r for r in caplog.records if r.name == "cogs.umtali.command_scope"
                     and r.levelno == logging.WARNING]
        assert "UMTALI_DEV_GUILD_ID as it was" in warning.getMessage()
        async with bot_in_process(server, db, dev_guild_id=server.guild_id):
            pass  # the scope is known now: nothing more said
        assert len([r for r in caplog.records if r.levelno == logging.WARNING
                    and r.name == "cogs.umtali.command_scope"]) == 1
        # Synced globally now (the usual upgrade, its commands changed): nothing to warn of.
        _meta(db, "commands_scope", None)
        _meta(db, "commands_fingerprint", "0" * 64)
        async with bot_in_process(server, db):
            assert _names(server.commands) == NAMES
        assert _names(server.guild_commands[server.guild_id]) == NAMES  # not its to clear
        assert len([r for r in caplog.records if r.levelno == logging.WARNING
                    and r.name == "cogs.umtali.command_scope"]) == 1
