"""review121: ``/umtali-admin end-match member:`` on a member who has left the server. Discord
sends such a member as a plain user; the option took only members, and discord.py refused the
value ("I can't read “ben” there"), the match left in play. The player who left is the very
case the command is for (a practice match's only human gone: nobody else could end it)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.loopback.driver import end_match_as, query, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Member


async def test_the_match_of_a_member_who_left_is_ended(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        boss = server.add_member("boss")
        async with bot_in_process(server, db):
            await start_session(server, db, ada, ben)
            server.members.remove(ben)
            r = await end_match_as(server, boss, {"member": Member(ben)})
            assert r.ephemeral and "ended" in r.text(), r.text()
            await asyncio.sleep(0.2)
            rows = query(db, "SELECT status, how, ended_by FROM matches")
            assert [tuple(row) for row in rows] == [("finished", "abandoned", boss)]
