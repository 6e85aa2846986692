"""A member's own look (here their language, as their client shows it) changed through one
process: the other processes read it at their next lease renewal and draw that member's open
panels again then, not at the next move: the DM panel where the match is held, and the open
"My hand" panel where it was answered (only that process has its token), held there or not."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import hand_panels
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match, table_message
from tests.processes.helpers import main_of, row, settle, via
from tests.test_review_prefs_processes import _dm, _hand_field, _turn_via

ENGLISH, RUSSIAN = "by suit", "по мастям"


@pytest.fixture(autouse=True)
def one_clock_for_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """An open panel's token is judged by its age on the loop's clock: SimCord's virtual one
    in the bot's interactions, the real one in what the test calls itself (the renewals),
    which would take every panel for expired once the machine is up 14 minutes. One clock."""
    monkeypatch.setattr(hand_panels, "_now", lambda: 0.0)


async def _held_by_p2(world: World, other: MatchService) -> int:
    live = await start_match(world)
    await _turn_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    return live.id


async def _my_hand(world: World, svc: MatchService, match_id: int) -> Any:
    """Alice opens her "My hand" panel from the table, through ``svc``'s process."""
    with via(world, svc):
        live = await svc.lookup(match_id)
        assert live is not None
        opened = await world.alice.click(await table_message(world, live),
                                         custom_id=f"umtali:m:{match_id}:hand")
    assert opened.ephemeral and opened.response is not None
    return opened.response


async def _speaks_russian_through(world: World, svc: MatchService,
                                  locales: dict[int, str]) -> None:
    """Alice's client now speaks Russian, seen by ``svc``'s process (a command there)."""
    locales[world.alice.id] = "ru"
    with via(world, svc):
        seen = await world.alice.slash(world.channel, "umtali rules")
        assert seen.ephemeral
        await settle(world, svc)


async def _renewed(world: World, svc: MatchService) -> None:
    """``svc``'s lease renewal, and what it began beside it, done (as its own process)."""
    with via(world, svc):
        await svc.check_timers()
        await settle(world, svc)


async def test_the_holder_redraws_the_panels_of_a_member_whose_look_changed_elsewhere(
        world: World, other: MatchService, locales: dict[int, str]) -> None:
    match_id = await _held_by_p2(world, other)
    main = main_of(world)
    pane = await _my_hand(world, other, match_id)
    assert _hand_field(pane)[0].endswith(ENGLISH)
    assert _hand_field(_dm(world.alice))[0].endswith(ENGLISH)
    await _speaks_russian_through(world, main, locales)
    assert _hand_field(_dm(world.alice))[0].endswith(ENGLISH), "redrawn before it was read"
    world.clock.advance(RENEW_EVERY)
    await _renewed(world, main)
    await _renewed(world, other)
    assert (await row(world, match_id))["owner"] == "p2"
    assert _hand_field(_dm(world.alice))[0].endswith(RUSSIAN), "the DM panel kept its look"
    assert _hand_field(pane)[0].endswith(RUSSIAN), "the open My hand panel kept its look"
    # Bob's own panel is left as it was.
    assert _hand_field(_dm(world.bob))[0].endswith(ENGLISH)


async def test_a_my_hand_panel_answered_where_the_match_is_not_held_is_redrawn_there(
        world: World, other: MatchService, third: MatchService,
        locales: dict[int, str]) -> None:
    match_id = await _held_by_p2(world, other)
    main = main_of(world)
    pane = await _my_hand(world, main, match_id)
    assert (await row(world, match_id))["owner"] == "p2"
    await _speaks_russian_through(world, third, locales)
    world.clock.advance(RENEW_EVERY)
    await _renewed(world, main)  # the process with the panel's token; p2 not renewed yet
    assert _hand_field(pane)[0].endswith(RUSSIAN), "the open My hand panel kept its look"
    assert _hand_field(_dm(world.alice))[0].endswith(ENGLISH)
    await _renewed(world, other)
    assert (await row(world, match_id))["owner"] == "p2"
    assert _hand_field(_dm(world.alice))[0].endswith(RUSSIAN), "the DM panel kept its look"
