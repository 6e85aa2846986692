"""Server settings on Discord around seasons: two managers changing different settings at once
both keep theirs; a change of cadence says what becomes of the season in play; the season tick
counts a result left uncounted."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from cogs.umtali.season_summaries import season_tick
from data import records
from data.db import Tx
from data.models import PlayerStats
from data.store import Store
from tests.discord_helpers import World, manager, start_match
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_records_discord import resign
from tests.test_seasons_discord import DECEMBER, _content


def writes_server_settings() -> bool:
    """The transaction being begun is the one that writes a server's settings."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name in ("change_guild_settings", "save_guild_settings"):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def _store(world: World) -> Store:
    assert world.bot.matches is not None
    return world.bot.matches.store


async def test_two_managers_changing_different_settings_at_once_keep_both(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        assert bot.matches is not None
        db = bot.matches.store.db
        real = db.transaction
        writing, go = asyncio.Event(), asyncio.Event()

        @asynccontextmanager
        async def held_back() -> AsyncIterator[Tx]:
            # The boss's command is about to write: it waits while the deputy's runs whole.
            if not writing.is_set() and writes_server_settings():
                writing.set()
                await go.wait()
            async with real() as tx:
                yield tx

        monkeypatch.setattr(db, "transaction", held_back)
        boss, deputy = server.add_member("boss"), server.add_member("deputy")
        boss_asks = asyncio.create_task(server.slash(boss, server.channel_id,
                                                     "umtali-admin settings", {"threads": False}))
        await asyncio.wait_for(writing.wait(), 10)
        theirs = await server.slash(deputy, server.channel_id, "umtali-admin settings",
                                    {"seasons": "monthly"})
        go.set()
        mine = await boss_asks
        monkeypatch.setattr(db, "transaction", real)
        assert "- Seasons: monthly" in theirs.text()
        assert "- Threads: off" in mine.text()
        kept = await bot.matches.store.guild_settings(server.guild_id)
        assert (kept.threads, kept.seasons) == (False, "monthly")
        # The reply tells the settings as they are now, the other manager's change included.
        assert "- Seasons: monthly" in mine.text()


async def test_a_change_of_cadence_says_the_season_in_play_runs_to_its_end(
        world: World) -> None:
    boss = manager(world)
    world.clock.now = DECEMBER
    await boss.slash(world.channel, "umtali-admin settings", seasons="monthly")
    await resign(world, world.alice, await start_match(world))
    quarterly = await boss.slash(world.channel, "umtali-admin settings", seasons="quarterly")
    assert ("The December 2026 season runs to its usual end; the new cadence starts with the "
            "next season.") in _content(quarterly)
    again = await boss.slash(world.channel, "umtali-admin settings", seasons="monthly")
    assert "runs to its usual end" not in _content(again)
    off = await boss.slash(world.channel, "umtali-admin settings", seasons="off")
    # No channel for summaries was ever set: none is promised (review110).
    assert ("The December 2026 season still ends at its usual time, with no summary posted (no "
            "channel I can post it in); no new season follows.") in _content(off)
    other = await boss.slash(world.channel, "umtali-admin settings", threads=False)
    assert "The December 2026 season" not in _content(other)


async def test_seasons_turned_off_with_a_channel_promise_its_summary_and_show_the_channel(
        world: World) -> None:
    """With a channel for the summaries, the season in play ends with its summary; seasons
    off, the settings still show that channel, kept for when they are turned on again, and
    the settings as they are say seasons are off (review110: said nothing of them)."""
    boss = manager(world)
    world.clock.now = DECEMBER
    await boss.slash(world.channel, "umtali-admin settings", seasons="monthly",
                     season_channel=world.channel)
    await resign(world, world.alice, await start_match(world))
    off = await boss.slash(world.channel, "umtali-admin settings", seasons="off")
    assert ("The December 2026 season still ends at its usual time, with its summary; no new "
            "season follows.") in _content(off)
    assert f"<#{world.channel.id}>" in _content(off)
    shown = await boss.slash(world.channel, "umtali-admin settings")
    assert "- Seasons: off" in _content(shown) and f"<#{world.channel.id}>" in _content(shown)
    cleared = await boss.slash(world.channel, "umtali-admin settings",
                               clear_season_channel=True)
    # (December, still in play, now ends with no summary: fix130 says so)
    assert ("- Seasons: off after the December 2026 season\n- Season summaries: not posted "
            "(no channel set)" in _content(cleared)), _content(cleared)
    assert f"<#{world.channel.id}>" not in _content(cleared)


async def test_the_season_tick_counts_a_result_left_uncounted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    monkeypatch.setattr(records, "seat_stats", broken)
    await resign(world, world.alice, await start_match(world))
    monkeypatch.undo()
    store = _store(world)
    assert (await store.records.record(world.guild.id, world.bob.id)).rated.sessions == 0
    await season_tick(world.bot)
    assert (await store.records.record(world.guild.id, world.bob.id)).rated.sessions == 1
