"""Leases (data/leases.py) between two connections to one database, as two processes have: one
SQLite file, or one PostgreSQL database."""

from __future__ import annotations

import asyncio
import json

from data.db import Reads
from data.leases import Claimed, Leases
from data.models import Stood
from data.store import Store


async def _match(store: Store, n: int, owner: str = "gone", lease_until: float = 50.0) -> int:
    return await store.create_match(
        guild_id=10, channel_id=5 + n, players=((2 * n + 1, "Ada"), (2 * n + 2, "Ben")),
        variant="english", turn_timer=300, state="{}", deadline=123.0, owner=owner,
        lease_until=lease_until)


async def test_two_processes_claiming_at_once_never_claim_the_same_match(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    ids = [await _match(one, n) for n in range(60)]
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    won_a: list[int] = []
    won_b: list[int] = []
    for _ in range(6):
        got_a, got_b = await asyncio.gather(a.claim(100.0, 115.0, limit=10),
                                            b.claim(100.0, 115.0, limit=10))
        won_a += [c.match_id for c in got_a]
        won_b += [c.match_id for c in got_b]
    assert won_a and won_b and not set(won_a) & set(won_b)
    assert sorted(won_a + won_b) == ids
    # A lease that has not run out is nobody else's to claim; its holder's name takes it back
    # (a restart).
    assert await b.claim(110.0, 125.0) == []
    assert {c.match_id for c in await b.claim(110.0, 125.0, mine_too=True)} == set(won_b)
    # Once run out, it is anyone's.
    assert {(c.match_id, c.previous) for c in await b.claim(120.0, 135.0)} == {
        (i, "a") for i in won_a}


async def test_a_renewal_keeps_a_lease_and_tells_what_another_process_took(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    first, second = await _match(one, 1, "a", 115.0), await _match(one, 2, "a", 115.0)
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    assert await a.renew(130.0, [first, second]) == set()
    assert await b.claim(120.0, 135.0) == []  # renewed: not lapsed
    assert await b.take(second, 135.0)  # a player acted on it in the other process
    assert await a.renew(140.0, [first, second]) == {second}
    assert await a.holder(first) == "a" and await a.holder(second) == "b"
    await a.release()
    assert [c.match_id for c in await b.claim(141.0, 156.0)] == [first]


async def test_a_timer_claim_is_made_once_and_only_by_the_holder(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    match_id = await _match(one, 1, "a", 115.0)
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    assert not await b.claim_warning(match_id, 0)
    results = await asyncio.gather(a.claim_warning(match_id, 0), a.claim_warning(match_id, 0))
    assert sorted(results) == [False, True]
    assert not await a.claim_warning(match_id, 1)  # another turn's version: not this one
    assert not await b.stop_clock(match_id, 0)
    assert await a.stop_clock(match_id, 0) and not await a.stop_clock(match_id, 0)


async def test_clearing_posted_announcements_keeps_a_new_one_and_is_done_once(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    match_id = await _match(one, 1, "a", 115.0)
    await one.set_unsent(match_id, json.dumps(["first", "second"]))
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    box = await a.outbox(match_id)
    assert box is not None and box.unsent == ["first", "second"] and box.announced == 0
    # Meanwhile a move saves a third; the first two are posted and cleared, the third kept.
    await one.set_unsent(match_id, json.dumps(["first", "second", "third"]))
    assert await a.posted(match_id, ["first", "second"], 0) == ["third"]
    # The same post cleared again (another process posted them too: Discord's nonce gave the
    # same message back): nothing more is dropped.
    assert await b.posted(match_id, ["first", "second"], 0) == ["third"]
    box = await b.outbox(match_id)
    assert box is not None and box.unsent == ["third"] and box.announced == 2


async def test_a_restart_takes_back_its_own_page_by_page(stores: tuple[Store, Store]) -> None:
    one, _ = stores
    ids = [await _match(one, n, "a", 500.0) for n in range(5)]
    a = Leases(one.db, "a")
    pages: list[list[int]] = []
    after = 0
    while page := [c.match_id for c in await a.claim(100.0, 115.0, mine_too=True, limit=2,
                                                      after=after)]:
        pages.append(page)
        after = page[-1]
    assert pages == [ids[0:2], ids[2:4], ids[4:]]


async def test_a_question_is_settled_once_by_two_processes(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    match_id = await _match(one, 1, "a", 115.0)
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    asked = json.dumps({"channel_id": 5, "message_id": 7, "version": 3, "absent": 0,
                        "in_dm": False})
    assert await a.set_question(match_id, asked, "")
    assert not await b.set_question(match_id, asked, "")  # asked already
    row = await two.match(match_id)
    assert row is not None and row.question == asked
    # A move in one process and the answer in the other clear it at once: one does.
    cleared = await asyncio.gather(a.set_question(match_id, "", asked),
                                   b.set_question(match_id, "", asked))
    assert sorted(cleared) == [False, True]
    row = await one.match(match_id)
    assert row is not None and row.question == ""


async def test_a_question_just_asked_is_saved_standing_only_at_its_stopped_clock(
        stores: tuple[Store, Store]) -> None:
    """Compared and set in one ``UPDATE``: the version asked at, the clock stopped, the
    match held by the asker; whatever question was saved gives way then."""
    one, two = stores
    match_id = await _match(one, 1, "a", 115.0)
    a, b = Leases(one.db, "a"), Leases(two.db, "b")
    asked = json.dumps({"channel_id": 5, "message_id": 7, "version": 0, "absent": 0,
                        "in_dm": False})
    assert not await a.set_question(match_id, asked, "", asked_at=0)  # its clock runs
    assert await a.stop_clock(match_id, 0)
    assert not await b.set_question(match_id, asked, "", asked_at=0)  # not b's to ask
    assert not await a.set_question(match_id, asked, "", asked_at=1)  # another version
    # A withdrawn question saved by another process, unknown to the asker's copy.
    assert await b.set_question(match_id, "withdrawn", "")
    assert await a.set_question(match_id, asked, "", asked_at=0)
    row = await two.match(match_id)
    assert row is not None and row.question == asked
    # The clock given back (an answer elsewhere): no longer saved as standing.
    assert await a.restart_clock(match_id, 0, 200.0, asked)
    assert not await a.set_question(match_id, "again", asked, asked_at=0)
    row = await one.match(match_id)
    assert row is not None and row.question == asked


async def test_a_claims_downtime_is_kept_until_the_match_is_held(
        stores: tuple[Store, Store]) -> None:
    """The downtime a claim saves with it (``claim``'s ``downtimes``) is read by the next
    claim while nobody held the match (its undoing, or its lease left to lapse), kept by a
    renewal of a match whose resume is of unknown outcome (not resumed for sure), and cleared
    by a renewal of one held in memory, and by a take."""
    one, two = stores
    first, second = await _match(one, 1, "a", 50.0), await _match(one, 2, "a", 50.0)
    b, c = Leases(one.db, "b"), Leases(two.db, "c")
    read: dict[int, Stood | None] = {}

    async def downtimes(reads: Reads, found: list[Claimed]) -> dict[int, Stood]:
        read.update((f.match_id, f.stood) for f in found)
        return {first: (40.0, 7.0), second: (41.0, 0.0)}

    claimed = {x.match_id: x for x in await b.claim(100.0, 115.0, downtimes=downtimes)}
    assert read == {first: None, second: None}
    assert {m: x.stood for m, x in claimed.items()} == {first: (40.0, 7.0), second: (41.0, 0.0)}
    await b.unclaim(claimed[first], 115.0, 100.0)
    # Undone (first) or left to lapse (second): the next claim reads what was saved.
    assert {x.match_id for x in await c.claim(120.0, 135.0, downtimes=downtimes)} == {
        first, second}
    assert read == {first: (40.0, 7.0), second: (41.0, 0.0)}
    # Renewed as unsettled (first) it is kept; as held in memory (second), cleared.
    await c.renew(140.0, [second], [first])
    assert (await one.match(first)).stood == (40.0, 7.0)  # type: ignore[union-attr]
    assert (await one.match(second)).stood is None  # type: ignore[union-attr]
    assert await b.take(first, 150.0)
    assert (await one.match(first)).stood is None  # type: ignore[union-attr]
