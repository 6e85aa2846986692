"""The hard computer thinking in worker processes: the same moves as in the bot's process, a
dead worker costing one retry, and no process left once the bot is closed."""

from __future__ import annotations

import asyncio
import copy
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import Settings, UmtaliBot
from cogs.umtali import thinking as thinking_module
from cogs.umtali.service import MatchService
from cogs.umtali.thinking import Thinking
from data.store import Store
from tests.discord_helpers import World, cut, flush, play_out, replayed_computer
from umtali.ai import LEVELS, HardPlayer
from umtali.ai.resume import player_seed
from umtali.moves import Move, MoveKind
from umtali.players import Player
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import PlayerView

# The hard computer thinks in real worker processes: seconds of real CPU work on a
# loaded machine, which SimCord's 5 s wait for the bot to settle does not allow for.
pytestmark = pytest.mark.simcord(settle_timeout=30)


def _gone(pid: int) -> bool:
    """Whether the process ended (an ended one not yet reaped by its parent counts)."""
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (ProcessLookupError, FileNotFoundError):
        return True


def _a_discard(seed: int) -> tuple[HardPlayer, PlayerView]:
    """A hard player and a view where it discards (and may search), the player as it stands
    before choosing."""
    session = Session(RuleSet.named("english"), seed)
    hard = HardPlayer(player_seed(session, 0))
    other = LEVELS["normal"]("other")
    while not session.over:
        seat = session.to_act
        view = session.view(seat)
        if seat == 0:
            if view.legal_moves[0].kind is MoveKind.DISCARD and len(view.legal_moves) > 3:
                return hard, view
            move = hard.choose(view)
        else:
            move = other.choose(view)
        session.apply(move, seat)
    raise AssertionError("no searched position in the session")


async def test_decisions_through_the_pool_are_the_ones_made_in_process() -> None:
    session = Session(RuleSet.named("english"), 11)
    here = HardPlayer(player_seed(session, 0))
    shipped: Player = HardPlayer(player_seed(session, 0))
    other = LEVELS["normal"]("other")
    thinking = Thinking(workers=2)
    decisions = 0
    try:
        while decisions < 60 and not session.over:
            seat = session.to_act
            view = session.view(seat)
            if seat == 0:
                before = shipped
                move, shipped = await thinking.choose(shipped, view)
                assert move == here.choose(view), decisions
                # The worker sends back what the player remembers, and leaves ours alone.
                assert isinstance(shipped, HardPlayer) and shipped is not before
                assert vars(shipped.memory) == vars(here.memory), decisions
                decisions += 1
            else:
                move = other.choose(view)
            session.apply(move, seat)
        pids = thinking.worker_pids()
        assert pids and os.getpid() not in pids
    finally:
        await thinking.close()
    assert decisions == 60
    assert (thinking.retries, thinking.fallbacks) == (0, 0)


async def test_a_worker_killed_with_a_decision_costs_one_retry() -> None:
    hard, view = _a_discard(5)
    thinking = Thinking(workers=1)
    try:
        await thinking.choose(HardPlayer(), view)  # the worker is up and has imported the game
        [pid] = thinking.worker_pids()
        # Stopped, the worker cannot finish the decision before it is killed.
        os.kill(pid, signal.SIGSTOP)
        deciding = asyncio.ensure_future(thinking.choose(hard, view))
        while thinking.deciding == 0:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
        move, _ = await deciding
        assert (thinking.retries, thinking.fallbacks) == (1, 0)
        assert move == hard.choose(view)
        [new_pid] = thinking.worker_pids()
        assert new_pid != pid
    finally:
        await thinking.close()
    assert _gone(pid)


_STARTS_A_POOL = """
import asyncio, sys, time
from cogs.umtali.thinking import Thinking
from umtali.players import RandomPlayer
from umtali.rules import RuleSet
from umtali.session import Session

async def main():
    thinking = Thinking(2)
    thinking.warm()
    await thinking.choose(RandomPlayer(), Session(RuleSet.named("english"), 1).view(0))
    while len(thinking.worker_pids()) < 2:
        await asyncio.sleep(0.05)
    print(*thinking.worker_pids(), flush=True)
    time.sleep(60)

asyncio.run(main())
"""


