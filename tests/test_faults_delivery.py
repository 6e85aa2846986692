"""Delivery under faults: a failure other than Discord's is tried again, retries join rather
than cancel each other, and memory is changed only once the database holds the change."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.in_dms import CHANNEL_LOST
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, flush, play, start_match, thread_of
from tests.loopback.driver import custom_ids as loop_ids
from tests.loopback.driver import start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.slow_retries import (
    RETRY,
    slow_retries,  # noqa: F401 (an autouse fixture)
)
from tests.test_faults_channel import _db, _lose_thread
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

#: Seconds before a first retry, here: long enough that none fires by itself while SimCord
#: waits for the bot to settle (its timers fire in real time too); tests move time on.



async def _locked(*args: Any, **kwargs: Any) -> None:
    """A save that fails: the database is busy."""
    raise sqlite3.OperationalError("database is locked")


async def _end_turn(world: World, live: LiveMatch) -> None:
    """The seat to act plays greedy moves until its turn ends."""
    seat = live.session.to_act
    while live.session.to_act == seat and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)


async def _retried(world: World, seconds: float = RETRY) -> None:
    await world.env.advance_time(seconds + 1)
    await flush(world)


def _told_lost(member: Any) -> bool:
    last = member.user.dm_channel.last_message
    return any(CHANNEL_LOST in (e.description or "") for e in last.embeds)


async def test_a_database_failure_while_sending_the_result_is_tried_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    leases = svc.owners.leases
    outbox = leases.outbox
    calls = []

    async def fails_once(match_id: int) -> Any:
        calls.append(match_id)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return await outbox(match_id)

    monkeypatch.setattr(leases, "outbox", fails_once)
    # ada resigns (by the bot's buttons: the retry is the bot's own timer).
    ask = await world.alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    assert (await world.alice.click(ask.response, custom_id=yes)).acknowledged
    await flush(world)
    assert live.over and calls
    posted = [m.content for m in thread_of(world, live).history()]
    assert not [t for t in posted if "resigned" in t]  # not yet
    await _retried(world)
    posted = [m.content for m in thread_of(world, live).history()]
    assert [t for t in posted if "resigned" in t] and [t for t in posted if "Deals revealed" in t]
    assert live.unsent == [] and _db(db_path, "SELECT unsent FROM matches") == [("[]",)]
    # The final card rides under the last table, and nothing is kept for the match.
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    assert len(table.embeds) >= 2
    assert not svc.tracked(live.id)
    # The database failing for now is no bug: said in a line, without a traceback.
    [said] = [r for r in caplog.records if "sending failed" in r.getMessage()]
    assert "disk I/O error" in said.getMessage() and not said.exc_info


@pytest.mark.usefixtures("server_errors")
async def test_both_players_hear_of_the_lost_channel_when_their_dms_failed_at_first(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=30)
    _lose_thread(world, live)
    for member in (world.alice, world.bob):
        world.env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages",
                               status=500, times=1)
    await _end_turn(world, live)
    assert live.channel_lost
    assert not _told_lost(world.alice) and not _told_lost(world.bob)
    await _retried(world)
    # Each by a new message (it notifies), carrying the note.
    for member in (world.alice, world.bob):
        assert len(member.user.dm_channel.history()) == 2
        assert _told_lost(member)
    assert not live.lost_untold
    assert _db(db_path, "SELECT dm0_lost_untold, dm1_lost_untold FROM matches") == [(0, 0)]


async def test_a_failed_save_of_the_lost_channel_changes_nothing_in_memory(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=30)
    svc = world.bot.matches
    assert svc is not None
    lose = svc.store.set_channel_lost
    monkeypatch.setattr(svc.store, "set_channel_lost", _locked)
    _lose_thread(world, live)
    await _end_turn(world, live)
    assert not live.channel_lost and live.unsent
    [(lost, unsent)] = _db(db_path, "SELECT channel_lost, unsent FROM matches")
    assert lost == 0 and json.loads(unsent) == live.unsent
    # Once the database answers again, the channel is lost as it should be, and both told.
    monkeypatch.setattr(svc.store, "set_channel_lost", lose)
    await _retried(world)
    assert live.channel_lost and live.unsent == []
    assert _db(db_path, "SELECT channel_lost, unsent FROM matches") == [(1, "[]")]
    assert _told_lost(world.alice) and _told_lost(world.bob)


async def test_a_failed_save_of_a_new_dm_leaves_memory_as_the_database(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    seat = 1 - live.session.to_act
    member = (world.alice, world.bob)[seat]
    before = (live.dm_channel_ids[seat], live.dm_message_ids[seat])
    # The waiting player's DM panel was deleted: the next hand goes as a new message ...
    world.env.inject_error("PATCH", f"/channels/{before[0]}/messages/{before[1]}",
                           status=404, code=10008, message="Unknown Message", times=None)
    save = svc.store.set_dm_message
    monkeypatch.setattr(svc.store, "set_dm_message", _locked)
    await _end_turn(world, live)
    # ... whose saving fails: memory still holds what the database does.
    saved = _db(db_path, f"SELECT dm{seat}_channel_id, dm{seat}_message_id FROM matches")
    assert saved == [before] and (live.dm_channel_ids[seat], live.dm_message_ids[seat]) == before
    monkeypatch.setattr(svc.store, "set_dm_message", save)
    await _retried(world)
    newest = member.user.dm_channel.last_message.id
    assert live.dm_message_ids[seat] == newest != before[1]
    assert _db(db_path, f"SELECT dm{seat}_message_id FROM matches") == [(newest,)]


async def test_a_failed_save_of_closed_dms_leaves_memory_as_the_database(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    dm = world.bob.user.dm_channel.id
    for method, path in (("POST", f"/channels/{dm}/messages"),
                         ("PATCH", f"/channels/{dm}/messages/*")):
        world.env.inject_error(method, path, status=403, code=50007,
                               message="Cannot send messages to this user", times=None)
    refused = svc.store.set_dm_refused
    monkeypatch.setattr(svc.store, "set_dm_refused", _locked)
    await _end_turn(world, live)
    assert live.dm_refused == [False, False]
    assert _db(db_path, "SELECT dm_refused0, dm_refused1 FROM matches") == [(0, 0)]
    monkeypatch.setattr(svc.store, "set_dm_refused", refused)
    await _retried(world)
    assert live.dm_refused == [False, True]
    assert _db(db_path, "SELECT dm_refused0, dm_refused1 FROM matches") == [(0, 1)]


async def test_a_failed_save_of_a_table_posted_again_leaves_one_table(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    first = live.table_message_id
    thread = thread_of(world, live)
    # Someone deleted the table; saving the one posted in its place fails once.
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{first}", status=404,
                           code=10008, message="Unknown Message", times=None)
    save = svc.store.replace_table_message
    monkeypatch.setattr(svc.store, "replace_table_message", _locked)
    await _end_turn(world, live)
    assert live.table_message_id == first
    assert _db(db_path, "SELECT table_message_id FROM matches") == [(first,)]
    monkeypatch.setattr(svc.store, "replace_table_message", save)
    await _retried(world)
    tables = [m.id for m in thread.history() if m.embeds and m.id != first
              and (m.embeds[0].title or "").startswith("Umtali")]
    assert tables == [live.table_message_id]
    assert _db(db_path, "SELECT table_message_id FROM matches") == [(live.table_message_id,)]


async def test_a_move_made_while_the_first_dm_panels_are_saved_still_reaches_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On PostgreSQL a move's save may finish before the save of the seat's first DM panel:
    the panel, not yet known in memory, must still be brought to the move's position."""
    monkeypatch.setattr(MatchService, "new_seed", lambda self: 1)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        svc = bot.matches
        assert svc is not None
        gate = asyncio.Event()
        real = svc.store.set_dm_message

        async def slow(*args: Any, **kwargs: Any) -> bool:
            await gate.wait()
            return await real(*args, **kwargs)

        monkeypatch.setattr(svc.store, "set_dm_message", slow)
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        seat = saved.session.to_act
        user = saved.player_ids[seat]
        move = GreedyPlayer().choose(saved.session.view(seat))
        assert move.kind is MoveKind.MELD  # the turn goes on: only this seat's panel changes
        await until(lambda: server.dm_messages(user), "the first DM panel posted")
        typed = await server.slash(user, saved.channel_id, "umtali play", {"move": str(move)})
        assert typed.ephemeral
        gate.set()
        prefix = f"umtali:m:{saved.id}:{saved.version + 1}:"
        await until(lambda: any(c.startswith(prefix) for m in server.dm_messages(user)
                                for c in loop_ids(m)), "the DM panel at the move's position",
                    timeout=10)
        await svc.flush()
