"""The whole bot with its store in PostgreSQL (``UMTALI_DATABASE_URL``), over SimCord: a session
challenged, played, carried across a restart and played out, then on the boards and in the
stats; the server's settings and a member's choices kept."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import Settings, UmtaliBot
from data.records import GLOBAL
from tests.discord_helpers import Clock, World, cut, play_out, start_match
from tests.test_records_discord import board_lines, text_of

pytestmark = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


@pytest.fixture
def make_bot(made_bots: list[UmtaliBot], store_target: str,
             clock: Clock) -> Callable[[], UmtaliBot]:
    """As the SQLite one (tests/conftest.py), with the database URL set instead."""
    def make() -> UmtaliBot:
        bot = UmtaliBot(Settings(token="test", database_url=store_target), timers=False,
                        computer_pause=0, clock=clock)
        made_bots.append(bot)
        return bot

    return make


async def test_a_session_is_played_across_a_restart_and_recorded(
        world: World, make_bot: Callable[[], UmtaliBot], store_target: str) -> None:
    assert world.bot.settings.database == store_target
    live = await start_match(world)
    await play_out(world, live, moves=12)
    version = live.version
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    assert restored.version == version and restored.session.moves == live.session.moves
    await play_out(world, restored)
    assert restored.over
    store = new.matches.store
    assert store.db.dialect == "postgresql"
    assert len(await store.moves(live.id)) == len(restored.session.moves)
    winner = restored.session.winner
    names = ("ada", "ben")
    for scope in ("server", "global"):
        first, second = board_lines(await world.carol.slash(world.channel, "umtali leaderboard",
                                                            scope=scope))
        assert f"**{names[winner]}** · " in first and "won 1 of 1" in first
        assert f"**{names[1 - winner]}** · " in second
    stats = text_of(await world.alice.slash(world.channel, "umtali stats"))
    assert ("Sessions: won 1, lost 0" if winner == 0 else "Sessions: won 0, lost 1") in stats
    record = await store.records.record(GLOBAL, world.alice.id)
    assert record.rated.sessions == 1 and record.rating is not None


async def test_a_practice_session_is_kept(world: World) -> None:
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged and not r.ephemeral
    await cut(world, r)
    assert world.bot.matches is not None
    [live] = world.bot.matches.matches.values()
    await play_out(world, live, moves=6)
    saved = await world.bot.matches.store.match(live.id)
    assert saved is not None and saved.computer_level == "easy"
    assert saved.version == live.version
    again = await world.alice.slash(world.channel, "umtali practice")
    assert again.ephemeral, "one match at a time, on PostgreSQL too"
