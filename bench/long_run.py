"""A bot that runs for months: what grows as matches come and go.

The real ``UmtaliBot`` on a SQLite file under SimCord (the tests' stand-in Discord, virtual
time), one server, three members. Each round ends six things, each its own way: a rated match
resigned after a few moves; a practice match resigned after a hint was asked; a rated match
forfeited by the clock; a rated match cancelled by the bot; a challenge withdrawn; a challenge
left to expire. Every ``--finish-every`` rounds, a practice session is played to its end (each
hand reviewed by the coach in the thinking workers, with the tests' small search budgets).
After three warm-up rounds (the caches fill), and after the last round, this measures what
the bot keeps:

- every container reachable from the match service, the coach, the ephemeral panels and the
  module-level state of ``cogs`` and ``data`` (its entries, by where it is kept); the match
  objects still alive; the asyncio tasks; the open files; the worker processes;
- tracemalloc's growth in the bot's own code (``cogs/``, ``data/``, ``umtali/``, ``bot.py``);
- the database: rows and bytes of each table (SQLite's ``dbstat``), and the WAL's size.

Anything in memory that grows with the matches ended, not with those in play, is a leak
(none is held at the end of a round). What discord.py and SimCord keep is theirs and not
counted (discord.py drops a thread from its cache once Discord archives it); tracemalloc
counts what SimCord keeps of the bot's posts (their texts, their pictures: the latter printed
apart). Rows that grow
are the record (results, moves for the replay files, the challenges); their figure per 100
matches is printed. Figures only.

    nice .venv/bin/python bench/long_run.py [--rounds 20] [--finish-every 10]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import os
import sqlite3
import sys
import tempfile
import time
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot import Settings, UmtaliBot
from cogs.umtali.coach import Coach, coach_of
from cogs.umtali.hand_panels import panes
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import (
    Clock,
    World,
    challenge,
    custom_ids,
    flush,
    play,
    play_out,
    start_match,
    start_practice,
)
from umtali.players import GreedyPlayer

ROOT = Path(__file__).resolve().parent.parent
OURS = tuple(str(ROOT / d) for d in ("cogs", "data", "umtali", "bot.py"))
#: Objects of these modules are walked into (their attributes); others are leaves.
WALKED = ("cogs.", "data.", "umtali.", "bot")
DAY = 24 * 3600.0
#: Rounds before the first measure: the caches (the pictures' 512 PNGs, the engine's) fill.
WARM_UP = 3


def kept(roots: dict[str, Any]) -> dict[str, int]:
    """The entries of every container reachable from ``roots`` and from the module-level
    names of ``cogs``, ``data`` and ``umtali``, by the path it was reached by (the largest
    of the containers reached by the same path)."""
    sizes: dict[str, int] = {}
    seen: set[int] = set()

    def note(path: str, n: int) -> None:
        sizes[path] = max(sizes.get(path, 0), n)

    def walk(obj: Any, path: str, depth: int) -> None:
        if depth > 8 or id(obj) in seen or isinstance(obj, (str, bytes, int, float, type)):
            return
        seen.add(id(obj))
        if isinstance(obj, (dict, weakref.WeakKeyDictionary, weakref.WeakValueDictionary)):
            try:
                values = list(obj.values())
            except RuntimeError:  # changed meanwhile (a weak entry went)
                return
            note(path, len(values))
            for v in values[:20]:
                walk(v, path + "[]", depth + 1)
        elif isinstance(obj, (list, set, frozenset, collections.deque, weakref.WeakSet)):
            items = list(obj)
            note(path, len(items))
            for v in items[:20]:
                walk(v, path + "[]", depth + 1)
        elif isinstance(obj, tuple):
            for v in obj:
                walk(v, path + "[]", depth + 1)
        elif hasattr(obj, "cache_info"):  # functools.lru_cache
            note(path + "()", obj.cache_info().currsize)
        elif (type(obj).__module__ or "").startswith(WALKED):
            for name, v in list(getattr(obj, "__dict__", {}).items()):
                walk(v, f"{path}.{name}", depth + 1)

    for name, root in roots.items():
        walk(root, name, 0)
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith(("cogs.", "data.", "umtali.")):
            for name, v in list(vars(module).items()):
                if (not name.startswith("__") and not callable(v)) or hasattr(v, "cache_info"):
                    walk(v, f"{module_name}.{name}", 0)
    return sizes


def children() -> int:
    me, count = str(os.getpid()), 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    count += f.read().rsplit(")", 1)[1].split()[1] == me
            except OSError:
                pass
    return count


def database(db: Path) -> dict[str, tuple[int, int]]:
    """Rows and bytes of each table (its indexes' bytes added to it)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%'")]
        owner = dict(con.execute("SELECT name, tbl_name FROM sqlite_master"))
        size: collections.Counter[str] = collections.Counter()
        for name, pages in con.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            size[owner.get(name, name)] += pages
        return {t: (con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0], size[t])
                for t in tables}
    finally:
        con.close()


