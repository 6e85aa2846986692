"""A bug of ours (here the database refusing every write, SQLite's ``query_only``: a read-only
disk) is logged as "unhandled error in an interaction" with its traceback. The traceback shows
the code, not where it happened: the admin could not tell which server, channel, command or
button to look at, nor whom to ask. The line names them, and never what the player chose (a
move typed or clicked names cards of their hand)."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World, flush, player, start_match, thread_of
from umtali.players import GreedyPlayer


def _the_error(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    error.expected = True  # (the conftest fails a test that logs an error: this one must)
    return error


async def test_a_command_failing_on_a_bug_is_logged_with_where_and_what(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    thread = thread_of(world, live)
    await svc.store.db.conn.execute("PRAGMA query_only = ON")
    try:
        refused = await player(world, seat).slash(thread, "umtali play", move=str(move))
    finally:
        await svc.store.db.conn.execute("PRAGMA query_only = OFF")
    assert refused.acknowledged and refused.ephemeral
    [raised] = world.env.errors  # (SimCord's own record of it, taken as meant)
    assert "readonly" in str(raised.__cause__ or raised)
    said = _the_error(caplog).getMessage()
    assert "/umtali play" in said, said
    assert str(thread.id) in said and str(world.guild.id) in said, said
    assert str(move) not in said, said


async def test_a_click_failing_on_a_bug_is_logged_with_where_and_what(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    ask = await world.alice.slash(world.channel, "umtali resign")
    await svc.store.db.conn.execute("PRAGMA query_only = ON")
    try:
        failed = await world.alice.click(
            ask.response, custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    finally:
        await svc.store.db.conn.execute("PRAGMA query_only = OFF")
    assert failed.acknowledged
    await flush(world)
    said = _the_error(caplog).getMessage()
    assert f"umtali:m:{live.id}:{live.version}:loss" in said, said
    assert str(world.channel.id) in said and str(world.guild.id) in said, said
