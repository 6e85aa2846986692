"""Measuring run (not part of the suite: UMTALI_UPTIME_ROUNDS set to run it): rounds of every
ending, the sizes of what the bot keeps compared after N, 2N and 3N rounds."""

from __future__ import annotations

import os
import time
import tracemalloc
from typing import Any

import pytest

from cogs.umtali.challenge_expiry import expire_challenges
from cogs.umtali.clock_state import LATE
from data.store import Limits
from tests.discord_helpers import (
    World,
    accept,
    challenge,
    custom_ids,
    cut,
    flush,
    play_out,
)
from tests.uptime_sizes import grown, sizes

ROUNDS = int(os.environ.get("UMTALI_UPTIME_ROUNDS", "0"))
pytestmark = [pytest.mark.simcord(settle_timeout=60),
              pytest.mark.skipif(ROUNDS == 0, reason="a measuring run")]


def _only(world: World) -> Any:
    svc = world.bot.matches
    assert svc is not None
    live = [m for m in svc.matches.values() if not m.over]
    assert len(live) == 1, live
    return live[0]


async def _match(world: World, a: Any, b: Any, channel: Any = None, **options: Any) -> Any:
    world.clock.advance(Limits().challenge_cooldown + Limits().pair_window)
    r = await a.slash(channel or world.channel, "umtali challenge", opponent=b, **options)
    assert r.acknowledged and not r.ephemeral, r
    answer = await accept(b, r.response)
    assert answer.acknowledged
    await flush(world)
    return _only(world)


