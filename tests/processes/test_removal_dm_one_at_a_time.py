"""The DM telling a player the bot's removal from the server ended their match goes out as
every new message to a seat's DMs does, one at a time (``refused_here.sending``): sent beside
a reminder (or the final panel the ending draws) to DMs closed meanwhile, both went out before
either refusal was known, two requests Discord refused where one tells the bot (each counts
towards Discord's limit of invalid requests). SimCord, the first answer held up as Discord's
retries hold it."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from cogs.umtali.reminders import _dm
from tests.discord_helpers import World, flush, player, start_match
from tests.processes.helpers import main_of, row


@pytest.mark.parametrize("first", ["reminder", "removal"])
async def test_the_removal_dm_and_a_reminder_to_closed_dms_are_refused_once(
        world: World, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    live = await start_match(world)
    svc = main_of(world)
    await flush(world)
    seat = 1 - live.session.to_act
    member = player(world, seat).user
    dm = member.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    # The first new message to the seat is held up on its way; the second starts meanwhile.
    on_its_way = asyncio.Event()
    real = discord.abc.Messageable.send

    async def slow(self: discord.abc.Messageable, *args: Any, **kwargs: Any) -> Any:
        # (to the member, or to their DM channel known: the reminder's way since fix164)
        if getattr(self, "id", None) in (member.id, dm) and not on_its_way.is_set():
            on_its_way.set()
            await asyncio.sleep(0.3)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", slow)
    before = len(world.env.http_requests)

    async def reminder() -> None:
        assert await _dm(svc, live, seat, "Your turn", "reminder") is False

    async def removal() -> None:
        assert await svc.removals.removed(world.guild.id, "Railway Club")

    one, two = (reminder, removal) if first == "reminder" else (removal, reminder)
    going = asyncio.create_task(one())
    await asyncio.wait_for(on_its_way.wait(), 5)
    await two()
    await going
    await flush(world)
    assert live.over
    posts = [r.path for r in world.env.http_requests[before:]
             if r.method == "POST" and r.path.startswith(f"/channels/{dm}/")]
    assert len(posts) == 1, posts
    assert live.dm_refused[seat] and (await row(world, live.id))[f"dm_refused{seat}"]
    # The other player, whose DMs are open, is told of the removal.
    other_dm = player(world, 1 - seat).user.dm_channel.id
    assert any(r.method == "POST" and r.path == f"/channels/{other_dm}/messages"
               and "removed from the server" in str(r.json)
               for r in world.env.http_requests[before:])
