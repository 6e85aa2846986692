"""Challenges answered within Discord's 3 seconds while the database is busy: an accept (or a
challenge) waiting on another connection's write lock is acknowledged in time, then finished
once saved. Before, the accept answered after the lock let go: Discord would have failed the
interaction, and the match, claimed and saved, was never shown. On the loopback Discord, in
real time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import accept as accept_it
from tests.loopback.driver import custom_ids, query, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member
from tests.test_in_time import DEFERRED_UPDATE, HELD, LIMIT, THINKING, settled


async def _challenge(server: LoopbackDiscord, challenger: int, opponent: int,
                     **options: Any) -> dict[str, Any]:
    answer = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent), **options})
    assert answer.response is not None and not answer.ephemeral, answer.text()
    return answer.response


def _description(server: LoopbackDiscord, message: dict[str, Any]) -> str:
    return str(server.messages[int(message["id"])]["embeds"][0]["description"])


async def test_an_accept_waiting_on_the_database_is_acknowledged_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        posted = await _challenge(server, ada, ben, turn_timer=0)
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await accept_it(server, ben, posted)
            assert answer.callback_type == DEFERRED_UPDATE, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT
        # Once saved, the challenge says so and the table is posted.
        await until(lambda: query(db, "SELECT id FROM matches WHERE table_message_id IS NOT "
                                      "NULL") or None, "the table")
        await until(lambda: "ben accepted" in _description(server, posted), "the accept shown")
        assert not custom_ids(server.messages[int(posted["id"])])
        assert not server.errors


async def test_a_decline_waiting_on_the_database_is_acknowledged_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        posted = await _challenge(server, ada, ben)
        decline = next(c for c in custom_ids(posted) if c.endswith(":decline"))
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await server.click(ben, posted, decline)
            assert answer.callback_type == DEFERRED_UPDATE, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: "ben declined" in _description(server, posted), "the decline shown")
        assert [r["status"] for r in query(db, "SELECT status FROM challenges")] == ["declined"]
        assert not server.errors


async def test_a_challenge_waiting_on_the_database_is_acknowledged_then_posted(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await server.slash(ada, server.channel_id, "umtali challenge",
                                        {"opponent": Member(ben)})
            assert answer.callback_type == THINKING and answer.ephemeral, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT

        def posted() -> dict[str, Any] | None:
            return next((m for m in server.channel_messages(server.channel_id)
                         if any(c.endswith(":accept") for c in custom_ids(m))), None)
        challenge = await until(posted, "the challenge posted")
        # A message of its own, which pings ben; the private "thinking" is gone.
        assert challenge["content"] == f"<@{ben}>"
        sent = next(c for c in server.calls if c.method == "POST"
                    and c.path == f"/channels/{server.channel_id}/messages")
        assert sent.body["allowed_mentions"] == {"parse": [], "users": [ben]}, sent.body
        rows = query(db, "SELECT message_id FROM challenges")
        await until(lambda: query(db, "SELECT message_id FROM challenges WHERE message_id = ?",
                                  int(challenge["id"])) or None, "the message saved")
        assert len(rows) == 1
        await until(lambda: any(c.method == "DELETE" and c.path.endswith("/@original")
                                and c.status == 204 for c in server.calls) or None,
                    "the thinking taken away")
        # ben accepts it as any challenge.
        clicked = await accept_it(server, ben, challenge)
        assert clicked.callback_type == 7, clicked.text()
        await until(lambda: query(db, "SELECT id FROM matches WHERE table_message_id IS NOT "
                                      "NULL") or None, "the table")
        assert not server.errors


async def test_a_rematch_waiting_on_the_database_is_acknowledged_then_posted(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        asked = await server.slash(ada, saved.channel_id, "umtali resign")
        assert asked.response is not None
        yes = next(c for c in custom_ids(asked.response) if c.endswith(":resign"))
        await server.click(ada, asked.response, yes)
        rematch = f"umtali:rm:{saved.id}"
        table = await until(lambda: next((m for m in server.channel_messages(saved.channel_id)
                                          if rematch in custom_ids(m)), None), "the final card")
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await server.click(ben, table, rematch)
            assert answer.callback_type == DEFERRED_UPDATE, answer.text()
            assert answer.answered_at - answer.sent_at < LIMIT

        def posted() -> dict[str, Any] | None:
            return next((m for m in server.channel_messages(saved.channel_id)
                         if any(c.endswith(":accept") for c in custom_ids(m))), None)
        challenge = await until(posted, "the rematch posted")
        assert challenge["content"] == f"<@{ada}>"
        assert f"rematch of session #{saved.id}" in challenge["embeds"][0]["description"]
        # The final card is left as it was.
        assert rematch in custom_ids(server.messages[int(table["id"])])
        assert not server.errors
