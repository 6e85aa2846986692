"""A timed match's warnings before a turn's end, for a player out of reach (fix143, after
fix140): gone from the server, or no longer allowed to see the match's channel, DMs closed.

The warning ("N seconds left for your turn"), and by correspondence the reminder that falls
back to the channel (its DM refused), pinged them there: a ping nobody can read, noise in the
channel. The clock still runs (the match cannot wait for ever) and the warning is still
posted, for the table to see, with the player's name and no ping, when the seat is known to be
out of reach (``out_of_reach.away``: what the refused-DMs notice found, no request to Discord
a reminder). One in reach is pinged as before. SimCord, a real SQLite file."""

from __future__ import annotations

import discord
import pytest

from cogs.umtali.clock import warn_before
from cogs.umtali.live import LiveMatch
from cogs.umtali.out_of_reach import ASK_AGAIN, away
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_refused_dms_departed import _close_dms, _notices, _until_refused
from tests.test_refused_dms_out_of_reach import (
    _count_member_reads,
    _hide_channel,
    _moves,
)

WARNED = ("seconds left for your turn", "your turn ends")


def _warnings(world: World, live: LiveMatch) -> list[discord.Message]:
    return [m for m in thread_of(world, live).history()
            if any(w in m.content for w in WARNED)]


async def _bob_to_act(world: World, out: str | None, **options: object) -> LiveMatch:
    """Bob's turn, his DMs refusing the bot; ``out``: the channel "hidden" from him, or he
    "left" the server."""
    live = await start_match(world, **options)
    bob = live.seat_of(world.bob.id)
    assert bob is not None
    if out == "hidden":
        _hide_channel(world)
    elif out == "left":
        world.guild.remove_member(world.bob)
    await world.env.settle()
    _close_dms(world)
    await _until_refused(world, live, bob)
    for _ in range(6):
        if live.session.to_act == bob:
            break
        await _moves(world, live, 1)
    assert live.dm_refused[bob] and live.session.to_act == bob and not live.over
    return live


async def _warned(world: World, live: LiveMatch) -> list[discord.Message]:
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await svc.check_timers(now=live.deadline - warn_before(live) + 1)
    await flush(world)
    return _warnings(world, live)


@pytest.mark.parametrize("out", ["hidden", "left"])
@pytest.mark.parametrize("options", [{"turn_timer": 2}, {"time_control": "correspondence"}],
                         ids=["warning", "correspondence"])
async def test_a_member_out_of_reach_is_warned_without_a_ping(
        world: World, monkeypatch: pytest.MonkeyPatch, options: dict[str, object],
        out: str) -> None:
    live = await _bob_to_act(world, out, **options)
    svc = world.bot.matches
    assert svc is not None and away(svc, live, live.session.to_act)
    reads = _count_member_reads(world, monkeypatch)
    warned = await _warned(world, live)
    assert len(warned) == 1, [m.content for m in warned]
    assert warned[0].content.startswith("ben, ") and "<@" not in warned[0].content
    assert world.bob.id not in [u.id for u in warned[0].mentions]
    assert reads == []  # known from the notice: Discord not asked again for the warning
    # The clock still runs on him.
    assert live.deadline is not None and live.warned and not live.over


@pytest.mark.parametrize("options", [{"turn_timer": 2}, {"time_control": "correspondence"}],
                         ids=["warning", "correspondence"])
async def test_a_member_who_sees_the_channel_is_still_pinged(
        world: World, options: dict[str, object]) -> None:
    live = await _bob_to_act(world, None, **options)
    warned = await _warned(world, live)
    assert len(warned) == 1, [m.content for m in warned]
    assert warned[0].content.startswith(f"<@{world.bob.id}>, ")
    assert world.bob.id in [u.id for u in warned[0].mentions]


async def test_a_warning_as_the_clock_asks_again_pings_nobody(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The warning due at the very check that asks Discord again whether the player is back
    (``ASK_AGAIN`` since they were found away): still known away until Discord answers."""
    live = await _bob_to_act(world, "hidden", turn_timer=10)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    reads = _count_member_reads(world, monkeypatch)
    world.clock.advance(ASK_AGAIN + 1)
    warned = await _warned(world, live)
    assert len(reads) == 1  # asked again, once
    assert len(warned) == 1 and warned[0].content.startswith("ben, ")
    assert world.bob.id not in [u.id for u in warned[0].mentions]
    assert away(svc, live, live.session.to_act)  # found away again
    await svc.check_timers(now=live.deadline - warn_before(live) + 2)
    await flush(world)
    assert len(reads) == 1  # not again before ASK_AGAIN



async def test_a_member_back_is_pinged_again(world: World) -> None:
    """Rejoined: found back as the clock asks again (and told of his DMs, once), his turn's
    warning pings him again."""
    live = await _bob_to_act(world, "left", turn_timer=10)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    world.bob = world.guild.add_member(world.bob.user)
    await world.env.settle()
    world.clock.advance(ASK_AGAIN + 1)
    await svc.check_timers()
    await flush(world)
    assert _notices(world, live) != [] and not live.warned
    warned = await _warned(world, live)
    assert len(warned) == 1 and warned[0].content.startswith(f"<@{world.bob.id}>, ")
    assert world.bob.id in [u.id for u in warned[0].mentions]
