"""fix161: a stop withdraws the stopped member's challenges still open to the member who
stopped them, on every server, in its own save; on both backends, an accept racing it through
another process either wins (its match kept, the challenge not withdrawn) or finds the
challenge closed, never both."""

from __future__ import annotations

import asyncio

from data.store import StaleState, Store
from tests.test_fix162_stops_store import ADA, CY, NOW, _challenge

BEN = CY + 1


async def _statuses(store: Store, ids: list[int]) -> list[str]:
    found = [await store.challenge(i) for i in ids]
    return [ch.status if ch is not None else "" for ch in found]


async def test_a_stop_withdraws_the_stopped_member_s_open_challenges_everywhere(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    to_cy = [await _challenge(one, guild_id, NOW) for guild_id in (10, 20)]
    # cy's own challenge to ada, and ada's to ben, are no part of it.
    mine = await one.create_challenge(
        guild_id=30, channel_id=31, challenger=(CY, "cy"), opponent=(ADA, "ada"),
        variant="standard", optional_melding=False, turn_timer=300, ttl=600.0, now=NOW)
    to_ben = await one.create_challenge(
        guild_id=10, channel_id=11, challenger=(ADA, "ada"), opponent=(BEN, "ben"),
        variant="standard", optional_melding=False, turn_timer=300, ttl=600.0, now=NOW + 30)
    closed = await two.stop_challenges(CY, ADA, NOW + 60)
    assert [ch.id for ch in closed] == to_cy
    assert all(ch.status == "cancelled" and ch.seed == "" and ch.guild_id in (10, 20)
               for ch in closed)
    assert await _statuses(one, [*to_cy, mine.id, to_ben.id]) == \
        ["cancelled", "cancelled", "open", "open"]
    # Stopped again: nothing left to withdraw.
    assert await one.stop_challenges(CY, ADA, NOW + 70) == []


async def test_an_accept_and_a_stop_racing_never_both_win(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    for round_ in range(6):
        challenge_id = await _challenge(one, 100 + round_, NOW + round_ * 1000)

        async def accepting(guild_id: int = 100 + round_,
                            challenge_id: int = challenge_id) -> int | None:
            try:
                return await one.create_match(
                    guild_id=guild_id, channel_id=guild_id + 1,
                    players=((ADA, "ada"), (CY, "cy")), variant="standard", turn_timer=300,
                    state="{}", deadline=None, challenge_id=challenge_id)
            except StaleState:
                return None

        # Either may go first: turned round each time.
        stopping = two.stop_challenges(CY, ADA, NOW + round_ * 1000 + 1)
        if round_ % 2:
            made, closed = await asyncio.gather(accepting(), stopping)
        else:
            closed, made = await asyncio.gather(stopping, accepting())
        assert isinstance(closed, list)
        [status] = await _statuses(one, [challenge_id])
        if made is None:
            assert [ch.id for ch in closed] == [challenge_id] and status == "cancelled"
        else:
            assert closed == [] and status == "accepted"
        await one.lift_stop(CY, ADA)
        if made is not None:
            await one.abandon_match(made, "cancelled")
