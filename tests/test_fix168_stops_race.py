"""fix168 (review144 on fix162): on PostgreSQL a challenge and a stop of its challenger by its
opponent, saved through two processes at once, did not take turns: the challenge read "not
stopped", the stop committed, then the challenge did too, posted to a member who had just
stopped it. Both now serialise on the opponent's id (``Tx.serialise``): the stop waits for the
challenge being made (which a later challenge then finds, and is refused). On both backends
(SQLite's one writer had them take turns already)."""

from __future__ import annotations

import asyncio

import pytest

import data.challenges
from data.db import Tx
from data.stops import stopped
from data.store import Refused, Store
from tests.test_fix162_stops_store import ADA, CY, NOW, _challenge


async def test_a_stop_waits_for_a_challenge_being_made(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = stores
    checked, go = asyncio.Event(), asyncio.Event()

    async def held_after_the_check(c: Tx, user_id: int, stopped_id: int) -> bool:
        found = await stopped(c, user_id, stopped_id)
        checked.set()
        await go.wait()  # the challenge read "not stopped", and is not committed yet
        return found

    monkeypatch.setattr(data.challenges, "stopped", held_after_the_check)
    making = asyncio.create_task(_challenge(one, 10, NOW))
    await asyncio.wait_for(checked.wait(), 10)
    stopping = asyncio.create_task(two.stop_challenges(CY, ADA, NOW + 1))
    await asyncio.sleep(0.5)
    stopped_meanwhile = stopping.done()
    go.set()
    await making
    await stopping
    assert not stopped_meanwhile, "the stop committed between the challenge's check and its save"
    monkeypatch.undo()
    with pytest.raises(Refused) as refused:
        await _challenge(one, 20, NOW + 2)
    assert refused.value.reason == "stopped"
