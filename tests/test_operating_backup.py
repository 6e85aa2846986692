"""``make backup DEST=...`` as an admin types it: a folder still to be made (a trailing
slash), and a name with a space."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from data.store import Store
from tests.test_backup import ROOT, _command, _committed, _read


async def test_a_trailing_slash_is_a_folder_made_for_the_backup(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("UMTALI_DB_PATH=live.sqlite3\n")
    store = await Store.open(tmp_path / "live.sqlite3")
    try:
        await _committed(store.db, "a")
        done = await asyncio.to_thread(_command, tmp_path, "nightly/")
    finally:
        await store.close()
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "nightly").is_dir(), "not a file named nightly"
    [copy] = (tmp_path / "nightly").glob("live-*Z.sqlite3")
    assert _read(copy) == ("ok", "delete", ["a"])


def test_make_passes_a_destination_with_a_space_whole() -> None:
    shown = subprocess.run(["make", "-n", "backup", "DEST=my backups/", "VPY=python"],
                           cwd=ROOT, capture_output=True, text=True, timeout=30,
                           check=True).stdout
    line = next(x for x in shown.splitlines() if "data.backup" in x)
    assert line.endswith("-m data.backup 'my backups/'"), line
    empty = subprocess.run(["make", "-n", "backup", "VPY=python"], cwd=ROOT,
                           capture_output=True, text=True, timeout=30, check=True).stdout
    assert next(x for x in empty.splitlines() if "data.backup" in x).rstrip().endswith(
        "-m data.backup")
