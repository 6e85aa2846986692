"""fix167 (review160): a withdrawal owed to its message (``challenges.unsaid``) is tried from
a minute after the stop (``said_after``), the next due first; each failure for now pushes it
out, twice as far each time, and counts once however many processes failed it that round;
after ``WITHDRAWN_TRIES`` it is given up, once. On both backends."""

from __future__ import annotations

from data.stops import WITHDRAWN_AFTER, WITHDRAWN_TRIES
from data.store import Store
from tests.test_fix162_stops_store import ADA, CY, NOW, _challenge

BEN = CY + 1


async def test_owed_withdrawals_are_tried_further_apart_then_given_up(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    older = await _challenge(one, 10, NOW)
    [closed] = await two.stop_challenges(CY, ADA, NOW + 10)
    assert closed.id == older and closed.unsaid
    assert await one.unsaid_withdrawals(NOW + 10 + WITHDRAWN_AFTER - 1, 50) == []
    at = NOW + 10 + WITHDRAWN_AFTER
    assert [ch.id for ch in await one.unsaid_withdrawals(at, 50)] == [older]
    waits = []
    for tries in range(1, WITHDRAWN_TRIES + 1):
        # Both processes fail the same round: counted once.
        given_up = [await one.withdrawal_failed(older, at),
                    await two.withdrawal_failed(older, at)]
        due = await one.unsaid_withdrawals(at + 10**6, 50)
        if tries < WITHDRAWN_TRIES:
            assert given_up == [False, False]
            assert await one.unsaid_withdrawals(at, 50) == []  # not before its time
            assert [ch.id for ch in due] == [older]
            waits.append(round(await _said_after(one, older) - at))
            at += waits[-1]
        else:
            assert given_up == [True, False] and due == []  # given up, once
    assert waits == [60 * 2 ** n for n in range(WITHDRAWN_TRIES - 1)]
    assert sum(waits) >= 3600  # about an hour of tries
    # Said (or given up): no longer counted.
    assert not await one.withdrawal_failed(older, at + 10**6)


async def test_the_withdrawals_failing_for_a_while_move_behind_the_newer(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    older = await _challenge(one, 10, NOW)
    newer = await one.create_challenge(
        guild_id=20, channel_id=21, challenger=(BEN, "ben"), opponent=(CY, "cy"),
        variant="standard", optional_melding=False, turn_timer=300, ttl=600.0, now=NOW)
    await two.stop_challenges(CY, ADA, NOW + 10)
    await two.stop_challenges(CY, BEN, NOW + 20)
    at = NOW + 20 + WITHDRAWN_AFTER
    assert [ch.id for ch in await one.unsaid_withdrawals(at, 1)] == [older]
    assert not await two.withdrawal_failed(older, at)
    assert [ch.id for ch in await one.unsaid_withdrawals(at, 1)] == [newer.id]
    await one.withdrawal_said(newer.id)
    assert await one.unsaid_withdrawals(at, 50) == []


async def _said_after(store: Store, challenge_id: int) -> float:
    row = await store.db.fetchone("SELECT said_after FROM challenges WHERE id = ?",
                                  (challenge_id,))
    assert row is not None
    return float(row["said_after"])
