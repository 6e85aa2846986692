"""A challenge answered from two sides at once, over real sockets (the loopback Discord delivers
the clicks together): the challenged member accepts while the challenger withdraws it. One of
the two wins, in the database first; the other is told privately, and the message shows what
really happened."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import accept, custom_ids, query, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member


def _button(message: dict[str, Any], end: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(end))


async def _challenge(server: LoopbackDiscord, challenger: int, opponent: int) -> dict[str, Any]:
    answer = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent)})
    assert answer.response is not None and not answer.ephemeral, answer.text()
    return answer.response


async def test_an_accept_and_a_withdrawal_racing_end_one_way(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        posted = await _challenge(server, ada, ben)
        accepting, withdrawing = await asyncio.gather(
            accept(server, ben, posted),
            server.click(ada, posted, _button(posted, ":decline")))
        [status] = [r["status"] for r in query(db, "SELECT status FROM challenges")]
        shown = server.messages[int(posted["id"])]
        if status == "accepted":
            loser, said = withdrawing, "ben accepted."
            await until(lambda: query(db, "SELECT id FROM matches WHERE table_message_id IS "
                                          "NOT NULL") or None, "the table")
        else:
            assert status == "cancelled"
            loser, said = accepting, "ada withdrew the challenge."
            assert query(db, "SELECT id FROM matches") == []
        assert loser.callback_type == 4 and loser.ephemeral
        assert "no longer open" in loser.callback["content"]
        assert said in shown["embeds"][0]["description"] and custom_ids(shown) == []
        assert not server.errors
