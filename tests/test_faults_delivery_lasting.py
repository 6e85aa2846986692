"""Delivery against a failure that lasts an hour (the network to one channel or one player's DMs,
the database): tried again with a growing pause, then no more, the match going on where it can
be seen, or let go to be claimed again from the database (``cogs/umtali/delivery.py``): neither
lost nor held up, and no flood of errors in the log."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
import simcord.http.client as simcord_http

from cogs.umtali.claims import LEASE
from cogs.umtali.in_dms import CHANNEL_LOST
from tests.discord_helpers import World, custom_ids, flush, play, start_match, thread_of
from tests.slow_retries import slow_retries  # noqa: F401 (an autouse fixture)
from tests.test_faults_channel import _calls_to, _db, _play_from_dms
from umtali.players import GreedyPlayer

#: The status an injected fault uses to stand for the network failing (no answer at all).
NETWORK = 599



@pytest.fixture
def network_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault of status ``NETWORK`` reaches the bot as the network failing does, once
    discord.py's own retries are spent: an aiohttp error that is an OSError too."""
    plain = simcord_http._raise_for

    def raise_for(error: Any) -> None:
        if error.status == NETWORK:
            raise aiohttp.ClientOSError(104, "Connection reset by peer")
        plain(error)

    monkeypatch.setattr(simcord_http, "_raise_for", raise_for)


def _cut_off(world: World, channel_id: int) -> None:
    world.env.inject_error("*", f"/channels/{channel_id}/*", status=NETWORK, times=None)


async def _hours(world: World, until: Any, hours: float = 2) -> float:
    """Moves time on two minutes at a time (the longest pause between tries) until ``until()``
    or ``hours`` have passed; the minutes it took."""
    minutes = 0.0
    while not until() and minutes < hours * 60:
        await world.env.advance_time(121)
        await flush(world)
        minutes += 121 / 60
    return minutes


#: The delivery's loggers: its sending and retries, and its channel lost.
LOGGERS = ("cogs.umtali.delivery", "cogs.umtali.channel_loss")


def _logged(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name in LOGGERS and r.levelno == level]


