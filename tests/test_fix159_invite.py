"""review141: the invite link. The bot logs it once it is ready (INFO, once), made from the
permissions the code asks for; the README shows the same link, its permission integer the
code's own."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

import pytest

from cogs.umtali.invite import INVITE_PERMISSIONS, invite_url
from tests.loopback.driver import until
from tests.loopback.harness import bot_in_process, loopback_server

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_the_readme_shows_the_codes_invite_link_and_permission_integer() -> None:
    assert f"permission integer {INVITE_PERMISSIONS.value}" in README
    shown = invite_url(1).replace("client_id=1&", "client_id=APPLICATION_ID&")
    assert f"<{shown}>" in README or f"`{shown}`" in README, shown
    # What the link asks for: the posts of a match and its thread; Manage Threads is optional.
    assert INVITE_PERMISSIONS.view_channel and INVITE_PERMISSIONS.attach_files
    assert INVITE_PERMISSIONS.send_messages_in_threads and not INVITE_PERMISSIONS.manage_threads
    assert re.search(r"scope=bot\+applications\.commands", shown)


async def test_the_invite_link_is_logged_once_when_ready(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="umtali.bot")
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        link = invite_url(server.app_id)

        def lines() -> list[logging.LogRecord]:
            return [r for r in caplog.records if link in r.getMessage()]
        [line] = await until(lines, "the invite link in the log")
        assert line.levelno == logging.INFO and line.name == "umtali.bot"
        assert f"client_id={server.app_id}&" in link
        bot.dispatch("ready")  # a later READY (a new session) logs it no more
        await until(lambda: bot.is_ready(), "ready")
        await asyncio.sleep(0.2)
        assert len(lines()) == 1
