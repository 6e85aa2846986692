"""A match's first posts failing (Discord's 5xx, the database): the match is cancelled cleanly,
and no clock ever runs against a player who was never shown the table."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord.http.client as simcord_http

from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import BUSY
from cogs.umtali.timing import NEVER_SHOWN
from tests.discord_helpers import World, challenge, custom_ids, cut, flush, submit_cut
from umtali.i18n import EN


@pytest.fixture
def server_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 5xx reaches the bot as discord.py raises it once its own retries are spent: a
    DiscordServerError (SimCord raises a plain HTTPException)."""
    plain = simcord_http._raise_for

    def raise_for(error: Any) -> None:
        if error.status >= 500:
            raise discord.DiscordServerError(simcord_http._FakeResponse(error.status),
                                             error.to_json())
        plain(error)

    monkeypatch.setattr(simcord_http, "_raise_for", raise_for)


def _db(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute(sql).fetchall()


def _cancelled_cleanly(db_path: Path) -> None:
    assert _db(db_path, "SELECT status, how FROM matches") == [("finished", "cancelled")]
    assert _db(db_path, "SELECT COUNT(*) FROM active_players") == [(0,)]
    assert _db(db_path, "SELECT COUNT(*) FROM session_results") == [(0,)]


def _apologies(result: Any) -> list[str]:
    return [str(f.content) for f in result.followups if "went wrong" in str(f.content)]


def _told_to_look_again(result: Any) -> list[str]:
    """The answers telling the member the database failed (no bug: ``failing_for_now``)."""
    return [str(f.content) for f in result.followups
            if BUSY[:40] in str(f.content)]


async def _accept(world: World, **options: Any) -> tuple[Any, Any]:
    """ada challenges ben, who accepts: the challenge and the answer to his click."""
    result = await challenge(world, world.alice, world.bob, **options)
    accept = next(c for c in custom_ids(result.response) if c.endswith(":accept"))
    return result, await submit_cut(world.bob,
        await world.bob.click(result.response, custom_id=accept))


def _dms(world: World) -> list[str]:
    """What ada and ben were sent by DM."""
    return [str(m.content) for member in (world.alice, world.bob)
            if member.user.dm_channel is not None for m in member.user.dm_channel.history()]


def _challenge_text(world: World, result: Any) -> str:
    message = next(m for m in world.channel.history() if m.id == result.response.id)
    return str(message.embeds[0].description or "")


async def test_a_5xx_on_the_first_posts_cancels_the_match_and_runs_no_clock(
        world: World, db_path: Path, server_errors: None) -> None:
    world.env.inject_error("POST", "/channels/*/messages", status=503, times=None)
    result, answer = await _accept(world, turn_timer=60)
    world.env.backend.faults.clear()
    await flush(world)
    assert answer.acknowledged and not _apologies(answer)
    svc = world.bot.matches
    assert svc is not None and svc.matches == {} and not svc.tracked(1)
    assert "could not start" in _challenge_text(world, result)
    _cancelled_cleanly(db_path)
    # Nobody forfeits anything later, and nobody got a hand.
    await svc.check_timers(now=world.clock.now + 3600)
    await flush(world)
    _cancelled_cleanly(db_path)
    assert not _dms(world)
    # Both are free to play again.
    again = await challenge(world, world.bob, world.alice)
    assert not again.ephemeral


async def test_a_5xx_on_a_practice_sessions_first_posts_cancels_it(
        world: World, db_path: Path, server_errors: None) -> None:
    offered = await world.alice.slash(world.channel, "umtali practice")
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    result = await cut(world, offered)
    world.env.backend.faults.clear()
    await flush(world)
    assert result.acknowledged and not _apologies(result)
    svc = world.bot.matches
    assert svc is not None and svc.matches == {}
    _cancelled_cleanly(db_path)


async def test_a_failed_save_of_the_table_cancels_the_match(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None

    async def locked(match_id: int, message_id: int) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "set_table_message", locked)
    result, answer = await _accept(world, turn_timer=60)
    await flush(world)
    assert answer.acknowledged and not _apologies(answer)
    assert "could not start" in _challenge_text(world, result)
    _cancelled_cleanly(db_path)
    assert svc.matches == {}
    # No hand went out for a match that is not on.
    assert not _dms(world)
    # Nor does a table stay up for it, with its button, nor the opening that named a turn.
    shown = [m for c in (world.channel, *world.channel.threads) for m in c.history()]
    assert not any(custom_ids(m) and any(i.endswith(":hand") for i in custom_ids(m))
                   for m in shown)
    assert not any("Game 1, hand 1" in str(m.content) for m in shown)


async def test_a_match_whose_cancelling_failed_too_is_cancelled_at_its_deadline(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, server_errors: None) -> None:
    """The first posts fail and so does the database when cancelling: the user is told to
    look again; at the first deadline the match is cancelled, not forfeited."""
    svc = world.bot.matches
    assert svc is not None
    abandon = svc.store.abandon_match
    calls = []

    async def fails_once(match_id: int, how: str, now: float | None = None,
                         **holder: Any) -> list[str] | None:
        calls.append(how)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return await abandon(match_id, how, now, **holder)

    monkeypatch.setattr(svc.store, "abandon_match", fails_once)
    world.env.inject_error("POST", "/channels/*/messages", status=502, times=1)
    _, answer = await _accept(world, turn_timer=60)
    await flush(world)
    # The database failing is no bug: a warning, and the member told to look again.
    assert _told_to_look_again(answer) and not _apologies(answer)
    live = svc.matches[1]
    assert live.table_message_id is None and not live.over
    assert _db(db_path, "SELECT status, table_message_id FROM matches") == [("active", None)]
    assert live.deadline is not None
    # Nobody is warned of a turn in a match they were never shown ...
    await svc.check_timers(now=live.deadline - 1)
    await flush(world)
    assert not live.over and not live.warned
    # ... and at its deadline it is cancelled.
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.abandoned and not live.session.over
    _cancelled_cleanly(db_path)
    said = [m.content for t in [world.channel, *world.channel.threads] for m in t.history()]
    mentions = f"<@{world.alice.user.id}> <@{world.bob.user.id}>"
    assert EN(NEVER_SHOWN, mentions=mentions) in said
    assert not [t for t in said if "timed out" in t]
    assert not [r for r in caplog.records
                if r.levelno >= logging.ERROR and "unhandled" not in r.getMessage()]


@pytest.mark.parametrize("practice", [False, True])
async def test_a_thread_whose_save_fails_is_not_played_in(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, practice: bool) -> None:
    svc = world.bot.matches
    assert svc is not None

    async def locked(match_id: int, channel_id: int) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "set_match_channel", locked)
    if practice:
        offered = await world.alice.slash(world.channel, "umtali practice")
        result = await cut(world, offered)
        assert result.acknowledged and not _apologies(result)
    else:
        _, answer = await _accept(world)
        assert answer.acknowledged and not _apologies(answer)
    await flush(world)
    [live] = svc.matches.values()
    # Played where the database has it: the channel, table and all.
    assert live.channel_id == world.channel.id
    assert _db(db_path, "SELECT channel_id FROM matches") == [(world.channel.id,)]
    assert any(m.id == live.table_message_id for m in world.channel.history())
    # And the thread made for it is taken down, not left empty beside the table.
    assert world.channel.threads == []


async def test_a_thread_saved_though_its_save_failed_is_played_in(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save of the thread commits, and then its answer is lost: the match is played in
    the thread the database names (not deleted under it), as after a restart."""
    svc = world.bot.matches
    assert svc is not None
    save = svc.store.set_match_channel

    async def lost_answer(match_id: int, channel_id: int) -> None:
        await save(match_id, channel_id)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(svc.store, "set_match_channel", lost_answer)
    _, answer = await _accept(world)
    assert answer.acknowledged and not _apologies(answer)
    await flush(world)
    [live] = svc.matches.values()
    [thread] = world.channel.threads
    assert live.channel_id == thread.id
    assert _db(db_path, "SELECT channel_id FROM matches") == [(thread.id,)]
    assert any(m.id == live.table_message_id for m in thread.history())
