"""A player whose DMs refused the bot was left to the table's My hand button for the rest of the
match, even after opening their DMs (review43). Now they are tried again once a hand, quietly:
refused again, nothing more is said; open, the hand panel comes there again."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import pytest

from bot import UmtaliBot
from cogs.umtali.dms_again import paid
from cogs.umtali.live import LiveMatch
from cogs.umtali.reminders import turn_of
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, play_out, start_match, thread_of
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)

REFUSED = "can't send you direct messages"


def _close_dms(world: World) -> None:
    world.env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages",
                           status=403, code=50007, message="Cannot send messages to this user",
                           times=None)


def _open_dms(world: World) -> None:
    faults = world.env.backend.faults
    faults[:] = [f for f in faults if not str(f["path"]).endswith(
        f"{world.bob.user.dm_channel.id}/messages")]


def _sends_to_bob(world: World) -> int:
    path = f"/channels/{world.bob.user.dm_channel.id}/messages"
    return sum(1 for r in world.env.http_requests if r.method == "POST" and r.path == path)


def _notices(world: World, live: LiveMatch) -> int:
    return sum(1 for m in thread_of(world, live).history() if REFUSED in m.content)


async def refused_from_the_start(world: World) -> tuple[LiveMatch, int]:
    """A match begun with Bob's DMs closed to the bot: the match and Bob's seat."""
    _close_dms(world)
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    assert bob is not None and live.dm_refused[bob]
    return live, bob


async def _next_hand(world: World, live: LiveMatch) -> None:
    hand = turn_of(live)[:2]
    while not live.over and turn_of(live)[:2] == hand:
        await play_out(world, live, moves=1)
    await flush(world)


def _saved_refused(db_path: Path, live: LiveMatch) -> tuple[int, int]:
    with sqlite3.connect(db_path) as db:
        row = db.execute("SELECT dm_refused0, dm_refused1 FROM matches WHERE id = ?",
                         (live.id,)).fetchone()
    return int(row[0]), int(row[1])


async def test_dms_opened_again_get_the_hand_panel_at_the_next_hand(
        world: World, db_path: Path) -> None:
    live, bob = await refused_from_the_start(world)
    assert _notices(world, live) == 1
    tries = _sends_to_bob(world)
    # Within the hand: not tried again at every move.
    await play_out(world, live, moves=6)
    assert _sends_to_bob(world) == tries
    # A new hand: tried once, refused again, and nothing more said in the channel.
    await _next_hand(world, live)
    assert not live.over
    assert _sends_to_bob(world) == tries + 1
    assert _notices(world, live) == 1 and live.dm_refused[bob]
    assert _saved_refused(db_path, live)[bob] == 1
    # Bob opens his DMs: at the next hand his panel comes there, saying so.
    _open_dms(world)
    await play_out(world, live, moves=3)
    assert _sends_to_bob(world) == tries + 1
    await _next_hand(world, live)
    assert not live.over and not live.dm_refused[bob]
    assert _saved_refused(db_path, live)[bob] == 0
    panel = world.bob.user.dm_channel.last_message
    assert live.dm_message_ids[bob] == panel.id
    assert "I can send you direct messages again" in (panel.content or "") + "".join(
        e.description or "" for e in panel.embeds)
    # From then on the panel is edited in place, and a refusal later is told again.
    await play_out(world, live, moves=2)
    assert world.bob.user.dm_channel.last_message.id == panel.id
    _close_dms(world)
    dm = world.bob.user.dm_channel
    world.env.inject_error("PATCH", f"/channels/{dm.id}/messages/*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    await _next_hand(world, live)
    assert live.dm_refused[bob] and _notices(world, live) == 2


async def test_a_restart_tries_once_and_says_nothing_again(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    _close_dms(world)
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    assert bob is not None and live.dm_refused[bob] and _notices(world, live) == 1
    await play_out(world, live, moves=2)
    tries = _sends_to_bob(world)
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    await play_out(world, restored, moves=4)
    # One try after the restart (it cannot know the hand it was tried in), no second notice.
    assert _sends_to_bob(world) <= tries + 1
    assert restored.dm_refused[bob] and _notices(world, restored) == 1


async def test_a_refusal_with_the_channel_lost_is_never_tried_again(
        world: World, db_path: Path) -> None:
    # The clear (with the panel's id) is refused as saved: the match's channel lost (the
    # store's own condition).
    _close_dms(world)
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    assert bob is not None
    svc = world.bot.matches
    assert svc is not None
    dm = world.bob.user.dm_channel.id

    async def reopened(message_id: int, owner: str) -> bool:
        return await svc.store.set_dm_message(live.id, bob, dm, message_id,
                                              at_version=live.version, owner=owner,
                                              reopened=True)

    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE matches SET channel_lost = 1 WHERE id = ?", (live.id,))
    assert not await reopened(1 << 60, svc.owners.name)
    assert _saved_refused(db_path, live)[bob] == 1
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE matches SET channel_lost = 0 WHERE id = ?", (live.id,))
    # Nor by a process that does not hold the match (its version the same).
    assert not await reopened(1 << 60, "elsewhere")
    assert _saved_refused(db_path, live)[bob] == 1
    assert await reopened(1 << 60, svc.owners.name)
    assert _saved_refused(db_path, live)[bob] == 0


async def test_the_panel_that_reached_reopened_dms_is_kept_up_to_date_though_the_clear_fails(
        world: World, db_path: Path) -> None:
    # review63: the refusal was cleared by a write of its own after the panel tried again had
    # reached the DMs and been saved. That write failing (or the bot stopping before it), the
    # seat stayed taken for closed for the rest of the hand: the new panel offered the moves
    # of a position long gone, never edited, its turns untold, a channel lost abandoned the
    # match. The clear is saved with the panel's id, in one write.
    live, bob = await refused_from_the_start(world)
    _open_dms(world)
    with sqlite3.connect(db_path) as db:
        # Any clear of the refusal not saved with the panel's id is lost (the bot stopped
        # before it, say).
        db.execute(
            f"CREATE TRIGGER clear_fails BEFORE UPDATE OF dm_refused{bob} ON matches "
            f"WHEN OLD.dm_refused{bob} = 1 AND NEW.dm_refused{bob} = 0 "
            f"AND NEW.dm{bob}_message_id IS OLD.dm{bob}_message_id "
            "BEGIN SELECT RAISE(IGNORE); END")
    await _next_hand(world, live)
    panel = world.bob.user.dm_channel.last_message
    assert live.dm_message_ids[bob] == panel.id
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TRIGGER clear_fails")
    assert _saved_refused(db_path, live)[bob] == 0 and not live.dm_refused[bob]
    await play_out(world, live, moves=2)
    await flush(world)
    assert not live.over and live.dm_shown[bob] == live.version


async def test_a_copy_that_took_the_dms_for_open_tells_the_channel_nothing_again(
        world: World, db_path: Path) -> None:
    """Another process's copy of the match, read before the refusal was saved, takes Bob's
    DMs for open: its panel is refused in a later hand. The refusal was found and told
    already (saved): nothing more is said in the channel (the soak's PostgreSQL case, two
    processes, seed 2173: told twice, in two hands, 100 ms apart)."""
    live, bob = await refused_from_the_start(world)
    assert _notices(world, live) == 1
    await _next_hand(world, live)
    assert _notices(world, live) == 1
    live.dm_refused[bob] = False  # as the other process's copy had it
    await play_out(world, live, moves=2)
    await flush(world)
    assert live.dm_refused[bob] and _saved_refused(db_path, live)[bob] == 1
    assert _notices(world, live) == 1


async def _closed_as_the_channel_fails(world: World
                                      ) -> tuple[LiveMatch, int, MatchService, str]:
    """A match whose thread fails every post for now (503), Bob's DMs closed: the match,
    Bob's seat, the service and the thread's posts' path."""
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    assert bob is not None and not live.dm_refused[bob]
    svc = world.bot.matches
    assert svc is not None
    posts = f"/channels/{thread_of(world, live).id}/messages"
    world.env.inject_error("POST", posts, status=503, times=None)
    _close_dms(world)
    return live, bob, svc, posts


