"""A SQLite file that cannot be opened (a folder, no permission) is one sentence: no thread's
traceback after it once the bot's event loop closed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_OPEN = """
import asyncio, sys
from data.db import DatabaseUnusable
from data.sqlite_db import SqliteDatabase

async def main() -> None:
    try:
        await SqliteDatabase.open(sys.argv[1])
    except DatabaseUnusable as e:
        print(f"error: {e}", file=sys.stderr)

# The thread's answer races the loop's closing: tried a few times.
for _ in range(10):
    asyncio.run(main())
"""


def test_a_file_sqlite_cannot_open_leaves_no_traceback(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _OPEN, str(tmp_path)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stderr == (f"error: the database {tmp_path} cannot be opened (unable to open "
                           "database file).\n") * 10
