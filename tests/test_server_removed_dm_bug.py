"""The DMs telling the players of a server's matches that the bot's removal ended them are each
their own: a bug telling one player (here the save of their DMs' refusal, which ``to_dms`` lets
through as the caller's) is logged with its traceback, and the other players, of that match
and of the server's other matches, are told all the same; the removal is done (its server no
longer ``leaving``). SimCord, the real discord.py path; the bug put in the refusal's save."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.channel_loss import ChannelLoss
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, cut, flush, start_match
from tests.processes.helpers import main_of


async def test_a_bug_telling_one_player_leaves_the_others_told(
        world: World, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)  # ada (seat 0) against ben
    offered = await world.carol.slash(world.channel, "umtali practice")
    await cut(world, offered, actor=world.carol)
    svc = main_of(world)
    practice = next(m for m in svc.matches.values() if m.id != live.id)
    await flush(world)
    ada_dm = world.alice.user.dm_channel.id
    world.env.inject_error("POST", f"/channels/{ada_dm}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    told = 0  # the refusals found while telling of the removal

    async def broken(self: ChannelLoss, live: LiveMatch, seat: int) -> None:
        nonlocal told
        told += 1
        raise RuntimeError("a bug in the refusal's save")

    monkeypatch.setattr(ChannelLoss, "refusal_saved", broken)
    before = len(world.env.http_requests)
    assert await svc.removals.removed(world.guild.id, "Railway Club")
    await flush(world)
    assert live.over and practice.over and told == 1
    for member in (world.bob, world.carol):
        dm = member.user.dm_channel.id
        assert any(r.method == "POST" and r.path == f"/channels/{dm}/messages"
                   and "removed from the server" in str(r.json)
                   for r in world.env.http_requests[before:]), member
    assert world.guild.id not in svc.removals.leaving
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None, errors
    assert "a bug in the refusal's save" in str(errors[0].exc_info[1])
    errors[0].expected = True  # the bug, logged as meant
