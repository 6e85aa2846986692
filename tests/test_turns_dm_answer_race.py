"""A turn ended on the DM panel while its answer is still being drawn (a picture, a busy
machine): the turn's delivery runs meanwhile, and must leave the mover's panel to the answer
rather than edit it a second time (Discord hears of a turn once: three calls)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.showing import Shown
from tests.discord_helpers import (
    World,
    custom_ids,
    end_turn_on_dm,
    flush,
    player,
    start_match,
)


async def test_the_turns_delivery_leaves_the_movers_panel_to_a_slow_answer(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, variant="russian")
    seat = live.session.to_act
    actor, other = player(world, seat), player(world, 1 - seat)
    svc = world.bot.matches
    assert svc is not None
    await flush(world)
    # Every DM panel takes a while to draw; the table does not.
    real_panel = svc.dm_panel

    def slow_panel(*args: Any, **kwargs: Any) -> Shown:
        shown = real_panel(*args, **kwargs)
        draw = shown.drawn

        async def drawn() -> Shown:
            await asyncio.sleep(0.3)
            return await draw()
        shown.drawn = drawn  # type: ignore[method-assign]
        return shown
    monkeypatch.setattr(svc, "dm_panel", slow_panel)
    dm = actor.user.dm_channel.last_message
    assert (await actor.user.click(dm, custom_id=f"umtali:m:{live.id}:0:draw")).acknowledged
    await flush(world)
    before = len(world.env.http_requests)
    await end_turn_on_dm(world, live, seat)
    await flush(world)
    await asyncio.sleep(0.5)
    calls = sorted((r.method, r.path) for r in world.env.http_requests[before:]
                   if not r.path.startswith("/interactions"))
    thread, table = live.channel_id, live.table_message_id
    assert calls == sorted([
        ("POST", f"/channels/{thread}/messages"),
        ("PATCH", f"/channels/{thread}/messages/{table}"),
        ("PATCH", f"/channels/{other.user.dm_channel.id}/messages/{live.dm_message_ids[1 - seat]}"),
    ]), calls
    # The mover's panel shows the turn's end all the same: nothing left to play.
    assert custom_ids(actor.user.dm_channel.last_message) == [f"umtali:m:{live.id}:order"]
