"""Many matches at once through the cog layer: actions per second and handling latency.

Each of ``--matches`` matches (default 200) plays at once, through
``MatchService.act`` on a real SQLite file: the interaction's work from the move arriving to the
reply being ready (engine, save in one transaction, the player's new hand panel). Discord itself
is a stand-in that accepts every message, so the figures are the bot's own. Two loads: every
match moving back to back (saturation: latency is then queueing, about matches / throughput),
and every match moving every 0.25 s on average (800 actions/s, far above human play). Figures
only.

    .venv/bin/python bench/discord_matches.py [--matches 200] [--actions 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.umtali.service import MatchService
from data.store import Store
from umtali.rules import RuleSet


class _Message:
    _ids = iter(range(10**9, 10**10))

    def __init__(self, channel: _Channel) -> None:
        self.id = next(self._ids)
        self.channel = channel
        self.content = ""
        self.embeds: list[Any] = []
        self.attachments: list[Any] = []
        self.components: list[Any] = []
        self.flags = None

    async def edit(self, **kwargs: Any) -> _Message:
        self.channel.calls += 1
        return self

    async def delete(self) -> None:
        self.channel.calls += 1


class _Channel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.calls = 0

    async def send(self, *args: Any, **kwargs: Any) -> _Message:
        self.calls += 1
        return _Message(self)

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(self)


class _User:
    def __init__(self, user_id: int) -> None:
        self.dm = _Channel(user_id + 1)

    async def send(self, *args: Any, **kwargs: Any) -> _Message:
        return await self.dm.send()


class StandInDiscord:
    """Accepts every REST call at once and counts them."""

    def __init__(self) -> None:
        self.channels: dict[int, _Channel] = {}

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return self.channels.setdefault(channel_id, _Channel(channel_id))

    def get_user(self, user_id: int) -> _User:
        return _User(user_id)

    def get_guild(self, guild_id: int) -> None:
        return None  # no server's locale: the bot's default language

    def get_channel(self, channel_id: int) -> None:
        return None  # not cached: reached by id (get_partial_messageable)

    def is_closed(self) -> bool:
        return False

    @property
    def rest_calls(self) -> int:
        return sum(c.calls for c in self.channels.values())


async def run(matches: int, actions: int, db: Path, pace: float) -> None:
    store = await Store.open(db)
    discord = StandInDiscord()
    svc = MatchService(discord, store)  # type: ignore[arg-type]
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    lives = []
    for i in range(matches):
        live = await svc.start(guild_id=1, channel_id=10_000 + i,
                               players=((2 * i + 1, f"p{2 * i}"), (2 * i + 2, f"p{2 * i + 1}")),
                               rules=RuleSet.english(), turn_timer=300, seed=i)
        await svc.open_table(live)
        lives.append(live)
    await svc.flush()
    at_deal = tracemalloc.get_traced_memory()[0] - baseline
    rng = random.Random(1)
    # Memory once every match is some way into its first hand (tracemalloc slows everything,
    # so it is off for the timed part).
    for live in lives:
        for _ in range(40):
            if live.over:
                break
            seat = live.session.to_act
            legal = live.session.legal_moves()
            await svc.act(live, live.player_ids[seat], legal[rng.randrange(len(legal))])
    await svc.flush()
    in_play = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    latencies: list[float] = []
    done = 0
    restarted = 0

    async def player_pair(index: int) -> None:
        nonlocal done, restarted
        live = lives[index]
        while done < actions:
            if live.over:
                # Keep the load steady: a finished match is replaced by a new one.
                restarted += 1
                live = await svc.start(
                    guild_id=2 + restarted, channel_id=20_000 + index,
                    players=((index * 2 + 1, "a"), (index * 2 + 2, "b")),
                    rules=RuleSet.english(), turn_timer=300, seed=10_000 + restarted)
            seat = live.session.to_act
            legal = live.session.legal_moves()
            move = legal[rng.randrange(len(legal))]
            start = time.perf_counter()
            outcome = await svc.act(live, live.player_ids[seat], move, live.version)
            svc.hand_message(live, seat)
            latencies.append((time.perf_counter() - start) * 1000)
            assert outcome.ok, outcome.error
            done += 1
            # A player's thinking time; 0 plays back to back (saturation).
            await asyncio.sleep(rng.expovariate(1 / pace) if pace else 0)

    calls_before = discord.rest_calls
    t0 = time.perf_counter()
    await asyncio.gather(*(player_pair(i) for i in range(matches)))
    await svc.flush()
    elapsed = time.perf_counter() - t0
    latencies.sort()
    how = f"a move every {pace * 1000:.0f} ms on average" if pace else "moves back to back"
    print(f"{matches} concurrent matches ({how}), {len(latencies)} actions in {elapsed:.1f} s: "
          f"{len(latencies) / elapsed:,.0f} actions/s")
    print(f"handling latency (move in -> reply ready, saved): p50 "
          f"{statistics.median(latencies):.2f} ms, p99 "
          f"{latencies[int(0.99 * len(latencies))]:.2f} ms, max {latencies[-1]:.1f} ms")
    print(f"Discord REST calls besides the interaction reply: "
          f"{(discord.rest_calls - calls_before) / len(latencies):.2f} per action")
    print(f"memory per active match: {at_deal / matches / 1024:.1f} KiB at the deal, "
          f"{in_play / matches / 1024:.1f} KiB after 40 moves")
    await svc.close()
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--pace", type=float, default=None,
                        help="mean seconds between a match's moves (default: both 0 and 0.25)")
    args = parser.parse_args()
    for pace in [args.pace] if args.pace is not None else [0.0, 0.25]:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(args.matches, args.actions, Path(tmp) / "bench.sqlite3", pace))


if __name__ == "__main__":
    main()
