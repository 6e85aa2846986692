"""A move is judged by when it reached the bot, not by when the match was found for it: a
database slow on the lookup before the move (a busy write elsewhere) must not push a move that
arrived before its deadline past the clock's ``LATE`` window, and so refuse it."""

from __future__ import annotations

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, play, player, start_match, thread_of
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


@pytest.mark.parametrize("how", ["command", "panel"])
async def test_a_move_that_arrived_in_time_is_played_however_slow_its_lookup(
        world: World, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None
    while not any(m.kind is MoveKind.DISCARD
                  for m in live.session.view(live.session.to_act).legal_moves):
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    seat = live.session.to_act
    assert live.deadline is not None
    deadline = live.deadline
    lookup = svc.owners.lookup

    async def slow(match_id: int) -> LiveMatch | None:
        # The database busy: the match is found LATE seconds and more after the click came.
        world.clock.advance(LATE + 1)
        return await lookup(match_id)

    monkeypatch.setattr(svc.owners, "lookup", slow)
    world.clock.now = deadline - 1  # a second left when the move reaches the bot
    move = GreedyPlayer().choose(live.session.view(seat))
    if how == "panel":  # a discard, from the table's My hand panel
        move = next(m for m in live.session.view(seat).legal_moves if m.kind is MoveKind.DISCARD)
    version = live.version
    actor = player(world, seat)
    if how == "command":
        r = await actor.slash(thread_of(world, live), "umtali play", move=str(move))
    else:
        table = next(m for m in thread_of(world, live).history()
                     if m.id == live.table_message_id)
        panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
        world.clock.now = deadline - 1
        r = await actor.select(panel.response, [str(move)],
                               custom_id=f"umtali:m:{live.id}:{version}:discard")
    await flush(world)
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert "Your time ran out" not in said, said
    assert live.version == version + 1


async def test_a_move_that_arrived_in_time_is_not_forfeited_while_its_match_is_found(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock checks while the move's lookup waits on the database, ``LATE`` seconds past
    the deadline: the move, which arrived before it, is played; the turn is not forfeited."""
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None
    while not any(m.kind is MoveKind.DISCARD
                  for m in live.session.view(live.session.to_act).legal_moves):
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    seat = live.session.to_act
    assert live.deadline is not None
    deadline = live.deadline
    move = next(m for m in live.session.view(seat).legal_moves if m.kind is MoveKind.DISCARD)
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    actor = player(world, seat)
    panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
    lookup = svc.owners.lookup

    async def slow(match_id: int) -> LiveMatch | None:
        world.clock.advance(LATE + 1)
        await svc.check_timers(now=world.clock.now)  # the clock ticks meanwhile
        return await lookup(match_id)

    monkeypatch.setattr(svc.owners, "lookup", slow)
    world.clock.now = deadline - 1
    version = live.version
    r = await actor.select(panel.response, [str(move)],
                           custom_id=f"umtali:m:{live.id}:{version}:discard")
    await flush(world)
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert not live.over, said
    assert live.version == version + 1 and live.session.to_act == 1 - seat