@pytest.mark.usefixtures("server_errors")
async def test_a_notice_that_failed_for_now_is_told_by_the_copy_after_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """review66: the copy that found Bob's DMs closed could not post the notice (a 5xx): it
    was owed in that copy's memory alone. The bot restarting (or the match moving to another
    process) before the seat's next delivery, the copy that brought it back took the DMs for
    closed as saved, and said nothing: Bob was never told to use My hand."""
    live, bob, svc, posts = await _closed_as_the_channel_fails(world)
    with pytest.raises(discord.DiscordServerError):
        await svc.delivery.dm_refused(live, bob)
    faults = world.env.backend.faults
    faults[:] = [f for f in faults if str(f["path"]) != posts]
    assert _notices(world, live) == 0
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    assert restored.dm_refused[bob]
    # Told at the seat's next delivery, once.
    await play_out(world, restored, moves=4)
    await flush(world)
    assert _notices(world, restored) == 1
    await _next_hand(world, restored)
    assert _notices(world, restored) == 1


@pytest.mark.usefixtures("server_errors")
async def test_a_notice_that_failed_for_now_is_told_by_another_copy_that_finds_the_refusal(
        world: World) -> None:
    """review66: the copy that saved the refusal could not post its notice (a 5xx) and lost
    the match to another process, whose copy (read before the refusal was saved) took the DMs
    for open: its panel refused, it found the refusal saved already and said nothing, taking
    it for told. Nobody told Bob."""
    live, bob, svc, posts = await _closed_as_the_channel_fails(world)
    with pytest.raises(discord.DiscordServerError):
        await svc.delivery.dm_refused(live, bob)
    faults = world.env.backend.faults
    faults[:] = [f for f in faults if str(f["path"]) != posts]
    dm = world.bob.user.dm_channel
    world.env.inject_error("PATCH", f"/channels/{dm.id}/messages/*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    # As the other process's copy has it: DMs taken for open, nothing owed.
    paid(live, bob)
    live.dm_refused[bob] = False
    await _next_hand(world, live)
    assert live.dm_refused[bob] and _notices(world, live) == 1


@pytest.mark.usefixtures("server_errors")
async def test_a_notice_that_failed_for_now_as_the_database_did_is_told_by_its_copy(
        world: World, db_path: Path) -> None:
    """review66: the notice claimed (saved as told) and its post failing for now, its claim
    could not be given back (the database failing too): the copy that holds it posts it at the
    seat's next delivery, as before the claim existed, rather than find it claimed."""
    live, bob, svc, posts = await _closed_as_the_channel_fails(world)
    with sqlite3.connect(db_path) as db:
        db.execute(
            f"CREATE TRIGGER owe_fails BEFORE UPDATE OF dm_refused{bob} ON matches "
            f"WHEN OLD.dm_refused{bob} = 1 AND NEW.dm_refused{bob} = 2 "
            "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
    with pytest.raises(discord.DiscordServerError):
        await svc.delivery.dm_refused(live, bob)
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TRIGGER owe_fails")
    faults = world.env.backend.faults
    faults[:] = [f for f in faults if str(f["path"]) != posts]
    assert _saved_refused(db_path, live)[bob] == 1 and _notices(world, live) == 0
    await play_out(world, live, moves=4)
    await flush(world)
    assert _notices(world, live) == 1
    await _next_hand(world, live)
    assert _notices(world, live) == 1
