"""The leases renewed beside the timer check (``Owners.renew_beside``): a check held up (by
Discord: each call may take its 30 s, and discord.py tries again) keeps the process's matches
from other processes, until it has been under way ``STUCK`` seconds; a stop gives them up for
good. The bot in this process over the loopback Discord, its timer loop running, the lease and
its renewal period shortened."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from cogs.umtali import owners
from cogs.umtali.service import MatchService
from cogs.umtali.startup import run_timers
from data.leases import Claimed, Leases
from tests.discord_helpers import Clock
from tests.loopback.driver import start_session, until
from tests.loopback.harness import bot_in_process, loopback_server

LEASE = 1.0


async def _lease(svc: MatchService, match_id: int) -> tuple[str, float]:
    row = await svc.store.db.fetchone("SELECT owner, lease_until FROM matches WHERE id = ?",
                                      (match_id,))
    assert row is not None
    return str(row["owner"]), float(row["lease_until"])


@asynccontextmanager
async def _check_held(monkeypatch: pytest.MonkeyPatch, tmp_path: Path
                      ) -> AsyncIterator[tuple[MatchService, int, asyncio.Event]]:
    """A session begun, the timer loop running, and its check held up from its first tick
    on (a step of it that waits, as a Discord call that never answers would, until the event
    is set): the service, the match and that event."""
    monkeypatch.setattr(owners, "LEASE", LEASE)
    monkeypatch.setattr(owners, "RENEW_EVERY", LEASE / 4)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved = await start_session(server, db, server.add_member("ada"),
                                    server.add_member("ben"))
        svc = bot.matches
        assert svc is not None
        await svc.flush()
        entered, go = asyncio.Event(), asyncio.Event()

        async def held() -> None:
            entered.set()
            await go.wait()
        # The retry of failed server removals: one of the check's steps, every tenth tick
        # from the first.
        monkeypatch.setattr(svc.removals, "retry", held)
        timers = asyncio.create_task(run_timers(bot, every=0.05))
        try:
            await asyncio.wait_for(entered.wait(), 10)
            yield svc, saved.id, go
        finally:
            go.set()
            timers.cancel()
            await asyncio.gather(timers, return_exceptions=True)


async def test_a_timer_check_held_up_keeps_the_leases_renewed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _check_held(monkeypatch, tmp_path) as (svc, match_id, _):
        # The service's clock the test's, moved on a renewal period at a time: with a second
        # of real time, the loop held up by load a moment let the lease lapse.
        clock = Clock()
        monkeypatch.setattr(svc, "clock", clock)
        other = Leases(svc.store.db, "other")
        # Three leases long, the check never ending: each period's renewal comes, the lease
        # always ahead of the clock, and another process's claims take nothing.
        for _ in range(12):
            clock.advance(LEASE / 4)
            now = clock()
            for _ in range(400):
                owner, lease_until = await _lease(svc, match_id)
                if lease_until >= now + LEASE:
                    break
                await asyncio.sleep(0.05)
            assert owner == "main" and lease_until >= now + LEASE, "not renewed"
            assert await other.claim(now, now + LEASE) == []
        assert match_id in svc.matches


async def test_a_timer_check_under_way_too_long_lets_another_process_take_the_matches(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(owners, "STUCK", 1.0)
    caplog.set_level(logging.INFO, "cogs.umtali.owners")
    async with _check_held(monkeypatch, tmp_path) as (svc, match_id, go):
        other = Leases(svc.store.db, "other")
        # Renewed until the check has been under way a second, then left to lapse.
        claimed: list[Claimed] = []
        while not claimed:
            since = svc.owners.checking_since
            assert since is not None and svc.clock() < since + 10, "never let go"
            now = svc.clock()
            claimed = await other.claim(now, now + 60)
            await asyncio.sleep(0.1)
        assert [c.match_id for c in claimed] == [match_id]
        assert "leases are left to lapse" in caplog.text
        # The check ends: the next renewal finds the match held elsewhere and drops it.
        go.set()
        await until(lambda: match_id not in svc.matches, "the match taken over dropped")
        assert (await _lease(svc, match_id))[0] == "other"
        await until(lambda: "the leases are renewed" in caplog.text, "renewals going on")


async def test_leases_given_up_at_a_stop_are_renewed_no_more(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _check_held(monkeypatch, tmp_path) as (svc, match_id, _):
        # Renewed beside the held check: the lease moves on.
        _, first = await _lease(svc, match_id)
        await until(lambda: svc.clock() > first, "a lease period")
        assert (await _lease(svc, match_id))[1] > first
        await svc.owners.release()
        assert await _lease(svc, match_id) == ("main", 0.0)
        # Three renewal periods later, still given up: another process may take it at once.
        await asyncio.sleep(3 * LEASE / 4)
        assert await _lease(svc, match_id) == ("main", 0.0)
        svc.owners.renew_beside(0.05)  # the timer loop's next round: no renewals again
        await asyncio.sleep(3 * LEASE / 4)
        assert await _lease(svc, match_id) == ("main", 0.0)


async def test_a_check_still_running_after_the_release_takes_back_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The bot's stop cancels the timer loop without waiting for it, and a pause's judgement
    beside it (``startup._watch``) runs the tick too: one that runs on past the release
    renews and claims nothing (the lease given up, another process may take it at once)."""
    async with _check_held(monkeypatch, tmp_path) as (svc, match_id, _):
        await svc.owners.release()
        # A check (or a pause's judgement) under way as the bot stopped, a while later.
        await svc.owners.tick(svc.clock() + 2 * LEASE)
        assert await _lease(svc, match_id) == ("main", 0.0)
