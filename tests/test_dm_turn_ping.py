"""A match played in DMs (its channel lost): each turn notifies the player to act once, by a
new DM panel; a new panel that failed for now is sent again as a new one (an edit does not
notify), and a second delivery announcing within the same turn edits it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, flush, player
from tests.slow_retries import (
    RETRY,
    slow_retries,  # noqa: F401 (an autouse fixture)
)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.time_control_helpers import (
    button,
    dm_ids,
    end_turn,
    played_in_dms,
    restarted_telling,
    time_up_in_dms,
)


async def _turn_panel_failed(world: World) -> tuple[LiveMatch, int, list[int]]:
    """A match by correspondence played in DMs whose turn just ended, the next player's new
    panel failed for now: the match, that seat, and its DMs before."""
    live = await played_in_dms(world, time_control="correspondence")
    nxt = 1 - live.session.to_act
    before = dm_ids(world, nxt)
    world.env.inject_error("POST", f"/channels/{player(world, nxt).user.dm_channel.id}/messages",
                           status=500, times=1)
    await end_turn(world, live)
    await flush(world)
    assert dm_ids(world, nxt) == before  # failed for now
    return live, nxt, before


@pytest.mark.usefixtures("server_errors")
async def test_a_turns_new_panel_that_failed_for_now_is_sent_again_as_a_new_one(
        world: World) -> None:
    live, nxt, before = await _turn_panel_failed(world)
    await world.env.advance_time(RETRY + 1)
    await flush(world)
    new = [i for i in dm_ids(world, nxt) if i not in before]
    assert new == [live.dm_message_ids[nxt]], "no new panel: the turn was never notified"


async def test_a_second_delivery_announcing_in_one_turn_notifies_no_more(world: World) -> None:
    live = await played_in_dms(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None
    nxt = 1 - live.session.to_act
    before = dm_ids(world, nxt)
    await end_turn(world, live)
    await flush(world)
    [new] = [i for i in dm_ids(world, nxt) if i not in before]
    # The same turn's announcement delivered again (the match brought in again, say).
    svc.delivery.enqueue(live, Batch(announce=True, table=True, hands={0, 1}))
    await flush(world)
    assert [i for i in dm_ids(world, nxt) if i not in before] == [new]


@pytest.mark.usefixtures("server_errors")
async def test_a_turns_new_panel_still_owed_as_the_bot_stops_is_sent_once_it_is_back(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """The turn's new panel failed for now (the next try a minute away) and the bot stopped:
    brought back, the turn is told all the same, by a new panel (the one on its way, marked
    in the database as it was sent)."""
    live, nxt, before = await _turn_panel_failed(world)
    await restarted_telling(world, make_bot, live, nxt, before)


async def test_a_turn_whose_delivery_never_began_as_the_bot_stopped_is_told_once_it_is_back(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """The bot stopped just after a turn's end was saved, before its delivery began (nothing
    marked as on its way): brought back, the player to act is told by a new panel all the
    same (the seat's panel saved which turn it told), and a second restart tells nothing more."""
    live = await played_in_dms(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None
    nxt = 1 - live.session.to_act
    before = dm_ids(world, nxt)
    await svc.delivery.close()  # the turn's end saved, its delivery never run
    await end_turn(world, live)
    assert dm_ids(world, nxt) == before
    for _ in range(2):
        await restarted_telling(world, make_bot, live, nxt, before)


async def test_keep_waiting_owed_as_the_bot_stops_is_told_once_it_is_back(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """Played in DMs, "keep waiting" saved, and the bot stopped before the absent player's new
    panel went out: told once it is back."""
    live, absent, question = await time_up_in_dms(world)
    svc = world.bot.matches
    assert svc is not None
    before = dm_ids(world, absent)
    await svc.delivery.close()  # the answer saved, the panel never sent
    kept = await player(world, 1 - absent).user.click(question,
                                                      custom_id=button(question, "wait"))
    assert kept.acknowledged
    assert dm_ids(world, absent) == before
    await restarted_telling(world, make_bot, live, absent, before)
