"""review64: a bot running for months keeps every challenge ever posted (a row each, the
accepted ones a match's, the others closed): the table grows with the matches played. A match
abandoned or cancelled (a practice stopped, a channel lost, the bot removed from a server, a
match never shown) closes its challenge by the match's id, and that read must go through an
index: without one it read the whole table, in the write transaction every other save waits
on (measured on SQLite: 7 ms at 36,500 challenges, 33 ms at 200,000; 0.5-0.9 ms with it)."""

from __future__ import annotations

from typing import Any

import pytest

from data.db import Result
from data.pg_db import PgTx
from data.sqlite_db import SqliteTx
from data.store import Store
from tests.test_leases_index import _plan


async def test_abandoning_a_match_finds_its_challenge_through_an_index(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    store, _ = stores
    challenge = await store.create_challenge(
        guild_id=1, channel_id=2, challenger=(10, "ada"), opponent=(11, "ben"),
        variant="english", optional_melding=False, turn_timer=300, ttl=600)
    match_id = await store.create_match(
        guild_id=1, channel_id=2, players=((10, "ada"), (11, "ben")), variant="english",
        turn_timer=300, state="{}", deadline=None, challenge_id=challenge.id)
    ran: list[tuple[str, tuple[Any, ...]]] = []
    for tx in (SqliteTx, PgTx):
        execute = tx.execute

        async def noted(self: Any, sql: str, params: Any = (), _run: Any = execute) -> Result:
            ran.append((sql, tuple(params)))
            result: Result = await _run(self, sql, params)
            return result

        monkeypatch.setattr(tx, "execute", noted)
    assert await store.abandon_match(match_id, "cancelled") == []
    monkeypatch.undo()
    closing = [(sql, params) for sql, params in ran if "challenges" in sql]
    assert closing, ran
    assert (await store.challenge(challenge.id)).status == "cancelled"  # type: ignore[union-attr]
    for sql, params in closing:
        plan = await _plan(store, sql, params)
        assert "SCAN challenges" not in plan and "Seq Scan on challenges" not in plan, plan
