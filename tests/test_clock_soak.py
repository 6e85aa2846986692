"""A seeded, randomized soak of the turn clock: a match under a random clock (blitz, normal,
correspondence, a turn timer; now and then a practice against the computer) driven through
random steps (time passing up to and past deadlines, moves and whole turns, gateway outages,
restarts after time offline, clean or killed, Discord failing a post, the time-up question
answered or raced by the absent player's move, resignations, the match's thread deleted), the
clock's promises (and each player told of a lost channel) checked
after every step (``tests.clock_soak``). Over SimCord, with time injected through the service's
clock.

Its steps: ``tests.clock_soak_time`` (time passing, outages, restarts, standing still, Discord
failing), ``tests.clock_soak_players`` (moves, answers, races, resignations).

A few seeds run with the suite; ``UMTALI_CLOCK_SOAK_SEEDS=500`` runs that many (and
``UMTALI_CLOCK_SOAK_FROM`` where they start; ``UMTALI_CLOCK_SOAK_STEPS``, how many steps each),
a failure naming its seed and steps; ``UMTALI_CLOCK_SOAK_LOG=1`` prints each seed's steps, and
with ``-s`` the warnings logged are printed too."""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.builders import UserHandle

from bot import UmtaliBot
from cogs.umtali import retries
from cogs.umtali.outbox import Batch
from cogs.umtali.time_control import DAY
from tests.clock_soak_players import PlayerSteps
from tests.discord_helpers import (
    World,
    challenge,
    custom_ids,
    cut,
    flush,
    submit_cut,
    the_match,
)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)

# The computer thinks in worker processes on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=30)

FIRST = int(os.environ.get("UMTALI_CLOCK_SOAK_FROM", "0"))
SEEDS = range(FIRST, FIRST + int(os.environ.get("UMTALI_CLOCK_SOAK_SEEDS", "10")))
STEPS = int(os.environ.get("UMTALI_CLOCK_SOAK_STEPS", "60"))

CLOCKS: list[dict[str, Any]] = [
    {"time_control": "blitz"}, {"time_control": "normal"},
    {"time_control": "correspondence"}, {"time_control": "correspondence"},
    {"turn_timer": 1}, {"turn_timer": 3},
]


class Warnings(logging.Handler):
    """The warnings logged, their numbers left out (printed at the end, for the record)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.add("warning: " + re.sub(r"[0-9.]+", "N", record.getMessage()))


class Steps(PlayerSteps):
    async def start(self) -> None:
        clock = self.rng.choice(CLOCKS)
        practice = self.rng.random() < 0.25
        self.say(f"start {clock}{' practice' if practice else ''}")
        world = self.world
        if practice:
            the_bot = world.guild.add_member(UserHandle(world.env, world.env.backend.bot_user))
            await cut(world, await challenge(world, world.alice, the_bot, **clock))
        else:
            offered = (await challenge(world, world.alice, world.bob, **clock)).response
            accept = next(c for c in custom_ids(offered) if c.endswith(":accept"))
            clicked = await world.bob.click(offered, custom_id=accept)
            assert (await submit_cut(world.bob, clicked)).acknowledged
        await flush(world)
        live = the_match(world)
        self.live, self.match_id = live, live.id
        if self.rng.random() < 0.15:
            # A player's DMs are closed to the bot.
            closed = self.rng.choice([world.alice, world.bob])
            self.closed = closed.user.id
            self.say(f"{closed.user.name}'s DMs are closed")
            for method, path in (("POST", "messages"), ("PATCH", "messages/*")):
                world.env.inject_error(method, f"/channels/{closed.user.dm_channel.id}/{path}",
                                       status=403, code=50007,
                                       message="Cannot send messages to this user",
                                       times=None)
        if self.rng.random() < 0.2:
            await self.lose_thread()
        self.observe()
        await self.tick()

    async def lose_thread(self) -> None:
        """The match's thread deleted: it goes on in the players' DMs, each told so by a new
        DM (``ClockSoak.invariants``)."""
        live = self.current()
        self.say("the match's thread is deleted")
        self.world.env.inject_error("*", f"/channels/{live.channel_id}/*", status=404,
                                    code=10003, message="Unknown Channel", times=None)
        self.svc.delivery.enqueue(live, Batch(table=True))
        await flush(self.world)

    async def step(self) -> None:
        live = self.current()
        choices: list[tuple[float, Any]] = [
            (4, self.wait), (2, lambda: self.move(False)), (3, lambda: self.move(True)),
            (1, self.turns),
            (1, self.outage), (1, self.restart), (0.5, self.pause), (0.3, self.resign)]
        if not live.channel_lost:
            choices.append((0.15, self.lose_thread))
        if live.deadline is None and live.asks_when_late():
            choices += [(5, self.answer), (1, lambda: self.move(False)), (1, self.race)]
        if self.rng.random() < 0.12:
            self.fault()
        weights, steps = zip(*choices, strict=True)
        await self.rng.choices(steps, weights)[0]()


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("seed", SEEDS)
async def test_the_clock_keeps_its_promises(world: World, db_path: Path,
                                            make_bot: Callable[[], UmtaliBot],
                                            monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    soak = Steps(world, make_bot, db_path, seed)
    warned = Warnings()
    logging.getLogger("cogs").addHandler(warned)
    monkeypatch.setattr(logging.getLogger("cogs"), "level", logging.WARNING)
    # A post Discord failed is tried again at once, not seconds later (real time).
    monkeypatch.setattr(retries, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(discord.Interaction, "created_at",
                        property(lambda _: soak.stamp()))
    asyncio.get_running_loop().set_exception_handler(soak.loop_error)
    await soak.start()
    await soak.invariants()
    for soak.step_no in range(1, STEPS + 1):
        if soak.faults():
            soak.faulty_until = soak.step_no + 1
        try:
            await soak.step()
        except Exception as e:
            if isinstance(e, AssertionError):
                raise
            soak.fail(f"{e!r}")
        if soak.faults():
            soak.faulty_until = soak.step_no + 1
        await soak.invariants()
        if soak.current().over:
            break
    # Over or not, nothing changes it later: the clock far on, a restart.
    soak.step_no += 1
    soak.advance(3 * DAY)
    await soak.tick()
    await soak.invariants()
    await soak.restart()
    await soak.invariants()
    if os.environ.get("UMTALI_CLOCK_SOAK_LOG"):
        print("\n".join(soak.log))
    logging.getLogger("cogs").removeHandler(warned)
    for note in sorted(soak.notes | warned.seen):
        print(f"seed {seed}: {note}")
