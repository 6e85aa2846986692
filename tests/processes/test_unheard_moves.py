"""A move whose COMMIT went through while the bot was told it failed (the connection to
PostgreSQL dropped before the COMMIT's answer; a disk failing as SQLite ended it), injected at
the driver's boundary after a real commit (``tests.unheard``), on SQLite and PostgreSQL: the bot
reads the match back and carries on as for a saved move (``cogs.umtali.unheard``). If that
read fails too, the clock's next check reads it before judging the turn."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import APOLOGY
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from data.db import Tx
from tests.discord_helpers import World, custom_ids, player, start_match, table_message
from tests.processes.helpers import first_line, main_of, row, said, settle
from tests.test_faults_timers import to_turn_end
from tests.unheard import MAYBE, lose_answer
from umtali.players import GreedyPlayer

#: The statement only a move's save makes.
MOVE = "INSERT INTO moves"


def words(result: Any) -> list[str]:
    """What the bot answered an interaction: its response and follow-ups."""
    answers = [result.response, *result.followups]
    return [m.content or "" for m in answers if m is not None]


async def discard_on_table(world: World, live: LiveMatch) -> Any:
    """The player to act ends their turn with a discard from the table's My hand panel, as a
    member does; the select's result."""
    seat, version = live.session.to_act, live.version
    move = GreedyPlayer().choose(live.session.view(seat))
    actor = player(world, seat)
    panel = await actor.click(await table_message(world, live),
                              custom_id=f"umtali:m:{live.id}:hand")
    return await actor.select(panel.response, [str(move)],
                              custom_id=f"umtali:m:{live.id}:{version}:discard")


def shows_turn(world: World, live: LiveMatch, seat: int, version: int) -> bool:
    """The seat's DM panel offers the moves of the match at ``version`` (by correspondence a
    "your turn" DM may come after it)."""
    return any(c.startswith(f"umtali:m:{live.id}:{version}:")
               for m in player(world, seat).user.dm_channel.history() for c in custom_ids(m))


async def at_turn_end(world: World, **start: Any) -> tuple[LiveMatch, MatchService, int, int]:
    """A match started (``start``: its clock) and played to a turn's end, settled: the match,
    the service, the seat to act and the version."""
    live = await start_match(world, **start)
    main = main_of(world)
    await to_turn_end(world, live)
    await settle(world, main)
    return live, main, live.session.to_act, live.version


async def read_at_next_check(world: World, main: MatchService, live: LiveMatch, seat: int,
                             version: int) -> None:
    """The move at ``version``, saved with its announcement while memory stayed behind, is
    read at the clock's next check: announced once, the next player offered their turn."""
    saved = await row(world, live.id)
    assert saved["version"] == version + 1
    [announcement] = json.loads(saved["unsent"])
    await main.check_timers(now=world.clock.now + 1)
    await settle(world, main)
    assert live.version == version + 1
    assert len(said(world, live, first_line(announcement))) == 1
    assert shows_turn(world, live, 1 - seat, version + 1)


async def test_a_turn_saved_unheard_is_carried_on_as_saved(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    lost = lose_answer(monkeypatch, main.store.db, MOVE)
    result = await discard_on_table(world, live)
    await settle(world, main)
    assert lost.answers == 1
    # Played, as the database has it: the player is answered as for any move, the turn
    # announced once, the next player's hand offers their turn, whose clock runs from here.
    assert not any(APOLOGY[:20] in w for w in words(result)), words(result)
    saved = await row(world, live.id)
    assert saved["version"] == live.version == version + 1
    assert live.deadline == saved["deadline"] and live.deadline is not None
    assert json.loads(saved["unsent"]) == []
    assert live.last_turn and len(said(world, live, first_line(live.last_turn))) == 1
    assert shows_turn(world, live, 1 - seat, version + 1)


async def test_a_turn_unheard_and_unread_is_read_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    deadline = live.deadline
    assert deadline is not None
    world.clock.advance(30)  # the next turn's deadline comes 30 s after this one's
    # The database stays out of reach a moment longer: the read that would settle it fails.
    lost = lose_answer(monkeypatch, main.store.db, MOVE, reads_fail=1)
    result = await discard_on_table(world, live)
    # Not known to be played: memory stays as it was, never ahead of the database; the
    # player is told it may have been, and no error is logged (no bug: the database failing).
    assert any(MAYBE in w for w in words(result)), words(result)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert live.version == version
    # The next check reads it, before any judgement: the turn is announced, once, and the
    # next player's hand offers their turn.
    await read_at_next_check(world, main, live, seat, version)
    assert lost.reads == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    # The turn's old deadline forfeits nobody: the player who moved is not the one to act.
    await main.check_timers(now=deadline + LATE + 1)
    await settle(world, main)
    assert not live.over and (await row(world, live.id))["status"] == "active"


async def test_a_correspondence_turn_unheard_and_unread_does_not_stall(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, version = await at_turn_end(world, time_control="correspondence")
    deadline = live.deadline
    assert deadline is not None
    lose_answer(monkeypatch, main.store.db, MOVE, reads_fail=1)
    await discard_on_table(world, live)
    assert live.version == version
    # Past the turn's old deadline: the waiting player is not asked about a turn that was
    # played, and the next player is told of theirs.
    await main.check_timers(now=deadline + LATE + 1)
    await settle(world, main)
    assert live.version == version + 1
    assert shows_turn(world, live, 1 - seat, version + 1)
    assert not said(world, live, "may claim the session")


async def test_a_move_cancelled_as_it_commits_is_read_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    discard = GreedyPlayer().choose(live.session.view(seat))
    moving = asyncio.ensure_future(main.act(live, live.player_ids[seat], discard, version))
    db, real = main.store.db, main.store.db._begin

    @asynccontextmanager
    async def begin() -> AsyncIterator[Tx]:
        async with real() as tx:
            yield tx
        # Committed; the move's caller is cancelled (the bot stopping, a timeout) before it
        # hears so.
        if not moving.done():
            moving.cancel()
            await asyncio.sleep(0)

    monkeypatch.setattr(db, "_begin", begin)
    with pytest.raises(asyncio.CancelledError):
        await moving
    assert live.version == version
    await read_at_next_check(world, main, live, seat, version)


async def test_a_move_cancelled_as_it_is_read_back_is_read_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save's answer is lost, and the move's caller is cancelled while the bot reads the
    match back: whether it was saved is as unknown as if cancelled during the save."""
    live, main, seat, version = await at_turn_end(world, turn_timer=60)
    discard = GreedyPlayer().choose(live.session.view(seat))
    lose_answer(monkeypatch, main.store.db, MOVE)
    moving = asyncio.ensure_future(main.act(live, live.player_ids[seat], discard, version))
    leases = main.owners.leases
    real = leases.saved_as

    async def saved_as(*args: Any) -> list[str] | None:
        moving.cancel()  # the bot stopping, a timeout: as the read goes to the database
        await asyncio.sleep(0)
        return await real(*args)

    monkeypatch.setattr(leases, "saved_as", saved_as)
    with pytest.raises(asyncio.CancelledError):
        await moving
    assert live.version == version
    await read_at_next_check(world, main, live, seat, version)
