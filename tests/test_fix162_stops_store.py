"""Challenge stops in the store, on both backends: one process's stop refuses the next
challenge made through another at once (nothing kept in memory), on every server; lifted, it
is gone; a "no" counts from when it was said (``challenges.closed_at``)."""

from __future__ import annotations

import pytest

from data.store import Limits, Refused, Store

ADA, CY = 1_234_567_890_123_456_789, 1_234_567_890_123_456_790
NOW = 1_800_000_000.0


async def _challenge(store: Store, guild_id: int, now: float) -> int:
    ch = await store.create_challenge(
        guild_id=guild_id, channel_id=guild_id + 1, challenger=(ADA, "ada"),
        opponent=(CY, "cy"), variant="standard", optional_melding=False, turn_timer=300,
        ttl=600.0, now=now)
    return ch.id


async def test_a_stop_saved_through_one_process_holds_in_another(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    await one.stop_challenges(CY, ADA, NOW)
    await one.stop_challenges(CY, ADA, NOW + 5)  # once is enough
    assert await two.stopped_by(CY) == [ADA] and await two.stopped_by(ADA) == []
    for guild_id in (10, 20):
        with pytest.raises(Refused) as refused:
            await _challenge(two, guild_id, NOW + 60)
        assert refused.value.reason == "stopped"
    assert await two.lift_stop(CY, ADA) and not await one.lift_stop(CY, ADA)
    assert await one.stopped_by(CY) == []
    await _challenge(one, 10, NOW + 60)


async def test_a_no_counts_from_when_it_was_said(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    window = Limits().pair_window
    first = await _challenge(store, 10, NOW)
    assert await store.close_challenge(first, "declined", now=NOW + window - 60)
    with pytest.raises(Refused) as refused:
        await _challenge(store, 10, NOW + window + 60)
    assert refused.value.reason == "declined"
    assert refused.value.retry_after == pytest.approx(window - 120)
    await _challenge(store, 10, NOW + 2 * window)
