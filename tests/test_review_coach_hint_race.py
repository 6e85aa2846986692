"""The Hint button racing the player's own move: the move lands while the hint is being
asked for (after the checks, before the search). The player is told the match moved on, not
that the coach failed, and nothing is logged as a failure."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

from cogs.umtali import coach_hint, in_time
from tests.discord_helpers import World
from tests.test_discord_coach import _dm_panel, _practice, _said, _warm
from umtali.players import GreedyPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)


async def test_a_hint_whose_turn_ends_meanwhile_says_the_match_moved_on(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live = await _practice(world)
    svc = world.bot.matches
    assert svc is not None
    await _warm(world)
    # The computer does not play: its turn lasts while the hint is worked out.
    monkeypatch.setattr(svc.computers, "next", lambda live: None)
    assert live.session.to_act == 0
    panel = _dm_panel(world, live, 0)
    real_defer = in_time.defer

    async def defer_as_the_turn_ends(interaction: discord.Interaction, *args: Any,
                                     **kwargs: Any) -> None:
        # The player's moves, clicked a moment before, are saved while the hint is deferred.
        while live.session.to_act == 0:
            move = GreedyPlayer().choose(live.session.view(0))
            assert (await svc.act(live, world.alice.id, move, live.version)).ok
        await real_defer(interaction, *args, **kwargs)

    monkeypatch.setattr(coach_hint, "defer", defer_as_the_turn_ends)
    caplog.set_level(logging.WARNING, logger="cogs.umtali.coach")
    answer = await world.alice.user.click(panel, custom_id=f"umtali:m:{live.id}:hint")
    said = _said(answer)
    assert answer.ephemeral and "moved on" in said, said
    assert not [r for r in caplog.records
                if r.name in ("cogs.umtali.coach", "cogs.umtali.coach_delivery")], caplog.text
