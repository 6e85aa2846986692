"""``/umtali challenge`` and ``/umtali practice`` read the server's settings first: a read that
waits behind a write of this process (itself waiting on another process's write lock, as a
long write elsewhere makes it) is acknowledged within Discord's 3 seconds, then finished. Before,
that first read was not watched (``in_time``): the command answered after the lock let go, and
Discord had failed it ("The application did not respond"). On the loopback Discord, in real
time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import custom_ids, query, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member
from tests.test_in_time import HELD, LIMIT, THINKING, settled


async def _behind_a_write(server: LoopbackDiscord, db: Path, bot: Any, member: int,
                          command: str, options: dict[str, Any]) -> Any:
    """``member``'s ``command``, sent while a decline of this process waits for the write
    lock another connection holds."""
    ada, ben = server.add_member("ada"), server.add_member("ben")
    posted = await server.slash(ada, server.channel_id, "umtali challenge",
                                {"opponent": Member(ben)})
    assert posted.response is not None and not posted.ephemeral, posted.text()
    decline = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
    await settled(bot)
    async with write_locked(db, HELD):
        declining = asyncio.ensure_future(server.click(ben, posted.response, decline))
        await asyncio.sleep(0.3)  # the decline's transaction waits for the lock now
        answer = await server.slash(member, server.channel_id, command, options)
        await declining
    return answer


async def test_a_challenge_behind_a_waiting_write_is_acknowledged_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        cy, dee = server.add_member("cy"), server.add_member("dee")
        answer = await _behind_a_write(server, db, bot, cy, "umtali challenge",
                                       {"opponent": Member(dee)})
        assert answer.callback_type == THINKING, answer.text()
        assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: query(db, "SELECT id FROM challenges WHERE challenger_id = ? AND "
                                      "message_id IS NOT NULL", cy) or None, "the challenge")
        assert not server.errors


async def test_a_practice_behind_a_waiting_write_is_acknowledged_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        cy = server.add_member("cy")
        answer = await _behind_a_write(server, db, bot, cy, "umtali practice", {})
        assert answer.callback_type == THINKING and not answer.ephemeral, answer.text()
        assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: query(db, "SELECT id FROM challenges WHERE challenger_id = ? AND "
                                      "message_id IS NOT NULL", cy) or None, "the practice")
        assert not server.errors
