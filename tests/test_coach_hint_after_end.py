"""The Hint button racing the end of the session: the player resigns (or the clock ends the
session) while the hint is being asked for, after the checks. Resigning plays no move, so the
match's version does not change: the hint must still see that the match is over and give no
advice for a session that has ended."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.umtali import coach_hint, in_time
from tests.discord_helpers import World
from tests.test_discord_coach import _dm_panel, _practice, _said, _warm

pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.mark.parametrize("how", ["resigned", "abandoned"])
async def test_a_hint_whose_session_ends_meanwhile_gives_no_advice(
        world: World, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    live = await _practice(world)
    svc = world.bot.matches
    assert svc is not None
    await _warm(world)
    assert live.session.to_act == 0
    panel = _dm_panel(world, live, 0)
    version = live.version
    real_defer = in_time.defer

    async def defer_as_the_session_ends(interaction: discord.Interaction, *args: Any,
                                        **kwargs: Any) -> None:
        # The player's resignation (or the clock's ending) is saved while the hint is deferred.
        if how == "resigned":
            assert await svc.resign(live, 0)
        else:
            assert await svc.abandon(live, how)
        await real_defer(interaction, *args, **kwargs)

    monkeypatch.setattr(coach_hint, "defer", defer_as_the_session_ends)
    answer = await world.alice.user.click(panel, custom_id=f"umtali:m:{live.id}:hint")
    said = _said(answer)
    assert live.over and live.version == version
    assert answer.ephemeral and "Hint:" not in said and "over" in said, said
