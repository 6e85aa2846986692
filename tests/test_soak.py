"""The fault soak (tests/loopback/soak.py, bench/soak.py) on a few fixed seeds, small enough for
the suite: short sessions (each resigned after a few dozen steps), a fault at one step in five, its
real-time waits and the bot's database busy timeout halved (``Soak``'s ``pace``: the busy
timeout, 2.5 s, still past the 2 s after which a move's answer is deferred).
A failure names the seed and the step; ``bench/soak.py --seed N`` runs longer sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.harness import loopback_server
from tests.loopback.saved_db import done_with, query
from tests.loopback.soak import Soak

pytestmark = pytest.mark.soak


@pytest.mark.parametrize(("seed", "processes"), [(1, 1), (2, 1), (3, 2)])
async def test_a_seeded_fault_soak_breaks_no_invariant(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int, processes: int) -> None:
    """``processes``: 2, the bot as two processes on one database, a shard each."""
    await soaked(monkeypatch, tmp_path, seed, processes)


@pytest.mark.parametrize("backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def test_two_processes_on_postgresql_break_no_invariant(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store_target: str) -> None:
    """As several processes are run: on one PostgreSQL database."""
    try:
        await soaked(monkeypatch, tmp_path, 4, 2, store_target)
    finally:
        done_with(store_target)


async def soaked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int, processes: int,
                 database: str | None = None) -> None:
    said: list[str] = []
    async with loopback_server(monkeypatch) as server:
        soak = Soak(server, tmp_path, seed, rate=0.2, say=said.append, length=(15, 40),
                    practice=0.5, processes=processes, database=database, pace=0.5)
        report = await soak.run(2)
    assert not report.broken, "\n".join(report.broken)
    assert report.sessions == 2 and sum(report.ended.values()) == 2
    assert sum(report.faults.values()) >= 3, report.faults
    # Each process made calls of its own (the DM panels' clicks are shard 0's).
    senders = {c.user_agent.rpartition("umtali-process/")[2] for c in server.calls
               if "umtali-process/" in c.user_agent}
    assert senders == ({"shards-0", "shards-1"} if processes == 2 else set()), senders
    if database is not None:
        # The sessions were saved there, and nowhere else.
        assert len(query(database, "SELECT id FROM matches")) == 2
        assert not (tmp_path / "umtali.sqlite3").exists()
