"""A save whose COMMIT went through while the process was told it failed (PostgreSQL's connection
dropped as the COMMIT was acknowledged, a failover), and whose read-back failed too (the database
still out of reach, ``cogs.umtali.unheard``; tests/processes/test_unheard_moves.py has it read
back at once): the process keeps its copy as it was, and finds the match moved on at its next
try. What the save left to announce is posted then, once (docs/processes.md)."""

from __future__ import annotations

import json

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.unheard import InDoubt
from tests.discord_helpers import World, custom_ids, player, start_match
from tests.processes.helpers import first_line, main_of, results, row, said, settle
from tests.processes.test_unheard_moves import at_turn_end
from tests.unheard import lose_answer
from umtali.players import GreedyPlayer


async def test_a_forfeit_saved_unheard_is_announced_at_the_next_tick(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    assert live.deadline is not None
    deadline = live.deadline
    lose_answer(monkeypatch, main.store.db, "INSERT INTO session_results", reads_fail=1)
    await main.check_timers(now=deadline + LATE + 1)  # saved; the process hears it failed
    assert (await row(world, live.id))["status"] == "finished" and not live.over
    # The next tick finds the match ended: the forfeit is announced, once, and the match let go.
    await main.check_timers(now=deadline + LATE + 2)
    await settle(world, main)
    assert live.over
    assert len(said(world, live, "timed out")) == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    assert [r["match_id"] for r in await results(world)] == [live.id]
    assert not main.tracked(live.id)


async def test_a_turn_saved_unheard_reaches_the_next_player_when_clicked_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    discard = GreedyPlayer().choose(live.session.view(seat))
    lose_answer(monkeypatch, main.store.db, "INSERT INTO moves", reads_fail=1)
    with pytest.raises(InDoubt):
        await main.act(live, live.player_ids[seat], discard, version)
    saved = await row(world, live.id)
    assert saved["version"] == version + 1 and live.version == version
    [announcement] = json.loads(saved["unsent"])
    # The player, told it failed, clicks again: the turn was saved after all. Its end is
    # announced, once, and the next player's hand says it is their turn (their clock runs).
    outcome = await main.act(live, live.player_ids[seat], discard, version)
    assert outcome.stale and live.version == version + 1
    await settle(world, main)
    assert len(said(world, live, first_line(announcement))) == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    panel = player(world, 1 - seat).user.dm_channel.last_message
    assert any(c.startswith(f"umtali:m:{live.id}:{version + 1}:") for c in custom_ids(panel))