def test_workers_end_when_the_bot_is_killed() -> None:
    with subprocess.Popen([sys.executable, "-c", _STARTS_A_POOL], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as bot:
        try:
            assert bot.stdout is not None
            pids = [int(p) for p in bot.stdout.readline().split()]
            assert len(pids) == 2 and all(not _gone(pid) for pid in pids)
        finally:
            bot.kill()
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in pids if not _gone(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)  # leave nothing behind, even when failing
    assert not left


def _die(player: Player, view: PlayerView) -> tuple[Move, Player]:
    os._exit(1)


async def test_when_the_retry_fails_too_the_bot_decides_itself(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    hard, view = _a_discard(5)
    expected = copy.deepcopy(hard)
    # Every worker dies on the decision sent to it.
    monkeypatch.setattr(thinking_module, "decide", _die)
    thinking = Thinking(workers=1)
    caplog.set_level(logging.WARNING, logger="cogs.umtali.thinking")
    try:
        move, after = await thinking.choose(hard, view)
    finally:
        await thinking.close()
    assert (thinking.retries, thinking.fallbacks) == (1, 1)
    assert move == expected.choose(view)
    assert after is hard
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2


async def test_the_hard_computer_plays_through_the_pool_and_a_dead_worker(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    r = await world.alice.slash(world.channel, "umtali practice", level="hard")
    assert r.acknowledged
    await cut(world, r)
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    thinking = svc.computers.thinking
    await play_out(world, live, moves=6)
    pids = thinking.worker_pids()
    assert pids and thinking.retries == 0

    # The workers stop; once the computer's decision is with them, they are killed.
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)

    def kill_when_deciding() -> None:
        for _ in range(3000):
            if thinking.deciding:
                break
            threading.Event().wait(0.01)
        for pid in pids:
            os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_when_deciding)
    killer.start()
    try:
        moves = len(live.session.moves)
        # People's moves until the turn ends and the computer decides.
        while live.session.to_act == 0 and killer.is_alive() and not live.over:
            await play_out(world, live, moves=1)
    finally:
        killer.join()
    await flush(world)
    assert thinking.retries == 1 and thinking.fallbacks == 0
    assert all(_gone(pid) for pid in pids)
    assert len(live.session.moves) > moves + 1 and live.session.to_act == 0

    await play_out(world, live, moves=30)
    # Every move the computer made is the one an uninterrupted hard player in this process
    # makes on the session's seed.
    computer = replayed_computer(live)
    # And it remembers what that player remembers (the workers' copies came back to it).
    kept = svc.computers._players[live.id]
    assert isinstance(kept, HardPlayer) and isinstance(computer, HardPlayer)
    assert vars(kept.memory) == vars(computer.memory)

    # Closed with the matches: no worker is left.
    pids = thinking.worker_pids()
    assert pids
    await svc.close()
    assert all(_gone(pid) for pid in pids)
    assert multiprocessing.active_children() == []


async def test_the_pool_is_closed_with_the_bot(tmp_path: Path) -> None:
    # The bot's matches without its cog: closing a bot unloads its extension's modules, and
    # the next tests would find two copies of them.
    bot = UmtaliBot(Settings(token="test", db_path=tmp_path / "umtali.sqlite3"),
                    sync_commands=False, timers=False)
    bot.store = await Store.open(tmp_path / "umtali.sqlite3")
    bot.matches = MatchService(bot, bot.store, pictures=False)
    thinking = bot.matches.computers.thinking
    thinking.warm()
    deadline = time.monotonic() + 30
    while len(thinking.worker_pids()) < thinking.workers and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    pids = thinking.worker_pids()
    assert pids
    await bot.close()
    assert all(_gone(pid) for pid in pids)
    assert multiprocessing.active_children() == []
