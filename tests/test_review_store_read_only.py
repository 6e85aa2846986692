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


async def test_a_resignation_whose_save_failed_is_recorded_once_when_made_again(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    db = svc.store.db
    ask = await world.alice.slash(world.channel, "umtali resign")
    await db.conn.execute("PRAGMA query_only = ON")
    failed = await world.alice.click(ask.response,
                                     custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert failed.acknowledged
    await flush(world)
    # Logged once, at ERROR (whoever runs the bot must hear of it), and the player told.
    [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.exc_info is not None and "readonly" in str(error.exc_info[1])
    error.expected = True
    assert not live.over
    assert await svc.store.records.session(live.id) is None
    await db.conn.execute("PRAGMA query_only = OFF")
    again = await world.alice.slash(world.channel, "umtali resign")
    done = await world.alice.click(again.response,
                                   custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert done.acknowledged
    await flush(world)
    assert live.over and live.session.winner == 1
    line = await svc.store.records.session(live.id)
    assert line is not None and (line.winner_seat, line.how) == (1, "resigned")
    ada = await svc.store.records.record(world.guild.id, world.alice.id)
    ben = await svc.store.records.record(world.guild.id, world.bob.id)
    assert (ada.rated.sessions_lost, ada.rated.forfeits, ben.rated.sessions_won) == (1, 1, 1)
    assert ben.rating is not None and ben.rating.rank == 1
    assert (await svc.store.records.rating_changes(live.id)).keys() == {0, 1}
