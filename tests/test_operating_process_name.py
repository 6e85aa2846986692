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

from data.process_name import NameTaken, hold_name
from tests.loopback.driver import play_out, query, start_session
from tests.loopback.harness import ROOT, BotProcess, bot_process


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


async def test_one_name_is_held_once_on_a_database(store_target: str | Path) -> None:
    first = await hold_name(store_target, "main")
    try:
        with pytest.raises(NameTaken, match="another bot process named 'main'"):
            await hold_name(store_target, "main")
        # Another name is another process.
        other = await hold_name(store_target, "shards-1")
        await other.release()
    finally:
        await first.release()
    again = await hold_name(store_target, "main")
    await again.release()


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
