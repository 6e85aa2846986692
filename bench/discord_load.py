"""Many matches at once over real sockets: the real bot against the loopback Discord.

The bot is ``bot.py``'s ``main()`` in its own process (through ``tests/loopback/launch.py``),
talking HTTP and the gateway to the loopback server of ``tests/loopback`` in this process.
``--matches`` pairs of members (default 500) each challenge, accept, and then play, all at
once: on the DM panels (``--via dm``, the default: a button or a menu per action, the next
action waiting for the panel of its version to arrive) or with ``/umtali play`` (``--via
slash``). Each pair keeps a replica of its session (rebuilt from the saved state once, then
moved along with its own moves) to choose greedy moves. ``--think S``: each player takes 0.5
to 1.5 times S seconds over each action; 0 (the default) plays back to back, which measures
capacity, since with every match waiting on the bot the answer time is simply the queue.

Measured: interactions per second, latency from INTERACTION_CREATE sent to the interaction
callback received (p50, p99), gateway events and the bot's other REST calls per move, CPU per
move in each process, and the bot process's memory (RSS) per active match. Figures only; both
processes share this machine, so the latency includes the server's work.

    .venv/bin/python bench/discord_load.py [--matches 500] [--moves 30] [--via dm|slash]
                                           [--think 0]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.loopback.driver import custom_ids
from tests.loopback.harness import BotProcess
from tests.loopback.server import Interaction, LoopbackDiscord, Member
from umtali.codec import session_from_json
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer
from umtali.session import Session

#: Under load an answer can take a while; a real failure still ends the run.
TIMEOUT = 180.0


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def saved_session(db: Path, match_id: int) -> Session:
    """The match's session as the bot saved it (read once, to start the replica)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        row = conn.execute("SELECT state FROM matches WHERE id = ?", (match_id,)).fetchone()
    conn.close()
    return session_from_json(json.loads(row[0]))


def posted_table(server: LoopbackDiscord, thread_id: int) -> int | None:
    """The match id on the "My hand" button of the table posted in the thread, once it is."""
    for message in server.channel_messages(thread_id):
        for custom_id in custom_ids(message):
            if custom_id.endswith(":hand"):
                return int(custom_id.split(":")[2])
    return None


class Pair:
    def __init__(self, server: LoopbackDiscord, db: Path, index: int) -> None:
        self.server, self.db = server, db
        self.players = (server.add_member(f"a{index}"), server.add_member(f"b{index}"))
        self.match_id = self.channel_id = 0
        self.session: Session | None = None

    async def start(self) -> None:
        a, b = self.players
        answer = await self.server.slash(a, self.server.channel_id, "umtali challenge",
                                         {"opponent": Member(b)}, timeout=TIMEOUT)
        assert answer.response is not None, answer.text()
        accept = next(c for c in custom_ids(answer.response) if c.endswith(":accept"))
        await self.server.click(b, answer.response, accept, timeout=TIMEOUT)
        # The match is played in a thread made from the challenge (same id); watching the
        # server's memory for its table costs nothing, unlike polling the bot's database.
        thread_id = int(answer.response["id"])
        deadline = time.monotonic() + TIMEOUT
        while (match_id := posted_table(self.server, thread_id)) is None:
            assert time.monotonic() < deadline, "the match never opened"
            await asyncio.sleep(0.05)
        self.match_id, self.channel_id = match_id, thread_id
        while not all(self.server.dm_messages(user) for user in self.players):
            assert time.monotonic() < deadline, "the hands never came"
            await asyncio.sleep(0.05)
        self.session = saved_session(self.db, match_id)

    async def play(self, moves: int, latencies: list[float], via: str, think: float) -> int:
        made = 0
        session = self.session
        assert session is not None
        rng = random.Random(self.match_id)
        while made < moves and not session.over:
            seat = session.to_act
            move = GreedyPlayer().choose(session.view(seat))
            if think:
                # A player takes a moment over each action (0.5 to 1.5 times ``think``).
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            answer = None
            if via == "dm":
                answer = await self.click(seat, move, len(session.moves))
            if answer is None:
                answer = await self.server.slash(self.players[seat], self.channel_id,
                                                 "umtali play", {"move": str(move)},
                                                 timeout=TIMEOUT)
                assert answer.ephemeral and "embeds" in answer.callback, answer.text()
            else:
                assert answer.callback_type == 7, answer.text()
            latencies.append((answer.answered_at - answer.sent_at) * 1000)
            # The replica follows: the bot applied the same move to the same state.
            session.apply(move, seat)
            made += 1
        return made


    async def click(self, seat: int, move: Move, version: int) -> Interaction | None:
        """Play ``move`` on the seat's DM panel, once the panel of this version is there;
        None when the panel does not offer it (a menu shows at most 25 choices)."""
        user = self.players[seat]
        prefix = f"umtali:m:{self.match_id}:{version}:"
        panel = await self.server.message_in(
            self.server.dms[user], lambda m: any(c.startswith(prefix) for c in custom_ids(m)),
            timeout=TIMEOUT)
        action, values = _component(move)
        for row in panel.get("components", []):
            for item in row.get("components", []):
                if item.get("custom_id") != prefix + action:
                    continue
                offered = {o["value"] for o in item.get("options", [])}
                if values is None or set(values) <= offered:
                    return await self.server.click(user, panel, prefix + action, values,
                                                   timeout=TIMEOUT)
        return None