def attachments_kept(world: World) -> int:
    """Bytes of the attachments SimCord keeps: every one the bot posted (the pictures)."""
    blobs: dict[str, bytes] = getattr(world.bot.ws, "_backend").cdn._blobs  # noqa: B009
    return sum(len(b) for b in blobs.values())


def snapshot(world: World, db: Path) -> dict[str, Any]:
    gc.collect()
    svc = world.bot.matches
    assert svc is not None
    roots = {"svc": svc, "coach": coach_of(world.bot), "panes": panes(world.bot),
             "bot.in_flight": getattr(world.bot, "in_flight", None)}
    wal = db.with_name(db.name + "-wal")
    return {
        "kept": kept(roots),
        "matches alive": sum(isinstance(o, LiveMatch) for o in gc.get_objects()),
        "tasks": len(asyncio.all_tasks()),
        "open files": len(os.listdir("/proc/self/fd")),
        "child processes": children(),
        "db": database(db),
        "wal": wal.stat().st_size if wal.exists() else 0,
        "memory": tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(True, f"{p}*") for p in OURS]),
        "simcord's attachments": attachments_kept(world),
    }


async def _resign(world: World) -> None:
    ask = await world.alice.slash(world.channel, "umtali resign")
    button = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    assert (await world.alice.click(ask.response, custom_id=button)).acknowledged
    await flush(world)


async def _moves(world: World, live: LiveMatch, n: int) -> None:
    for _ in range(n):
        if live.over:
            return
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)


async def one_round(world: World, finish: bool) -> dict[str, int]:
    """Six matches and challenges ended, each its own way (and one played out)."""
    svc = world.bot.matches
    assert svc is not None
    ended: collections.Counter[str] = collections.Counter()
    live = await start_match(world)
    await _moves(world, live, 3)
    await _resign(world)
    ended["resigned"] += live.over
    world.clock.advance(DAY)  # the practice cooldown
    live = await start_practice(world)
    await _moves(world, live, 2)
    panel = next((m for m in world.alice.user.dm_channel.history()
                  if m.id == live.dm_message_ids[0]), None)
    hint = f"umtali:m:{live.id}:hint"
    if not live.over and panel is not None and hint in custom_ids(panel):
        await world.alice.user.click(panel, custom_id=hint)
    await _resign(world)
    ended["practice resigned"] += live.over
    live = await start_match(world)
    await _moves(world, live, 2)
    for _ in range(4):  # the turn's time, then the time-up question's if its control asks
        world.clock.advance(3 * DAY)
        await svc.check_timers(now=world.clock.now)
        await flush(world)
    ended["forfeited"] += live.over
    live = await start_match(world)
    await _moves(world, live, 1)
    ended["cancelled"] += await svc.abandon(live, "cancelled")
    await flush(world)
    offered = await challenge(world, world.alice, world.bob)
    withdraw = next(c for c in custom_ids(offered.response) if c.endswith(":decline"))
    assert (await world.alice.click(offered.response, custom_id=withdraw)).acknowledged
    ended["challenge withdrawn"] += 1
    await challenge(world, world.alice, world.carol)
    world.clock.advance(3 * DAY)
    await svc.check_timers(now=world.clock.now)
    ended["challenge expired"] += 1
    if finish:
        world.clock.advance(DAY)  # the practice cooldown
        live = await start_practice(world)
        await play_out(world, live)
        await coach_of(world.bot).idle()
        ended["practice finished"] += live.over
    await flush(world)
    # discord.py's views of the clicks time out after 180 s.
    await world.env.advance_time(181)
    assert not svc.matches, "a match still held at the end of a round"
    return ended


