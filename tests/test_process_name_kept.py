"""A process's name (and shards) on PostgreSQL is held by session advisory locks on a connection
of its own: when that connection drops (the server restarted, failed over, or ended it), the
locks go with it. The process takes them back on a new connection within seconds, so that a
second process started under its name is still refused; should another process have taken the
name meanwhile, it says so at ERROR (docs/processes.md, "Names")."""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest

from data import process_name
from data.process_name import NameTaken, hold_name

ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


async def _cut(url: str, name: str) -> None:
    """The server ends the connection holding ``name``'s locks (as a restart would)."""
    admin = await asyncpg.connect(url)
    try:
        ended = await admin.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = $1", f"umtali {name}")
        assert ended == 1
    finally:
        await admin.close()


async def _until(check: object, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if callable(check) and await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never")


@ON_POSTGRESQL
async def test_a_name_whose_connection_dropped_is_taken_back(
        store_target: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(process_name, "KEEP_EVERY", 0.1, raising=False)
    caplog.set_level(logging.WARNING, logger="data.process_name")
    held = await hold_name(store_target, "shards-0", count=2, shards=(0,))
    try:
        await _cut(store_target, "shards-0")

        async def taken_back() -> bool:
            try:
                again = await hold_name(store_target, "shards-0", count=2, shards=(0,))
            except NameTaken:
                return True
            await again.release()
            return False

        async def said_taken_back() -> bool:  # all its locks held again
            return any("connection, and taken back" in r.getMessage() for r in caplog.records)

        # Within moments the name is held again (waited for, not probed: a probe while it is
        # free would take it), and a second process is refused, by name ...
        await _until(said_taken_back)
        assert await taken_back()
        # ... and by shard.
        with pytest.raises(NameTaken, match="runs shard 0"):
            await hold_name(store_target, "spare", count=2, shards=(0,))
    finally:
        await held.release()
    # Released, the name is free.
    free = await hold_name(store_target, "shards-0", count=2, shards=(0,))
    await free.release()


@ON_POSTGRESQL
async def test_a_name_taken_by_another_process_meanwhile_is_reported(
        store_target: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(process_name, "KEEP_EVERY", 0.5, raising=False)
    held = await hold_name(store_target, "shards-0", count=2, shards=(0,))
    second = None
    try:
        await _cut(store_target, "shards-0")
        # Another process starts under the same name before the first took it back.
        for _ in range(200):
            try:
                second = await hold_name(store_target, "shards-0", count=2, shards=(0,))
                break
            except NameTaken:
                await asyncio.sleep(0.01)
        assert second is not None

        async def reported() -> bool:
            return any(r.levelno == logging.ERROR and "another bot process named 'shards-0'"
                       in r.getMessage() for r in caplog.records)

        await _until(reported)
        caplog.clear()  # the ERROR is this test's point
    finally:
        await held.release()
        if second is not None:
            await second.release()


class _Stalled:
    """The locks' connection as a stalled network leaves it: questions go unanswered, and
    closing it sends no word, so the server keeps its session (and the locks) for now."""

    def __init__(self, real: object) -> None:
        self.real = real

    def is_closed(self) -> bool:
        return False

    async def fetchval(self, *args: object, timeout: float = 1.0) -> None:
        await asyncio.sleep(timeout)
        raise TimeoutError

    def terminate(self) -> None:
        pass


@ON_POSTGRESQL
async def test_a_stalled_connection_is_replaced_without_a_false_error(
        store_target: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    # Its session still held the locks on the server: taking them back failed, and said at
    # ERROR that another process ran under this name, until the server noticed.
    monkeypatch.setattr(process_name, "KEEP_EVERY", 0.2, raising=False)
    caplog.set_level(logging.WARNING, logger="data.process_name")
    held = await hold_name(store_target, "shards-0", count=2, shards=(0,))
    real = held._conn
    try:
        held._conn = _Stalled(real)

        async def taken_back() -> bool:
            return any("taken back" in r.getMessage() for r in caplog.records)

        await _until(taken_back)
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, errors
        with pytest.raises(NameTaken, match="another bot process named 'shards-0'"):
            await hold_name(store_target, "shards-0", count=2, shards=(0,))
        assert held._conn is not real and not held._conn.is_closed()
    finally:
        await held.release()
        real.terminate()


class _Answering:
    """A lock connection that answers (the name held again): the loop's ``SELECT 1``."""

    def is_closed(self) -> bool:
        return False

    async def fetchval(self, query: str, timeout: float) -> int:
        return 1


async def test_an_outage_is_said_once_and_its_end_once(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A database down for a minute tried every few seconds said so once, and once when the
    name is held again: not a WARNING every 5 s for as long as it lasts (review130)."""
    monkeypatch.setattr(process_name, "KEEP_EVERY", 0.01, raising=False)
    caplog.set_level(logging.WARNING, logger="data.process_name")
    tries = 0
    done = asyncio.Event()

    async def take(backend: process_name.Backend | None
                   ) -> tuple[object, process_name.Backend]:
        nonlocal tries
        tries += 1
        if tries <= 12:
            raise OSError(2, "No such file or directory")
        done.set()
        return _Answering(), (1, None)

    held = process_name.HeldName(take=take)
    try:
        await asyncio.wait_for(done.wait(), 5)
        await asyncio.sleep(0.05)
    finally:
        await held.release()
    said = [r.getMessage() for r in caplog.records]
    assert sum("taking it back" in m for m in said) == 1, said
    assert sum("and taken back" in m for m in said) == 1, said