def _component(move: Move) -> tuple[str, list[str] | None]:
    """The DM panel's component for ``move`` and the menu values to choose."""
    kind = move.kind
    if kind is MoveKind.DRAW:
        return "draw", None
    if kind is MoveKind.TAKE:
        return "take", None
    if kind is MoveKind.TAKE_TWO:
        return "take2", None
    if kind is MoveKind.MELD:
        return "meld", [c.code for c in move.card_list]
    return ("extend" if kind is MoveKind.EXTEND else "discard"), [str(move)]


async def run(matches: int, moves: int, workdir: Path, via: str, think: float) -> None:
    server = LoopbackDiscord()
    await server.start()
    db = workdir / "bench.sqlite3"
    bot = BotProcess(server, db, workdir)
    try:
        await bot.start()
        assert bot.proc is not None
        await asyncio.sleep(0.5)
        rss_idle = rss_kib(bot.proc.pid)
        pairs = [Pair(server, db, i) for i in range(matches)]
        t0 = time.perf_counter()
        await asyncio.gather(*(p.start() for p in pairs))
        opened = time.perf_counter() - t0
        rss_open = rss_kib(bot.proc.pid)
        print(f"{matches} matches opened (challenge, accept, thread, table, two DMs each) in "
              f"{opened:.1f} s")

        # The load generator's own collector, scanning every message the server keeps, would
        # pause it for up to a second: its pauses are not the bot's, so it is off while timing.
        gc.collect()
        gc.disable()
        latencies: list[float] = []
        calls_before = len(server.calls)
        bot_cpu, own_cpu = cpu_seconds(bot.proc.pid), time.process_time()
        t0 = time.perf_counter()
        seq = server._seq
        made = sum(await asyncio.gather(*(p.play(moves, latencies, via, think) for p in pairs)))
        elapsed = time.perf_counter() - t0
        bot_cpu, own_cpu = cpu_seconds(bot.proc.pid) - bot_cpu, time.process_time() - own_cpu
        gc.enable()
        # Let the bot's outboxes drain before counting its calls: wait for a quiet second.
        seen = -1
        while seen != len(server.calls):
            seen = len(server.calls)
            await asyncio.sleep(1.0)
        rss_play = rss_kib(bot.proc.pid)
        calls = server.calls[calls_before:]
        callbacks = sum(1 for c in calls if c.path.endswith("/callback"))
        latencies.sort()
        how = "on the DM panels" if via == "dm" else "by /umtali play"
        pace = f", each player thinking ~{think:g} s per action" if think else " back to back"
        print(f"{made} moves {how} in {elapsed:.1f} s: {made / elapsed:,.0f} "
              f"interactions/s with {matches} matches playing at once{pace}")
        print(f"INTERACTION_CREATE sent -> callback received: p50 "
              f"{statistics.median(latencies):.1f} ms, p99 "
              f"{latencies[int(0.99 * (len(latencies) - 1))]:.1f} ms, max {latencies[-1]:.0f} ms")
        print(f"REST calls per move besides the callback: {(len(calls) - callbacks) / made:.2f} "
              f"(announcements, table edits, hand DMs; 429s: "
              f"{sum(1 for c in calls if c.status == 429)})")
        print(f"gateway events per move: {(server._seq - seq) / made:.2f} "
              "(INTERACTION_CREATE)")
        print(f"CPU per move: bot process {bot_cpu / made * 1000:.2f} ms, loopback server and "
              f"players {own_cpu / made * 1000:.2f} ms ({os.cpu_count()} CPUs)")
        print(f"bot process memory: {rss_idle / 1024:.0f} MiB idle; per active match "
              f"{(rss_open - rss_idle) / matches:.0f} KiB once open, "
              f"{(rss_play - rss_idle) / matches:.0f} KiB after {moves} moves")
        assert not server.unknown and not server.errors, (server.unknown, server.errors)
    finally:
        bot.stop()
        await server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--moves", type=int, default=30, help="moves per match")
    parser.add_argument("--via", choices=("dm", "slash"), default="dm",
                        help="play on the DM panels (buttons and menus) or with /umtali play")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player takes over each action (0: back to back)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args.matches, args.moves, Path(tmp), args.via, args.think))


if __name__ == "__main__":
    main()
