"""The bot removed from a server with two timed matches there: a turn's timer firing while the
removal is under way (ending the first match, or telling its players by DM) forfeits nothing.
A forfeit would rate a session of a server that removed the bot, and post there."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.removal import Removals
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, accept, challenge, flush, start_match


async def _two_timed_matches(world: World) -> tuple[MatchService, float]:
    """Two matches with a turn timer on the server; the second's deadline."""
    svc = world.bot.matches
    assert svc is not None
    first = await start_match(world, turn_timer=5)
    dee = world.guild.add_member(world.env.create_user("dee"))
    result = await challenge(world, world.carol, dee, turn_timer=5)
    assert (await accept(dee, result.response)).acknowledged
    await flush(world)
    [second] = [m for m in svc.matches.values() if m.id != first.id]
    assert second.deadline is not None
    return svc, second.deadline


def _results(db_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db_path) as c:
        return c.execute("SELECT match_id, how FROM session_results").fetchall()


async def _removed(world: World) -> None:
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    await flush(world)


@pytest.mark.parametrize("at", ["telling", "ending"])
async def test_a_timer_firing_during_the_removal_rates_nothing(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, at: str) -> None:
    svc, deadline = await _two_timed_matches(world)
    fired: list[int] = []

    async def check() -> None:
        if not fired:
            fired.append(1)
            await svc.check_timers(now=deadline + LATE + 1)

    if at == "telling":
        real_tell = Removals._tell

        async def telling(self: Removals, live: Any, server: str | None) -> None:
            await check()
            await real_tell(self, live, server)

        monkeypatch.setattr(Removals, "_tell", telling)
    else:
        real_abandon = MatchService.abandon

        async def abandon(self: MatchService, live: LiveMatch, *args: Any,
                          **kwargs: Any) -> bool:
            await check()  # before the first match is ended, the second still in play
            return await real_abandon(self, live, *args, **kwargs)

        monkeypatch.setattr(MatchService, "abandon", abandon)
    await _removed(world)
    assert fired
    assert _results(db_path) == []
    with sqlite3.connect(db_path) as c:
        assert c.execute("SELECT status, how FROM matches").fetchall() == [
            ("finished", "abandoned")] * 2
    assert not svc.removals.leaving
