"""Issue 10, cases 5, 10 and 18: a match channel that is gone, the saved list of unsent
announcements, and what the bot keeps for a match once it has ended."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from cogs.umtali.in_dms import CHANNEL_LOST
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, cut, flush, play, play_out, start_match, thread_of
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer


def _db(db_path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute(sql, args).fetchall()


def _lose_thread(world: World, live: LiveMatch) -> None:
    """The match's thread is deleted: every call to it answers 404 Unknown Channel."""
    world.env.inject_error("*", f"/channels/{live.channel_id}/*", status=404, code=10003,
                           message="Unknown Channel", times=None)


def _calls_to(world: World, channel_id: int, since: int) -> int:
    return sum(1 for r in world.env.http_requests[since:]
               if r.path.startswith(f"/channels/{channel_id}/"))


async def _play_from_dms(world: World, live: LiveMatch, move: Move) -> None:
    """A move made where a player can still act with the channel gone: draws and discards on
    the DM panel, melds with ``/umtali play`` in another channel of the server."""
    seat = live.session.to_act
    actor = (world.alice, world.bob)[seat]
    version = live.version
    prefix = f"umtali:m:{live.id}:{version}"
    dm = actor.user.dm_channel.last_message
    kinds = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}
    if move.kind in kinds:
        result = await actor.user.click(dm, custom_id=f"{prefix}:{kinds[move.kind]}")
    elif move.kind is MoveKind.DISCARD:
        result = await actor.user.select(dm, [str(move)], custom_id=f"{prefix}:discard")
    else:
        result = await actor.slash(world.channel, "umtali play", move=str(move))
    assert result.acknowledged
    assert live.version == version + 1, result.response and result.response.content
    await flush(world)


async def test_a_deleted_thread_moves_the_match_to_dms_and_back_with_the_table(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=5)
    thread = thread_of(world, live)
    _lose_thread(world, live)
    # The turn that ends next cannot be announced: the channel is lost for good ...
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost and not live.over
    assert _db(db_path, "SELECT channel_lost, unsent FROM matches") == [(1, "[]")]
    # ... and both players hear of it by a new DM that carries the table with their hand.
    for member in (world.alice, world.bob):
        dm = member.user.dm_channel.last_message
        assert len(dm.embeds) == 2 and dm.embeds[0].title.startswith("Umtali")
        assert CHANNEL_LOST in (dm.embeds[1].description or "")
    lost_at = len(world.env.http_requests)
    # The match is played on from the DMs; the lost thread is never tried again.
    for _ in range(8):
        to_act = live.session.to_act
        before = len(world.env.http_requests)
        await _play_from_dms(world, live, GreedyPlayer().choose(live.session.view(to_act)))
        if live.session.to_act != to_act:
            # The next player is told by a new message (a DM edit does not notify).
            new = [r for r in world.env.http_requests[before:] if r.method == "POST"
                   and r.path.endswith("/messages")]
            assert new, "the next player was not notified"
    assert _calls_to(world, thread.id, lost_at) == 0
    # The turn timer warns by DM now.
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await svc.check_timers(now=live.deadline - 30)
    await flush(world)
    to_act = (world.alice, world.bob)[live.session.to_act]
    assert "seconds left" in (to_act.user.dm_channel.last_message.embeds[1].description or "")
    # A player brings the match back to a channel with /umtali table.
    moved = await world.alice.slash(world.channel, "umtali table")
    assert not moved.ephemeral and live.channel_id == world.channel.id
    assert not live.channel_lost and live.table_message_id == moved.response.id
    await play_out(world, live, moves=4)
    assert any("your turn" in m.content for m in world.channel.history())
    assert _db(db_path, "SELECT channel_id, channel_lost FROM matches") == [
        (world.channel.id, 0)]


async def test_a_match_that_can_reach_nobody_is_abandoned_without_a_result(
        world: World, db_path: Path) -> None:
    live = await start_match(world)
    # ben closes his DMs, then the thread is deleted.
    world.env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages",
                           status=403, code=50007, message="Cannot send messages to this user",
                           times=None)
    world.env.inject_error("PATCH", f"/channels/{world.bob.user.dm_channel.id}/messages/*",
                           status=403, code=50007, message="Cannot send messages to this user",
                           times=None)
    _lose_thread(world, live)
    seat = live.session.to_act
    while live.session.to_act == seat and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.over and live.abandoned
    assert _db(db_path, "SELECT status, how, winner_seat FROM matches") == [
        ("finished", "abandoned", None)]
    assert _db(db_path, "SELECT COUNT(*) FROM session_results") == [(0,)]
    assert _db(db_path, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert _db(db_path, "SELECT COUNT(*) FROM active_players") == [(0,)]
    # ada, who can still be reached, is told; her panel has nothing left to press.
    dm = world.alice.user.dm_channel.last_message
    assert "abandoned" in (dm.embeds[-1].description or "")
    # Both are free, and nothing is kept for the match.
    assert world.bot.matches is not None and not world.bot.matches.tracked(live.id)
    world.clock.advance(60)
    again = await world.bob.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert not again.ephemeral


async def test_nothing_is_kept_for_a_match_once_it_ends(world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world)
    await play_out(world, live)
    assert live.over and not svc.tracked(live.id)
    world.clock.advance(60)
    resigned = await start_match(world)
    assert await svc.resign(resigned, 0)
    await flush(world)
    assert not svc.tracked(resigned.id)
    practice = await world.alice.slash(world.channel, "umtali practice")
    assert not practice.ephemeral
    await cut(world, practice)
    [computer] = [m for m in svc.matches.values() if m.computer_seat is not None]
    await svc.computer_idle()
    assert await svc.resign(computer, 0)
    await flush(world)
    await svc.computer_idle()
    assert not svc.tracked(computer.id)
    assert svc.matches == {}


def _buttons(member: Any, message_id: int) -> list[str]:
    """The custom ids a message of the member's DMs still carries."""
    [message] = [m for m in member.user.dm_channel.history() if m.id == message_id]
    return [c.custom_id for row in message.components for c in row.children
            if getattr(c, "custom_id", None)]


async def test_a_replaced_panel_whose_buttons_failed_to_go_loses_them_later(
        world: World) -> None:
    """With the channel lost, a turn's end reaches the next player as a new DM panel, and the
    panel it replaced loses its controls. That edit failing for now (a 503) is tried again at
    the seat's next delivery: it was dropped, and the soak found an old panel still offering
    the discard of an earlier position after the session ended."""
    live = await start_match(world)
    _lose_thread(world, live)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost
    # The other player's turn; its last move sends ``seat`` a new panel, and taking the
    # buttons off the one it replaces fails once.
    member = (world.alice, world.bob)[seat]
    old = live.dm_message_ids[seat]
    assert old is not None and _buttons(member, old)
    while (move := GreedyPlayer().choose(live.session.view(1 - seat))).kind is not \
            MoveKind.DISCARD:
        await _play_from_dms(world, live, move)
    world.env.inject_error("PATCH", f"/channels/{live.dm_channel_ids[seat]}/messages/{old}",
                           status=503, code=0, message="Unavailable")
    await _play_from_dms(world, live, move)
    assert live.dm_message_ids[seat] != old
    # At the next delivery to ``seat`` (at the end of its turn), the old panel loses them.
    while live.session.to_act == seat:
        await _play_from_dms(world, live, GreedyPlayer().choose(live.session.view(seat)))
    assert _buttons(member, old) == []
    panel = live.dm_message_ids[seat]
    assert panel is not None and _buttons(member, panel)