def report(first: dict[str, Any], last: dict[str, Any], matches: int, took: float,
           ended: collections.Counter[str]) -> None:
    per = 100 / matches
    print(f"{matches} matches ended in {took:.0f} s: "
          + ", ".join(f"{n} {how}" for how, n in ended.items()))
    print("In memory, after the warm-up -> after the last round (what changed):")
    grew = [(k, first["kept"].get(k, 0), n) for k, n in sorted(last["kept"].items())
            if n != first["kept"].get(k, 0)]
    for k, a, b in grew:
        print(f"  {k}: {a} -> {b}")
    if not grew:
        print("  nothing")
    for what in ("matches alive", "tasks", "open files", "child processes"):
        print(f"  {what}: {first[what]} -> {last[what]}")
    stats = last["memory"].compare_to(first["memory"], "lineno")
    grown = sum(s.size_diff for s in stats)
    held = last["simcord's attachments"] - first["simcord's attachments"]
    print(f"  allocated in the bot's code and still alive: {grown / 1024:+.0f} KiB, mostly "
          f"what SimCord keeps of its posts (every picture: {held / 1024:+.0f} KiB; every "
          "message's text); the largest:")
    for s in stats[:5]:
        frame = s.traceback[0]
        print(f"    {Path(frame.filename).relative_to(ROOT)}:{frame.lineno}: "
              f"{s.size_diff / 1024:+.1f} KiB, {s.count_diff:+d} blocks")
    print("The database, rows (bytes) per 100 matches ended, and in all:")
    for table, (rows, size) in sorted(last["db"].items()):
        rows0, size0 = first["db"].get(table, (0, 0))
        if rows != rows0 or size != size0:
            print(f"  {table}: {(rows - rows0) * per:+.0f} rows "
                  f"({(size - size0) * per / 1024:+.0f} KiB); {rows} rows, {size / 1024:.0f} KiB")
    print(f"  WAL: {first['wal'] / 1024:.0f} KiB -> {last['wal'] / 1024:.0f} KiB")


async def run(rounds: int, finish_every: int, workdir: Path) -> None:
    db = workdir / "umtali.sqlite3"
    # A hand's review searches for seconds in the workers: small budgets, as in the tests.
    Coach.budget = Coach.search = 200
    clock = Clock()
    bot = UmtaliBot(Settings(token="bench", db_path=db), timers=False, computer_pause=0,
                    clock=clock)
    async with simcord.run(bot, settle_timeout=120, check_errors=False) as env:
        guild = env.create_guild("Railway Club")
        channel = guild.create_text_channel("games")
        ada, ben, cy = (guild.add_member(env.create_user(name)) for name in ("ada", "ben", "cy"))
        world = World(env, guild, channel, ada, ben, cy, clock)
        tracemalloc.start()
        ended: collections.Counter[str] = collections.Counter()
        for _ in range(WARM_UP):
            await one_round(world, finish=finish_every > 0)
        first = snapshot(world, db)
        t0 = time.perf_counter()
        for i in range(rounds):
            ended += await one_round(world, finish=finish_every > 0
                                     and (i + 1) % finish_every == 0)
            world.tables.clear()
        took = time.perf_counter() - t0
        last = snapshot(world, db)
        tracemalloc.stop()
        report(first, last, sum(n for how, n in ended.items() if "challenge" not in how),
               took, ended)
        assert bot.matches is not None
        await bot.matches.close()
        await bot.matches.store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20,
                        help="rounds after the warm-up, five matches each (default 20)")
    parser.add_argument("--finish-every", type=int, default=10,
                        help="a practice session played to its end every this many rounds "
                             "(0: never; default 10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args.rounds, args.finish_every, Path(tmp)))


if __name__ == "__main__":
    main()
