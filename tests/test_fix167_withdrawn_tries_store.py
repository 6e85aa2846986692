"""fix167 (review160): a withdrawal owed to its message (``challenges.unsaid``) is tried from
a minute after the stop (``said_after``), the next due first; each try pushes it out, twice as
far each time; after ``WITHDRAWN_TRIES`` it is given up, once. fix170: each try is taken by
one process (claimed as it is found); one given up (fix175: by its last try's failure)
leaves the ticks' index; one whose message's id was never saved is moved on to its expiry.
On both backends."""

from __future__ import annotations

from data.stops import OWED, WITHDRAWN_AFTER, WITHDRAWN_TRIES
from data.store import Store
from tests.test_fix162_stops_store import ADA, CY, NOW, _challenge

BEN = CY + 1


async def _posted(store: Store, guild_id: int, now: float) -> int:
    challenge_id = await _challenge(store, guild_id, now)
    await store.set_challenge_message(challenge_id, 10**18 + challenge_id)
    return challenge_id


async def test_owed_withdrawals_are_tried_further_apart_then_given_up(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    older = await _posted(one, 10, NOW)
    [closed] = await two.stop_challenges(CY, ADA, NOW + 10)
    assert closed.id == older and closed.unsaid
    assert await one.claim_withdrawals(NOW + 10 + WITHDRAWN_AFTER - 1, 50) == []
    at = NOW + 10 + WITHDRAWN_AFTER
    waits = []
    for tries in range(1, WITHDRAWN_TRIES + 1):
        # Both processes' ticks look at once: one takes the try, counted as taken.
        taken = [await one.claim_withdrawals(at, 50), await two.claim_withdrawals(at, 50)]
        assert [[ch.id for ch in t] for t in taken] == [[older], []], tries
        assert taken[0][0].said_tries == tries
        if tries < WITHDRAWN_TRIES:
            assert await _said_after(one, older) > at  # not again before its time
            waits.append(round(await _said_after(one, older) - at))
            at += waits[-1]
        else:
            # Its failure gives it up, once (fix175): out of the ticks' index, owed to a click
            # still.
            assert await two.give_up_withdrawal(older, tries)
            assert not await one.give_up_withdrawal(older, tries)
            assert await one.claim_withdrawals(at + 10**6, 50) == []
            assert await _owed_in_index(one) == 0
            again = await two.challenge(older)
            assert again is not None and again.unsaid
    assert waits == [60 * 2 ** n for n in range(WITHDRAWN_TRIES - 1)]
    assert sum(waits) >= 3600  # about an hour of tries
    await two.withdrawal_said(older)  # (a click said it)
    said = await one.challenge(older)
    assert said is not None and not said.unsaid


async def test_the_withdrawals_failing_for_a_while_move_behind_the_newer(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    older = await _posted(one, 10, NOW)
    newer = await one.create_challenge(
        guild_id=20, channel_id=21, challenger=(BEN, "ben"), opponent=(CY, "cy"),
        variant="standard", optional_melding=False, turn_timer=300, ttl=600.0, now=NOW)
    await one.set_challenge_message(newer.id, 10**18)
    await two.stop_challenges(CY, ADA, NOW + 10)
    await two.stop_challenges(CY, BEN, NOW + 20)
    at = NOW + 20 + WITHDRAWN_AFTER
    assert [ch.id for ch in await one.claim_withdrawals(at, 1)] == [older]
    assert [ch.id for ch in await two.claim_withdrawals(at, 1)] == [newer.id]
    await one.withdrawal_said(newer.id)
    assert [ch.id for ch in await one.claim_withdrawals(at + 10**6, 50)] == [older]


async def test_a_withdrawal_whose_message_id_was_never_saved_waits_for_its_expiry(
        stores: tuple[Store, Store]) -> None:
    """Only its poster may know its message (``challenge_posts.save_unsaved`` says it): the
    ticks find it once, then no more until it has expired, no try counted."""
    one, two = stores
    unknown = await _challenge(one, 10, NOW)
    await two.stop_challenges(CY, ADA, NOW + 10)
    at = NOW + 10 + WITHDRAWN_AFTER
    [found] = await one.claim_withdrawals(at, 50)
    assert found.id == unknown and found.said_tries == 0
    assert await two.claim_withdrawals(at + 10, 50) == []  # (not read again each tick)
    assert await _said_after(one, unknown) == found.expires_at
    # Its poster saves its message's id: due at once.
    saved = await two.save_message_late(unknown, 10**18, at + 20)
    assert saved is not None and saved.status == "cancelled" and saved.unsaid
    assert [ch.id for ch in await one.claim_withdrawals(at + 20, 50)] == [unknown]


async def _said_after(store: Store, challenge_id: int) -> float:
    row = await store.db.fetchone("SELECT said_after FROM challenges WHERE id = ?",
                                  (challenge_id,))
    assert row is not None
    return float(row["said_after"])


async def _owed_in_index(store: Store) -> int:
    """The rows of the ticks' partial index (``challenges_unsaid``: ``WHERE unsaid = 1``)."""
    row = await store.db.fetchone("SELECT COUNT(*) AS n FROM challenges WHERE unsaid = ?",
                                  (OWED,))
    assert row is not None
    return int(row["n"])
