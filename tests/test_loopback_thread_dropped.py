"""The thread made for a match cancelled before it was shown, against the loopback Discord:
deleted where the bot may manage threads (Discord's rule), else archived, never left open
(fix128's ``threads.drop_thread``, through the real gateway and REST code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import accept as accept_it
from tests.loopback.driver import query, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Member


@pytest.mark.parametrize("manages", [True, False])
async def test_the_thread_of_a_match_never_shown_is_deleted_or_archived(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, manages: bool) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        server.bot_manages_threads = manages
        alice, bob = server.add_member("ada"), server.add_member("ben")
        # The match's first post refused: the match is cancelled, its thread made for nothing.
        server.fail("POST", r"^/channels/[0-9]+/messages$", times=1, status=403, code=50013)
        answer = await server.slash(alice, server.channel_id, "umtali challenge",
                                    {"opponent": Member(bob)})
        assert answer.response is not None
        await accept_it(server, bob, answer.response)
        row = await until(lambda: next(iter(query(db, "SELECT * FROM matches WHERE status = "
                                                  "'finished'")), None), "the cancellation")
        assert row["how"] == "cancelled"
        thread = int(row["channel_id"])
        assert thread != server.channel_id, "played in a thread of its own"
        if manages:
            await until(lambda: thread not in server.channels, "the thread deleted")
            assert (thread, {"deleted": True}) in server.thread_changes
        else:
            await until(lambda: (thread, {"archived": True}) in server.thread_changes,
                        "the thread archived")
            assert thread in server.channels
