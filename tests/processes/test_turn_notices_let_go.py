"""The turns told by DM (correspondence) are kept by match while this process holds it; a match
that ended, or that another process holds now, is let go of here, as the rest of what was kept
for it: a long-running bot does not keep one entry a correspondence match for ever."""

from __future__ import annotations

from cogs.umtali.reminders import TurnNotices
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import greedy_via, main_of, row, settle
from umtali.moves import MoveKind


def notices(svc: MatchService) -> TurnNotices:
    [found] = [n for n in svc.hand_listeners if isinstance(n, TurnNotices)]
    return found


async def test_a_match_another_process_holds_now_is_let_go_by_the_turn_notices(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    told = notices(main)
    assert live.id in told.told  # the first turn's DM
    # The turn is played through the other process, which holds the match from then on; the
    # first one lets its copy go at its next renewal.
    while (await greedy_via(world, other, live.id)).kind is not MoveKind.DISCARD:
        await settle(world, main, other)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "p2"
    await main.check_timers()
    assert live.id not in main.matches
    assert live.id not in told.told and live.id not in told.failed
    assert not main.tracked(live.id)


async def test_a_resigned_match_is_let_go_by_the_turn_notices(world: World) -> None:
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    told = notices(main)
    assert live.id in told.told
    assert await main.resign(live, live.session.to_act)
    await settle(world, main)
    assert live.over
    assert live.id not in told.told and not main.tracked(live.id)