@pytest.mark.usefixtures("network_errors")
async def test_a_channel_the_network_never_reaches_is_given_up_and_the_match_goes_on_in_dms(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    for name in LOGGERS:
        caplog.set_level(logging.INFO, logger=name)
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    _cut_off(world, thread.id)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert not live.channel_lost and live.unsent
    # Tried again and again, for about an hour, then given up as if the channel refused.
    minutes = await _hours(world, lambda: live.channel_lost)
    assert live.channel_lost and 40 < minutes < 80, minutes
    assert not live.over and live.unsent == []
    for member in (world.alice, world.bob):
        last = member.user.dm_channel.last_message
        assert any(CHANNEL_LOST in (e.description or "") for e in last.embeds)
    # Nothing more is tried there, however long it waits ...
    lost_at = len(world.env.http_requests)
    await world.env.advance_time(3600)
    await flush(world)
    assert _calls_to(world, thread.id, lost_at) == 0 and not svc.delivery._retrying
    # ... and the match plays on from the DMs, and once over is kept no more.
    for _ in range(3):
        await _play_from_dms(world, live, GreedyPlayer().choose(
            live.session.view(live.session.to_act)))
    assert await svc.resign(live, live.session.to_act)
    await flush(world)
    assert live.over and not live.abandoned and not svc.tracked(live.id)
    assert _calls_to(world, thread.id, lost_at) == 0
    # One warning when it first failed, one when given up: no flood, and no error.
    assert _logged(caplog, logging.ERROR) == []
    assert len(_logged(caplog, logging.WARNING)) == 2, _logged(caplog, logging.WARNING)


@pytest.mark.usefixtures("network_errors")
async def test_dms_the_network_never_reaches_wait_for_the_next_turn_and_the_match_goes_on(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    for name in LOGGERS:
        caplog.set_level(logging.INFO, logger=name)
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    waiting = 1 - live.session.to_act
    dm = (world.alice, world.bob)[waiting].user.dm_channel.id
    _cut_off(world, dm)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert svc.delivery._retrying
    # Given up after about an hour; the DMs are not taken as closed, the channel not lost.
    minutes = await _hours(world, lambda: not svc.delivery._retrying)
    assert not svc.delivery._retrying and 40 < minutes < 80, minutes
    assert live.dm_refused == [False, False] and not live.channel_lost and not live.over
    before = len(world.env.http_requests)
    await world.env.advance_time(3600)
    await flush(world)
    assert _calls_to(world, dm, before) == 0
    # The network comes back: the next move's delivery brings that player's DM panel up to
    # date (they play meanwhile with /umtali play, or the table's My hand button).
    world.env.backend.faults.clear()
    member = (world.alice, world.bob)[waiting]
    assert live.session.to_act == waiting and live.dm_shown[waiting] != live.version
    move = GreedyPlayer().choose(live.session.view(waiting))
    assert (await member.slash(world.channel, "umtali play", move=str(move))).acknowledged
    await flush(world)
    assert live.dm_shown[waiting] == live.version and _calls_to(world, dm, before) > 0
    assert _logged(caplog, logging.ERROR) == []
    assert len(_logged(caplog, logging.WARNING)) == 2, _logged(caplog, logging.WARNING)


async def _disk_failing() -> None:
    raise sqlite3.OperationalError("disk I/O error")


async def _postgres_out_of_reach() -> None:
    """What the pool raises for a PostgreSQL server that refuses connections (restarting):
    the system's error, raised in asyncpg (an OSError, as the network to Discord raises)."""
    await asyncpg.connect(host="127.0.0.1", port=1, timeout=5)


@pytest.mark.parametrize("failing", [_disk_failing, _postgres_out_of_reach])
async def test_a_database_failing_for_an_hour_lets_the_match_go_to_be_claimed_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, failing: Callable[[], Awaitable[None]]) -> None:
    """The database's failure is not the channel's (PostgreSQL out of reach raises an
    OSError, as the network does): counted as the channel's, the channel was given up after
    an hour and the match sent to the players' DMs."""
    for name in LOGGERS:
        caplog.set_level(logging.INFO, logger=name)
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    leases = svc.owners.leases
    outbox = leases.outbox

    async def broken(match_id: int) -> Any:
        await failing()

    # The result cannot be read back to be posted: the database fails, and goes on failing.
    monkeypatch.setattr(leases, "outbox", broken)
    # ada resigns (by the bot's buttons: the retries are the bot's own timers).
    ask = await world.alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    assert (await world.alice.click(ask.response, custom_id=yes)).acknowledged
    await flush(world)
    assert live.over and live.unsent
    minutes = await _hours(world, lambda: not svc.tracked(live.id))
    assert not svc.tracked(live.id) and 40 < minutes < 80, minutes
    assert not live.channel_lost, "the channel given up for the database's failures"
    # Not lost: the database still has it to post. Once it answers, the match is claimed
    # again (its lease lapsed) and its result posted.
    assert _db(db_path, "SELECT unsent FROM matches") != [("[]",)]
    monkeypatch.setattr(leases, "outbox", outbox)
    world.clock.advance(LEASE + 1)
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    posted = [m.content for m in thread_of(world, live).history()]
    assert [t for t in posted if "resigned" in t]
    assert _db(db_path, "SELECT unsent FROM matches") == [("[]",)]
    assert not svc.tracked(live.id)
    # One warning when it first failed, an error at the 8th try and one when let go.
    assert len(_logged(caplog, logging.ERROR)) == 2, _logged(caplog, logging.ERROR)
    assert len(_logged(caplog, logging.WARNING)) == 1, _logged(caplog, logging.WARNING)
    for record in caplog.records:
        if record.name == "cogs.umtali.delivery" and record.levelno == logging.ERROR:
            record.expected = True  # the database failing, as meant


@pytest.mark.usefixtures("network_errors")
async def test_a_match_brought_back_after_its_channel_was_given_up_starts_its_count_anew(
        world: World) -> None:
    """The channel given up after an hour of failures, a player brings the match back to a
    channel with ``/umtali table``: a first failure for now there is tried again, as any
    channel's is; it was given up at once, the hour's count carried over."""
    live = await start_match(world)
    _cut_off(world, thread_of(world, live).id)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    await _hours(world, lambda: live.channel_lost)
    assert live.channel_lost
    # The first edit of the table brought back fails (the network, for a moment).
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/*",
                           status=NETWORK, times=1)
    moved = await world.alice.slash(world.channel, "umtali table")
    assert moved.acknowledged
    await flush(world)
    assert not live.channel_lost and live.channel_id == world.channel.id
    seat = live.session.to_act
    while live.session.to_act == seat:
        await _play_from_dms(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert not live.channel_lost, "given up at its first failure"
    await world.env.advance_time(61)
    await flush(world)
    assert not live.channel_lost and not live.unsent
