"""The database refusing every write for a while (a read-only or full disk: SQLite's
``query_only`` here, the same refusal to write): a move is answered, nothing of it is in memory
or on the table, the clock's tick goes on with a warning, stats are still read; once writes are
taken again, the same move is played."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.discord_helpers import World, flush, player, start_match, thread_of
from umtali.players import GreedyPlayer


async def test_a_database_refusing_writes_loses_no_move_and_is_used_again(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=30)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    db = svc.store.db
    seat, version = live.session.to_act, live.version
    move = GreedyPlayer().choose(live.session.view(seat))
    actor = player(world, seat)
    await db.conn.execute("PRAGMA query_only = ON")
    refused = await actor.slash(thread_of(world, live), "umtali play", move=str(move))
    assert refused.acknowledged and refused.ephemeral
    assert refused.response is not None
    assert "Nothing of your match was lost" in str(refused.response.content)
    # Logged once, as an error of the command (whoever runs the bot must hear of it).
    [error] = world.env.errors
    assert "readonly" in str(error.__cause__ or error)
    assert live.version == version and live.session.to_act == seat
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.version == version
    caplog.clear()
    await svc.check_timers(world.clock.now + 6)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    stats = await world.carol.slash(world.channel, "umtali stats", member=world.alice.user)
    assert stats.acknowledged and stats.response is not None and stats.response.embeds
    await db.conn.execute("PRAGMA query_only = OFF")
    played = await actor.slash(thread_of(world, live), "umtali play", move=str(move))
    assert played.acknowledged
    assert live.version == version + 1
    saved = await svc.store.match(live.id)
    assert saved is not None and saved.version == version + 1
