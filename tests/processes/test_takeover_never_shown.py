"""A match never shown (its process killed after saving it, before saving its table), taken
over by another process: cancelled, clock or not, once the process that made it has had time to
finish posting its table; and not cancelled if it did post it after all."""

from __future__ import annotations

from cogs.umtali.claims import LEASE
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import kill, main_of, row, settle


async def _taken_over_unshown(world: World, other: MatchService, table: int | None) -> int:
    """A match with no clock whose table id the database lacks, its process killed, taken
    over by ``other``; ``table``: the table id saved meanwhile (late) by the killed process."""
    live = await start_match(world, turn_timer=0)
    main = main_of(world)
    assert live.deadline is None
    async with main.store.db.transaction() as c:
        await c.execute("UPDATE matches SET table_message_id = NULL WHERE id = ?", (live.id,))
    shown = live.table_message_id
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == "p2"
    assert other.matches[live.id].never_shown
    if table is not None:
        async with main.store.db.transaction() as c:
            await c.execute("UPDATE matches SET table_message_id = ? WHERE id = ?",
                            (shown, live.id))
    # Not at once: the process that made it may still be posting its table.
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["status"] == "active"
    for _ in range(5):
        world.clock.advance(10)
        await other.check_timers()
        await settle(world, other)
    return live.id


async def test_a_match_never_shown_taken_over_is_cancelled(world: World,
                                                           other: MatchService) -> None:
    match_id = await _taken_over_unshown(world, other, None)
    assert (await row(world, match_id))["status"] == "finished"
    assert other.matches.get(match_id) is None or other.matches[match_id].abandoned


async def test_one_whose_table_was_saved_late_plays_on(world: World,
                                                       other: MatchService) -> None:
    match_id = await _taken_over_unshown(world, other, 1)
    assert (await row(world, match_id))["status"] == "active"
    assert not other.matches[match_id].never_shown
