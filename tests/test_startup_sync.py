"""The slash commands synced at start: only when what a sync would send changed, for the
application the token belongs to. A database kept while the token changes to another
application (a test application's data moved to the real one, a new application after a
leak) must not leave the new one without commands: its members could not even run
``/umtali-admin sync``, which is one of them."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest

from tests.loopback.harness import bot_in_process, loopback_server, retries_at_once


async def test_a_start_under_another_application_syncs_its_commands(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as first, bot_in_process(first, db):
        assert {c["name"] for c in first.commands} == {"umtali", "umtali-admin"}
    async with loopback_server(monkeypatch) as again, bot_in_process(again, db):
        assert again.app_id != first.app_id
        assert {c["name"] for c in again.commands} == {"umtali", "umtali-admin"}


async def test_a_start_under_the_same_application_does_not_sync_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db):
            assert server.commands
        server.commands = []  # a sync would put them back
        async with bot_in_process(server, db):
            assert server.commands == []


async def test_a_sync_discord_fails_for_now_leaves_the_bot_running_and_is_tried_next_start(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Discord's command endpoint failing (a 5xx, after discord.py's own retries) as the bot
    starts is no reason not to play: the commands Discord has are there. The next start syncs
    them, as after a refusal."""
    retries_at_once(monkeypatch, discord.http)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        server.fail("PUT", r"/applications/[0-9]+/commands", times=5, status=500)
        async with bot_in_process(server, db) as bot:
            assert bot.is_ready() and server.commands == []
        [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert "slash commands could not be synced globally" in error.getMessage()
        error.expected = True  # one line for the admin, as meant (the conftest fails others)
        async with bot_in_process(server, db):
            assert {c["name"] for c in server.commands} == {"umtali", "umtali-admin"}