async def _resign(world: World, who: Any, live: Any) -> None:
    ask = await who.slash(world.channel, "umtali resign")
    done = await who.click(ask.response, custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert done.acknowledged
    await flush(world)
    assert live.over


async def _round(world: World, n: int) -> None:
    svc = world.bot.matches
    assert svc is not None
    # 1. resigned after a few moves
    live = await _match(world, world.alice, world.bob)
    await play_out(world, live, moves=3)
    await _resign(world, world.alice, live)
    # 2. timed out
    live = await _match(world, world.alice, world.bob, turn_timer=2)
    deadline = live.deadline
    assert deadline is not None
    await svc.check_timers(now=deadline + LATE + 1)
    await flush(world)
    world.clock.now = max(world.clock.now, deadline + LATE + 2)
    assert live.over, "timed out"
    # 3. a correspondence match: the time-up question, claimed
    live = await _match(world, world.alice, world.bob, time_control="correspondence")
    seat = live.session.to_act
    deadline = live.deadline
    if deadline is not None:
        await svc.check_timers(now=deadline + LATE + 1)
        await flush(world)
        world.clock.now = max(world.clock.now, deadline + LATE + 2)
        waiting = (world.alice, world.bob)[1 - seat]
        thread = next((t for t in world.channel.threads if t.id == live.channel_id),
                      world.channel)
        asked = [m for m in thread.history() if any(c.endswith(":claim") for c in custom_ids(m))]
        if asked and not live.over:
            button = next(c for c in custom_ids(asked[-1]) if c.endswith(":claim"))
            await waiting.click(asked[-1], custom_id=button)
            await flush(world)
    if not live.over:
        await _resign(world, (world.alice, world.bob)[seat], live)
    # 4. declined, 5. withdrawn, 6. expired
    world.clock.advance(Limits().challenge_cooldown + Limits().pair_window)
    r = await challenge(world, world.alice, world.bob)
    await world.bob.click(r.response, custom_id=custom_ids(r.response)[1])
    world.clock.advance(Limits().challenge_cooldown + Limits().pair_window)
    r = await challenge(world, world.alice, world.bob)
    await world.alice.click(r.response, custom_id=custom_ids(r.response)[1])
    world.clock.advance(Limits().challenge_cooldown + Limits().pair_window)
    r = await challenge(world, world.alice, world.bob)
    # 7. a practice never cut (expires with the challenge)
    p = await world.carol.slash(world.channel, "umtali practice", level="easy")
    assert p.acknowledged
    world.clock.advance(3600)
    await expire_challenges(world.bot, now=world.clock.now)
    await world.env.settle()
    # 8. a practice cut, a few moves, resigned
    world.clock.advance(3600)
    p = await world.alice.slash(world.channel, "umtali practice", level="easy")
    await cut(world, p)
    live = _only(world)
    await play_out(world, live, moves=2)
    await _resign(world, world.alice, live)
    # 9. a practice played out (every few rounds: long)
    if n % 4 == 0:
        world.clock.advance(3600)
        p = await world.alice.slash(world.channel, "umtali practice", level="easy")
        await cut(world, p)
        live = _only(world)
        await play_out(world, live)
    # 10. a server that removes the bot with a match in play
    guild = world.env.create_guild(f"Club {n}")
    channel = guild.create_text_channel("games")
    a = guild.add_member(world.env.create_user(f"a{n}"))
    b = guild.add_member(world.env.create_user(f"b{n}"))
    world.clock.advance(Limits().challenge_cooldown)
    r = await a.slash(channel, "umtali challenge", opponent=b, turn_timer=5)
    await accept(b, r.response)
    await flush(world)
    live = _only(world)
    world.env.backend.remove_guild(guild.id)
    await world.env.settle()
    await flush(world)
    assert live.over
    await world.env.advance_time(181)
    await flush(world)


async def test_measure(world: World) -> None:
    tracemalloc.start(10)
    await _round(world, 1)
    marks: list[dict[str, int]] = []
    snaps = []
    t0 = time.time()
    for stage in range(3):
        for n in range(ROUNDS):
            await _round(world, 2 + stage * ROUNDS + n)
        await world.env.advance_time(181)
        await flush(world)
        marks.append(sizes(world.bot))
        snaps.append(tracemalloc.take_snapshot())
        print(f"stage {stage}: {time.time() - t0:.0f}s", flush=True)
    for k, v in sorted(grown(*marks).items()):
        print("GREW", k, v)
    for k in ("asyncio.tasks", "fds", "gc.LiveMatch", "gc.Session", "gc.View",
              "views._views", "views._modals", "svc.matches", "discord.messages",
              "discord.threads", "discord.private_channels", "discord.users",
              "svc.prefs._members", "svc.prefs._seen_languages"):
        print("SIZE", k, [m.get(k) for m in marks])
    for stat in snaps[2].compare_to(snaps[1], "traceback")[:8]:
        print("MEM", stat)
        for line in stat.traceback.format()[-6:]:
            print("    ", line)


def _children() -> int:
    me = os.getpid()
    found = 0
    for task in os.listdir(f"/proc/{me}/task"):
        with open(f"/proc/{me}/task/{task}/children") as f:
            found += len(f.read().split())
    return found


async def _round_more(world: World, other: Any, n: int) -> None:
    svc = world.bot.matches
    assert svc is not None
    # 11. a hard practice, a hint asked, resigned
    world.clock.advance(3600)
    p = await world.alice.slash(world.channel, "umtali practice", level="hard")
    await cut(world, p)
    live = _only(world)
    await play_out(world, live, moves=1)
    if live.session.to_act == 0 and not live.over:
        panel = next(m for m in world.alice.user.dm_channel.history()
                     if m.id == live.dm_message_ids[0])
        await world.alice.user.click(panel, custom_id=f"umtali:m:{live.id}:hint")
        await flush(world)
    await _resign(world, world.alice, live)
    # 12. a match taken over by another process, resigned there
    live = await _match(world, world.alice, world.bob)
    theirs = await other.lookup(live.id)
    assert await other.owners.leases.take(live.id, other.owners.until())
    await other.owners.hold(theirs)
    world.clock.advance(10)
    await svc.owners.renew(world.clock.now)
    await flush(world)
    assert live.id not in svc.matches
    await other.resign(theirs, theirs.session.to_act)
    await other.flush()
    await flush(world)
    await world.env.advance_time(181)
    await flush(world)


async def test_measure_more(world: World, other: Any) -> None:
    await _round_more(world, other, 1)
    marks: list[dict[str, int]] = []
    t0 = time.time()
    for stage in range(3):
        for n in range(ROUNDS):
            await _round_more(world, other, 2 + stage * ROUNDS + n)
        marks.append(sizes(world.bot))
        other_sizes: dict[str, int] = {}
        from tests.uptime_sizes import _walk
        _walk(other, "other", other_sizes, set(), 0)
        marks[-1].update(other_sizes)
        marks[-1]["children"] = _children()
        print(f"stage {stage}: {time.time() - t0:.0f}s", flush=True)
    for k, v in sorted(grown(*marks).items()):
        print("GREW", k, v)
    for k in ("asyncio.tasks", "fds", "gc.LiveMatch", "children", "svc.matches",
              "other.matches", "coach._hints", "svc.computers.thinking._pool.taken"):
        print("SIZE", k, [m.get(k) for m in marks])
