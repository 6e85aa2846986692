"""The bot started on a PostgreSQL database it cannot use says what to mend, in one sentence:
a database that does not exist, a login refused. (Its name is held before the store opens the
database, and that connection spoke first: "cannot be reached" for either, which sends an
admin looking for a server that runs.)"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg_server import PgServer

ROOT = Path(__file__).resolve().parents[1]
ON_POSTGRESQL = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])


def _start(cwd: Path, url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")}
    env |= {"DISCORD_TOKEN": "tok", "PYTHONPATH": str(ROOT), "UMTALI_DATABASE_URL": url}
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


@ON_POSTGRESQL
async def test_a_missing_database_is_named_at_start(
        postgres_server: PgServer, backend: str, tmp_path: Path) -> None:
    url = postgres_server.url("no_such_database")
    done = await asyncio.to_thread(_start, tmp_path, url)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: the database postgresql://") and \
        "/no_such_database?host=" in done.stderr
    assert "does not exist" in done.stderr
    assert "create it (createdb) or correct UMTALI_DATABASE_URL." in done.stderr
    assert "cannot be reached" not in done.stderr
    assert done.stderr.count("\n") == 1


@ON_POSTGRESQL
async def test_a_refused_login_is_named_at_start(
        postgres_server: PgServer, backend: str, tmp_path: Path) -> None:
    # A user the server does not know: its login is refused (the throwaway server trusts
    # every known user, so a wrong password cannot be shown here; asyncpg raises the same
    # class for both).
    url = postgres_server.url("postgres").replace("postgresql://umtali@",
                                                  "postgresql://nobody:s3cret@")
    done = await asyncio.to_thread(_start, tmp_path, url)
    assert done.returncode == 2, done.stderr
    assert "refused the bot's login" in done.stderr
    assert "check the user and password in UMTALI_DATABASE_URL." in done.stderr
    assert "cannot be reached" not in done.stderr and "s3cret" not in done.stderr
    assert done.stderr.count("\n") == 1
