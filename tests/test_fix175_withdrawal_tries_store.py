"""fix175 (review163 F2): a withdrawal's try is counted as it is claimed, so the claim takes
none whose edit is under way in the claiming process (``skip``), and no longer gives up the
last try itself: its failure does (``give_up_withdrawal``, once across processes); a last try
lost (a restart, a crash) gets one more, the same while later. On both backends."""

from __future__ import annotations

from data.stops import OWED, WITHDRAWN_AFTER, WITHDRAWN_TRIES
from data.store import Store
from tests.test_fix162_stops_store import ADA, CY, NOW
from tests.test_fix167_withdrawn_tries_store import _owed_in_index, _posted, _said_after

LAST_WAIT = WITHDRAWN_AFTER * 2 ** (WITHDRAWN_TRIES - 1)


async def _tries(store: Store, challenge_id: int) -> tuple[bool, int]:
    ch = await store.challenge(challenge_id)
    assert ch is not None
    return ch.unsaid, ch.said_tries


async def test_a_last_try_lost_gets_one_more_and_its_failure_gives_it_up_once(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    owed = await _posted(one, 10, NOW)
    await two.stop_challenges(CY, ADA, NOW)
    at = NOW + WITHDRAWN_AFTER
    for tries in range(1, WITHDRAWN_TRIES + 1):
        [taken] = await one.claim_withdrawals(at, 50)
        assert (taken.id, taken.said_tries) == (owed, tries)
        if tries < WITHDRAWN_TRIES:
            at = await _said_after(one, owed)
    # The last try taken, never made (its process restarted): owed still, in the index, one
    # more try due the same while later.
    assert await _owed_in_index(one) == 1, "the last try was given up as it was claimed"
    at += LAST_WAIT
    assert await _said_after(one, owed) == at
    assert await one.claim_withdrawals(at - 1, 50) == []
    [again] = await two.claim_withdrawals(at, 50)
    assert again.said_tries == WITHDRAWN_TRIES + 1
    # A stale failure (of the lost try) gives up nothing; this one's does, once.
    assert not await one.give_up_withdrawal(owed, WITHDRAWN_TRIES)
    assert await two.give_up_withdrawal(owed, WITHDRAWN_TRIES + 1)
    assert not await one.give_up_withdrawal(owed, WITHDRAWN_TRIES + 1)
    assert await _owed_in_index(one) == 0
    assert await one.claim_withdrawals(at + 10**6, 50) == []
    assert await _tries(one, owed) == (True, WITHDRAWN_TRIES + 1)  # (a click's still)


async def test_a_withdrawal_being_edited_is_not_claimed(stores: tuple[Store, Store]) -> None:
    one, two = stores
    owed = await _posted(one, 10, NOW)
    other = await _posted(one, 20, NOW)
    await two.stop_challenges(CY, ADA, NOW)
    at = NOW + WITHDRAWN_AFTER
    [taken] = await one.claim_withdrawals(at, 50, [owed])
    assert taken.id == other
    assert await _tries(one, owed) == (True, 0), "a try counted, never made"
    [taken] = await one.claim_withdrawals(at, 50)
    assert (taken.id, taken.said_tries) == (owed, 1)
    row = await one.db.fetchone("SELECT unsaid FROM challenges WHERE id = ?", (owed,))
    assert row is not None and row["unsaid"] == OWED
