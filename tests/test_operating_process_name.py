"""A second bot process under a name already running on the database is refused at start
(docs/processes.md, "Names"): it would hold, time and announce the same matches as the first."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from data.db import Database
from data.migrations import MIGRATIONS
from data.process_name import NameTaken, hold_name
from tests.loopback.driver import play_out, query, start_session
from tests.loopback.harness import ROOT, BotProcess, bot_process, loopback_server


async def test_a_second_bot_under_the_same_name_is_refused_and_the_first_plays_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        second_dir = tmp_path / "second"
        second_dir.mkdir()
        # ``make run`` in a terminal while the service runs: same .env, same database.
        second = BotProcess(server, db, second_dir)
        status = await second.run_to_exit()
        log = second.log.read_text(errors="replace")
        assert status == 2, log[-3000:]
        assert "another bot process named 'main' is running on the database" in log, log
        assert f"(pid {bot.proc.pid if bot.proc else '?'})" in log, log
        assert "Traceback" not in log, log[-3000:]
        # The first one never noticed.
        played = await play_out(server, db, saved.id, moves=6)
        assert played == 6
        assert query(db, "SELECT count(*) AS n FROM moves WHERE match_id = ?",
                     saved.id)[0]["n"] == played


async def test_a_process_with_a_shard_or_a_count_of_its_own_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"

    def process(name: str, count: str, ids: str) -> BotProcess:
        workdir = tmp_path / name
        workdir.mkdir()
        return BotProcess(server, db, workdir, env={"UMTALI_SHARD_COUNT": count,
                                                    "UMTALI_SHARD_IDS": ids})

    async with loopback_server(monkeypatch) as server:
        first = process("first", "2", "0")
        try:
            await first.start()
            # One process's count changed and not the other's: servers would get two sessions.
            recounted = process("recounted", "3", "2")
            assert await recounted.run_to_exit() == 2
            said = recounted.log.read_text(errors="replace")
            assert "with UMTALI_SHARD_COUNT=2, this one with UMTALI_SHARD_COUNT=3" in said, said
            overlapping = process("overlapping", "2", "0-1")
            assert await overlapping.run_to_exit() == 2
            said = overlapping.log.read_text(errors="replace")
            assert f"runs shard 0 on the database {db} (pid {first.proc and first.proc.pid})" \
                in said, said
            assert "Traceback" not in said
            # The bot's other half starts as ever.
            second = process("second", "2", "1")
            try:
                await second.start()
                assert second.proc is not None and second.proc.poll() is None
            finally:
                await second.stop()
            assert server.gateway.identified == [[0, 2], [1, 2]]
        finally:
            await first.stop()


async def test_one_name_and_one_shard_count_are_held_once_on_a_database(
        store_target: str | Path) -> None:
    first = await hold_name(store_target, "shards-0", count=2, shards=(0,))
    held = [first]
    try:
        with pytest.raises(NameTaken, match="another bot process named 'shards-0'"):
            await hold_name(store_target, "shards-0", count=2, shards=(0,))
        # Another name and another shard: the second process of the bot.
        held.append(await hold_name(store_target, "shards-1", count=2, shards=(1,)))
        with pytest.raises(NameTaken, match="another bot process runs shard 1 on"):
            await hold_name(store_target, "spare", count=2, shards=(1,))
        with pytest.raises(NameTaken, match=r"with UMTALI_SHARD_COUNT=2, this one with "
                                            r"UMTALI_SHARD_COUNT=4: every process"):
            await hold_name(store_target, "shards-2-3", count=4, shards=(2, 3))
        with pytest.raises(NameTaken, match=r"this one with no shards \(UMTALI_SHARD_COUNT "
                                            r"empty or 1\)"):
            await hold_name(store_target, "main")
    finally:
        for h in held:
            await h.release()
    # Let go: the bot may come back with other settings.
    plain = await hold_name(store_target, "main")
    await plain.release()
    auto = await hold_name(store_target, "auto", count=None, shards=None)
    try:
        with pytest.raises(NameTaken, match="with UMTALI_SHARD_COUNT=auto, this one with no "):
            await hold_name(store_target, "main")
    finally:
        await auto.release()


def test_a_killed_process_leaves_its_name_free(tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import asyncio, sys, time\n"
         "from data.process_name import hold_name\n"
         f"asyncio.run(hold_name({str(db)!r}, 'main'))\n"
         "print('held', flush=True)\n"
         "time.sleep(60)\n"],
        cwd=ROOT, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        with pytest.raises(NameTaken, match=f"pid {holder.pid}"):
            asyncio.run(hold_name(db, "main"))
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
        assert holder.stdout is not None
        holder.stdout.close()
    # SIGKILL: no code of its ran, and yet the name is free at once.
    held = asyncio.run(hold_name(db, "main"))
    asyncio.run(held.release())


async def test_a_newer_bot_under_a_running_name_is_refused_before_it_migrates(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``make run`` from a newer checkout while an older bot runs under the name: refused, and
    the database left at the older schema (migrated under it, the running bot could not start
    again: "newer than this bot knows")."""
    db = tmp_path / "umtali.sqlite3"
    older = len(MIGRATIONS) - 1
    running = await Database.open(db, schema=older)
    held = await hold_name(db, "main")
    try:
        async with loopback_server(monkeypatch) as server:
            workdir = tmp_path / "newer"
            workdir.mkdir()
            newer = BotProcess(server, db, workdir)
            assert await newer.run_to_exit() == 2
            log = newer.log.read_text(errors="replace")
            assert "another bot process named 'main' is running on the database" in log, log
            assert "Traceback" not in log, log[-3000:]
        assert await running.schema_version() == older
    finally:
        await held.release()
        await running.close()


async def test_a_database_folder_that_cannot_be_made_is_one_sentence(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    async with loopback_server(monkeypatch) as server:
        workdir = tmp_path / "bot"
        workdir.mkdir()
        bot = BotProcess(server, tmp_path / "file" / "umtali.sqlite3", workdir)
        assert await bot.run_to_exit() == 2
        log = bot.log.read_text(errors="replace")
        assert "which is a file, not a folder" in log and "Traceback" not in log, log[-3000:]
