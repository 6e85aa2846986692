"""The loopback tests' own change to the database (``write``) made while the bot in the same
process is inside a transaction that needs the event loop to commit: CI saw such a change,
made on the loop's thread, wait out SQLite's timeout ("database is locked") as the bot's
commit waited on the loop. ``write`` waits off the loop, the bot commits, the change lands."""

from __future__ import annotations

import asyncio
from pathlib import Path

from data.db import Database
from tests.loopback.driver import query, write


async def test_a_change_waits_for_a_transaction_the_loop_must_finish(tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    db = await Database.open(path)
    try:
        inside, done = asyncio.Event(), asyncio.Event()

        async def bot_saving() -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('bot', 'v')")
                inside.set()
                # The rest of the save comes back through the loop.
                await asyncio.sleep(0.3)
                await tx.execute("UPDATE meta SET value = 'saved' WHERE key = 'bot'")
            done.set()

        saving = asyncio.create_task(bot_saving())
        await inside.wait()
        await write(path, "INSERT INTO meta (key, value) VALUES ('test', ?)", "v")
        await saving
        assert done.is_set()
        rows = query(path, "SELECT key, value FROM meta WHERE key IN ('bot', 'test') "
                           "ORDER BY key")
        assert [tuple(r) for r in rows] == [("bot", "saved"), ("test", "v")]
    finally:
        await db.close()
