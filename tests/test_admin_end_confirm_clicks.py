"""fix154: the **End it** / **Keep it** of ``/umtali-admin end-match``'s question, clicked as
Discord can send it: by someone else (a custom id can be sent by anyone), by an admin whose
Manage Server was taken away since, twice, from another server, after the bot restarted, after
the command's own 15-minute token ran out. Loopback Discord, a real SQLite file: each click
answered clearly, nothing ended it should not, no ERROR log."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import payloads as p
from tests.loopback.driver import custom_ids, query, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Interaction, Member
from tests.loopback.server import LoopbackDiscord
from tests.test_foreign_buttons import forged

MANAGE_GUILD = 1 << 5


def _status(db: Path) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in query(db, "SELECT status, how, ended_by FROM matches")]


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _ask(server: LoopbackDiscord, boss: int, member: int) -> tuple[Interaction,
                                                                           dict[str, Any]]:
    asked = await server.slash(boss, server.channel_id, "umtali-admin end-match",
                               {"member": Member(member)})
    assert asked.ephemeral and asked.response is not None, asked.text()
    assert "end it with no result?" in asked.text(), asked.text()
    return asked, asked.response


def _end_id(question: dict[str, Any]) -> str:
    return next(c for c in custom_ids(question) if c.endswith(":end"))


async def test_someone_else_s_click_is_refused(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        boss = server.add_member("boss")
        await start_session(server, db, ada, ben)
        _, question = await _ask(server, boss, ada)
        end = _end_id(question)
        # Another manager (every loopback member has Manage Server) sends the same id.
        other = await server.click(cy, forged(server, end), end)
        assert other.callback_type == 4 and other.ephemeral, other.text()
        assert "Only the admin who asked" in other.text(), other.text()
        keep = end.removesuffix(":end") + ":keep"
        other = await server.click(cy, forged(server, keep), keep)
        assert "Only the admin who asked" in other.text(), other.text()
        await asyncio.sleep(0.1)
        assert _status(db) == [("active", None, None)]
        assert end in custom_ids(question), "the admin's question lost its buttons"
    assert not _errors(caplog)


async def test_manage_server_taken_away_is_checked_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, boss = (server.add_member(n) for n in ("ada", "ben", "boss"))
        await start_session(server, db, ada, ben)
        _, question = await _ask(server, boss, ada)
        server.member_permissions[boss] = int(p.ALL_PERMISSIONS) & ~MANAGE_GUILD
        refused = await server.click(boss, question, _end_id(question))
        assert refused.ephemeral and "Manage Server" in refused.text(), refused.text()
        await asyncio.sleep(0.1)
        assert _status(db) == [("active", None, None)]
        # Given back, the same question still works.
        del server.member_permissions[boss]
        done = await server.click(boss, question, _end_id(question))
        assert done.callback_type == 7 and "ended with no result" in done.text(), done.text()
        await until(lambda: _status(db) == [("finished", "abandoned", boss)], "the end")
    assert not _errors(caplog)


async def test_a_double_click_ends_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, boss = (server.add_member(n) for n in ("ada", "ben", "boss"))
        saved = await start_session(server, db, ada, ben)
        _, question = await _ask(server, boss, ada)
        # The second click left the client before the first one's answer came back: it
        # carries the question as it was, buttons and all.
        as_asked = copy.deepcopy(question)
        first, second = await asyncio.gather(
            server.click(boss, question, _end_id(question)),
            server.click(boss, as_asked, _end_id(as_asked)))
        # Both say it ended (review156: the second said "already over: nothing changed",
        # and its edit, landing last, left the question saying so).
        assert all("ended with no result" in t.text() for t in (first, second)), \
            [first.text(), second.text()]
        await until(lambda: _status(db) == [("finished", "abandoned", boss)], "the end")
        await asyncio.sleep(0.2)
        shown = str(server.messages[int(question["id"])].get("content") or "")
        assert "ended with no result" in shown and "nothing changed" not in shown, shown
        told = [m for m in server.channel_messages(saved.channel_id)
                if "ended this match" in (m.get("content") or "")]
        assert len(told) == 1, told
    assert not _errors(caplog)


async def test_a_click_from_another_server_changes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        _, elsewhere = server.add_guild("Chess Club")
        async with bot_in_process(server, db):
            ada, ben, boss = (server.add_member(n) for n in ("ada", "ben", "boss"))
            saved = await start_session(server, db, ada, ben)
            _, question = await _ask(server, boss, ada)
            there = copy.deepcopy(question)
            there["id"], there["channel_id"] = str(server.snowflake()), str(elsewhere)
            server.messages[int(there["id"])] = there
            refused = await server.click(boss, there, _end_id(there))
            assert refused.ephemeral and f"no match #{saved.id} in play on this server" in \
                refused.text(), refused.text()
            await asyncio.sleep(0.1)
            assert _status(db) == [("active", None, None)]
    assert not _errors(caplog)


async def test_clicked_after_a_restart_and_the_command_s_token(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Asked, then the bot restarts and the command's 15 minutes pass (its token, which could
    edit the question, is dead): the click, a new interaction, still ends the match and
    replaces the question."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben, boss = (server.add_member(n) for n in ("ada", "ben", "boss"))
        async with bot_in_process(server, db):
            saved = await start_session(server, db, ada, ben)
            asked, question = await _ask(server, boss, ada)
        asked.expired = True  # its webhook refuses every call now
        async with bot_in_process(server, db):
            done = await server.click(boss, question, _end_id(question))
            assert done.callback_type == 7 and "ended with no result" in done.text(), \
                done.text()
            assert custom_ids(question) == []
            await until(lambda: _status(db) == [("finished", "abandoned", boss)], "the end")
            again = await server.slash(boss, server.channel_id, "umtali-admin end-match",
                                       {"match": str(saved.id)})
            assert "already over" in again.text(), again.text()
    assert not _errors(caplog)

