"""The Hint button of a panel from an earlier turn (a "My hand" panel Discord no longer lets the
bot refresh, past its fifteen minutes): the hint is for the position the panel shows, so the
player is told that panel is out of date rather than handed a move for cards it does not show."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.play_panel import HintButton, MoveButton
from tests.discord_helpers import World, flush, play
from tests.test_discord_coach import _dm_panel, _practice, _said, _warm
from umtali.i18n import tr_for
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)


async def _old_panel(world: World, live: LiveMatch, version: int) -> Any:
    """A panel of the bot's in ada's DM, as her hand's panel was at ``version``."""
    channel = await world.bot.create_dm(world.alice.user)
    view = discord.ui.View(timeout=None)
    view.add_item(MoveButton(live.id, version, "draw", "Draw"))
    view.add_item(HintButton(live.id))
    await channel.send("an old panel", view=view)
    await world.env.settle()
    return world.alice.user.dm_channel.last_message


async def _next_turn(world: World, live: LiveMatch) -> None:
    """ada plays her turn out (to her discard); the computer plays its own."""
    while True:
        move = GreedyPlayer().choose(live.session.view(0))
        await play(world, live, move)
        await flush(world)
        if move.kind is MoveKind.DISCARD:
            break
    assert live.session.to_act == 0 and not live.session.hand_log


async def test_a_hint_from_a_panel_of_an_earlier_turn_says_it_is_out_of_date(
        world: World, locales: dict[int, str]) -> None:
    live = await _practice(world)
    await _warm(world)
    asked_on = live.version
    old = await _old_panel(world, live, asked_on)
    await _next_turn(world, live)
    version = live.version
    answer = await world.alice.user.click(old, custom_id=f"umtali:m:{live.id}:hint")
    said = _said(answer)
    assert answer.ephemeral and "out of date" in said and "Hint:" not in said, said
    locales[world.alice.id] = "ru"
    answer = await world.alice.user.click(old, custom_id=f"umtali:m:{live.id}:hint")
    assert tr_for("ru")(STALE) in _said(answer)
    assert live.version == version
    # The panel as it is now gives its hint.
    locales[world.alice.id] = "en-US"
    now = await world.alice.user.click(_dm_panel(world, live, 0),
                                       custom_id=f"umtali:m:{live.id}:hint")
    assert "Hint:" in _said(now)
    # So does a panel of this very turn.
    current = await _old_panel(world, live, live.version)
    again = await world.alice.user.click(current, custom_id=f"umtali:m:{live.id}:hint")
    assert "Hint:" in _said(again)


STALE = "That panel is out of date: ask for a hint on your hand as it is now."
