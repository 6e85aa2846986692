"""The "your turn" line for a player out of reach (fix147, after fix140 and fix143): gone from
the server, or no longer allowed to see the match's channel, DMs closed.

The line that opens each turn's announcement ("{mention}, your turn."), and the same line in
the notice after downtime (``clock.resume_after_downtime``), pinged them in the channel: a
ping nobody reads. Known away (``out_of_reach.known_away``: what the refused-DMs notice found,
no request to Discord a move), they are named there instead, pinging nobody; one in reach is
pinged as before. SimCord, a real SQLite file."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from cogs.umtali.clock import resume_after_downtime
from cogs.umtali.live import LiveMatch
from cogs.umtali.out_of_reach import ASK_AGAIN, known_away
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, flush, thread_of
from tests.test_refused_dms_departed import _notices
from tests.test_refused_dms_out_of_reach import _count_member_reads, _hide_channel, _moves
from tests.test_refused_dms_out_of_reach_clock import _bob_to_act


def _turn_lines(world: World, live: LiveMatch) -> list[discord.Message]:
    return [m for m in thread_of(world, live).history()
            if m.content.split("\n")[0].endswith(", your turn.")]


async def _bob_to_act_again(world: World, live: LiveMatch) -> None:
    """Alice's turn, then Bob's again: a turn announced after he was found away."""
    bob = live.session.to_act
    for _ in range(40):
        if live.session.to_act != bob:
            break
        await _moves(world, live, 1)
    for _ in range(40):
        if live.session.to_act == bob or live.over:
            break
        await _moves(world, live, 1)
    assert live.session.to_act == bob and not live.over


@pytest.mark.parametrize("out", ["hidden", "left"])
async def test_a_turn_of_a_member_out_of_reach_names_him_without_a_ping(
        world: World, monkeypatch: pytest.MonkeyPatch, out: str) -> None:
    live = await _bob_to_act(world, out)
    bob = live.session.to_act
    assert known_away(live, bob)
    reads = _count_member_reads(world, monkeypatch)
    before = len(_turn_lines(world, live))
    await _bob_to_act_again(world, live)
    lines = _turn_lines(world, live)
    assert len(lines) > before
    last = lines[-1]
    assert last.content.startswith("ben, your turn.\n"), last.content
    assert f"<@{world.bob.id}>" not in last.content
    assert world.bob.id not in [u.id for u in last.mentions]
    assert reads == []  # known from the notice: Discord not asked a move


async def test_a_turn_of_a_member_in_reach_still_pings_him(world: World) -> None:
    live = await _bob_to_act(world, None)
    await _bob_to_act_again(world, live)
    last = _turn_lines(world, live)[-1]
    assert last.content.startswith(f"<@{world.bob.id}>, your turn.\n"), last.content
    assert world.bob.id in [u.id for u in last.mentions]


@pytest.mark.parametrize("out", ["hidden", None])
async def test_the_notice_after_downtime_names_a_member_out_of_reach(
        world: World, out: str | None) -> None:
    live = await _bob_to_act(world, out, turn_timer=10)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    before = len(_turn_lines(world, live))
    await resume_after_downtime(svc, [live], {live.id: world.clock() - 300})
    assert live.unsent
    svc.delivery.enqueue(live, Batch(announce=True))  # as its claim does
    await flush(world)
    lines = _turn_lines(world, live)
    assert len(lines) == before + 1, [m.content for m in lines]
    last = lines[-1]
    if out is None:
        assert last.content.startswith(f"<@{world.bob.id}>, your turn.\n"), last.content
        assert world.bob.id in [u.id for u in last.mentions]
    else:
        assert last.content.startswith("ben, your turn.\n"), last.content
        assert world.bob.id not in [u.id for u in last.mentions]


async def _told_then(world: World, out: str) -> LiveMatch:
    """Bob told of his refused DMs while in reach; then ``out``: he left, or the channel was
    hidden from him."""
    live = await _bob_to_act(world, None, turn_timer=10)
    assert _notices(world, live) != []  # told, in reach
    if out == "hidden":
        _hide_channel(world)
    else:
        world.guild.remove_member(world.bob)
    await world.env.settle()
    return live


@pytest.mark.parametrize("out", ["hidden", "left"])
async def test_a_member_told_in_reach_then_gone_is_named_on_his_turns(
        world: World, monkeypatch: pytest.MonkeyPatch, out: str) -> None:
    """Told once while in reach, then gone: his turn's line named him no more, pinged on
    every turn in a channel he cannot read. The clock's check asks Discord whether he is in
    reach, on his turn, at most every ``ASK_AGAIN`` (never a request a move)."""
    live = await _told_then(world, out)
    svc = world.bot.matches
    assert svc is not None
    reads = _count_member_reads(world, monkeypatch)
    await svc.check_timers()
    await flush(world)
    assert reads == [world.bob.id]  # asked, on his turn
    assert known_away(live, live.session.to_act)
    await _bob_to_act_again(world, live)
    assert len(reads) == 1  # not a move
    last = _turn_lines(world, live)[-1]
    assert last.content.startswith("ben, your turn.\n"), last.content
    assert world.bob.id not in [u.id for u in last.mentions]
    await svc.check_timers()
    await flush(world)
    assert len(reads) == 1  # not again before ASK_AGAIN
    # Back: found so at the check ASK_AGAIN later, pinged again, not told twice.
    if out == "hidden":
        world.env.backend.set_overwrite(world.channel.id, Overwrite(
            target_id=world.bob.id, type=OverwriteType.MEMBER, allow=0, deny=0))
    else:
        world.bob = world.guild.add_member(world.bob.user)
    await world.env.settle()
    world.clock.advance(ASK_AGAIN + 1)
    await svc.check_timers()
    await flush(world)
    assert len(reads) == 2 and not known_away(live, live.session.to_act)
    assert len(_notices(world, live)) == 1
    await _bob_to_act_again(world, live)
    last = _turn_lines(world, live)[-1]
    assert last.content.startswith(f"<@{world.bob.id}>, your turn.\n"), last.content
