"""``make copy-to-postgres`` copies the database the bot uses (UMTALI_DB_PATH, from the
environment or .env), not whatever lies at the default path, and never echoes the URL."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from data.copy_to_postgres import CopyError, copy
from data.db import DatabaseUnusable
from data.process_name import hold_name
from data.store import Store
from tests.test_copy_to_postgres import ON_POSTGRESQL, ROOT, _full_sqlite, _tables


def _command(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UMTALI_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "data.copy_to_postgres", *args], env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


@ON_POSTGRESQL
async def test_without_a_file_the_bots_own_database_is_copied(
        tmp_path: Path, empty_target: str) -> None:
    # The bot's database lives elsewhere (.env); an old, empty one sits at the default path.
    ours = tmp_path / "var" / "bot.sqlite3"
    ours.parent.mkdir()
    await _full_sqlite(ours)
    stale = await Store.open(tmp_path / "data" / "umtali.sqlite3")
    await stale.close()
    (tmp_path / ".env").write_text(f"UMTALI_DB_PATH={ours}\n")
    done = await asyncio.to_thread(_command, tmp_path, empty_target)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"copied {ours} into postgresql://")
    assert await _tables(empty_target) == await _tables(ours)


def test_make_leaves_the_file_to_the_settings_and_keeps_the_password_off_the_console() -> None:
    url = "postgresql://umtali:s3cret@db/umtali"
    shown = subprocess.run(["make", "-n", "--no-print-directory", "copy-to-postgres",
                            f"TO={url}", "VPY=python"], cwd=ROOT, capture_output=True,
                           text=True, timeout=30, check=True).stdout
    line = next(x for x in shown.splitlines() if "data.copy_to_postgres" in x)
    assert "umtali.sqlite3" not in line, line
    # Echoed commands start without '@'; make -n prints them all, so look at the Makefile.
    recipe = (ROOT / "Makefile").read_text().split("\ncopy-to-postgres:", 1)[1]
    assert "\t@$(VPY) -m data.copy_to_postgres" in recipe.split("\n\n", 1)[0]
    given = subprocess.run(["make", "-n", "copy-to-postgres", f"TO={url}", "FROM=x.sqlite3",
                            "VPY=python"], cwd=ROOT, capture_output=True, text=True,
                           timeout=30, check=True).stdout
    assert "'x.sqlite3'" in given


def _words(line: str) -> list[str]:
    """The arguments the shell gives the command make printed (``python`` its first word)."""
    done = subprocess.run(["bash", "-c", 'python() { printf "%s\\0" "$@"; }; ' + line],
                          capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.split("\0")[:-1]


@pytest.mark.parametrize("password", ["ab$cd", "a$$b", 'q"w', "it's", "a`id`b", "x$(TO)y"])
def test_make_passes_the_url_and_paths_exactly_as_given(password: str) -> None:
    # A generated password holds $ or quotes: make read ab$cd as ab + $c + d, and the shell's
    # double quotes expanded $ and `, so the copy's login was refused with a mangled password.
    url = f"postgresql://umtali:{password}@db/umtali"
    path = f"/srv/my {password}.sqlite3"
    shown = subprocess.run(["make", "-n", "--no-print-directory", "copy-to-postgres",
                            f"TO={url}", f"FROM={path}", "VPY=python"], cwd=ROOT,
                           capture_output=True, text=True, timeout=30, check=True).stdout
    line = next(x for x in shown.splitlines() if "data.copy_to_postgres" in x)
    assert _words(line)[2:] == [path, url]
    shown = subprocess.run(["make", "-n", "--no-print-directory", "backup", f"DEST={path}",
                            "VPY=python"], cwd=ROOT, capture_output=True, text=True,
                           timeout=30, check=True).stdout
    line = next(x for x in shown.splitlines() if "data.backup" in x)
    assert _words(line)[2:] == [path]


async def test_a_database_a_bot_runs_on_is_not_copied(tmp_path: Path) -> None:
    source = tmp_path / "umtali.sqlite3"
    await _full_sqlite(source)
    bot = await hold_name(source, "shards-1", count=2, shards=(1,))
    try:
        with pytest.raises(CopyError, match=f"a bot process \\(pid {os.getpid()}\\) is "
                                            "running on .*: stop it first"):
            await copy(source, "postgresql://umtali@127.0.0.1:9/umtali")
    finally:
        await bot.release()
    # Stopped, it may be copied (here: to a server that is not there).
    with pytest.raises(DatabaseUnusable, match="cannot be reached"):
        await copy(source, "postgresql://umtali@127.0.0.1:9/umtali")


@pytest.mark.parametrize("replace", ["0", "no", "false"])
def test_replace_other_than_1_is_refused_not_read_as_replace(replace: str) -> None:
    # make's $(if) takes any non-empty value as true: REPLACE=0 emptied PostgreSQL's tables.
    done = subprocess.run(["make", "-n", "--no-print-directory", "copy-to-postgres",
                           "TO=postgresql://umtali@db/umtali", f"REPLACE={replace}",
                           "VPY=python"], cwd=ROOT, capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode != 0
    assert "--replace" not in done.stdout
    assert "REPLACE=1 empties the PostgreSQL database first" in done.stderr
    assert f"not REPLACE={replace}." in done.stderr


def test_replace_1_passes_replace() -> None:
    done = subprocess.run(["make", "-n", "--no-print-directory", "copy-to-postgres",
                           "TO=postgresql://umtali@db/umtali", "REPLACE=1", "VPY=python"],
                          cwd=ROOT, capture_output=True, text=True, timeout=30, check=True)
    line = next(x for x in done.stdout.splitlines() if "data.copy_to_postgres" in x)
    assert line.endswith(" --replace"), line
