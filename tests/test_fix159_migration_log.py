"""review141: a new database is made in one go, so its log says so in one line ("database
created at schema N"), not one "migrated to schema N" line per migration; a database upgraded
from an older schema still logs each step it took."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from data.db import Database
from data.migrations import MIGRATIONS


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "data.db"]


async def test_a_new_database_logs_one_line(empty_target: str | Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="data.db"):
        db = await Database.open(empty_target)
        await db.close()
    assert said(caplog) == [f"database created at schema {len(MIGRATIONS)}"]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="data.db"):  # opened again: nothing to do
        db = await Database.open(empty_target)
        await db.close()
    assert said(caplog) == []


async def test_an_older_database_logs_each_step(empty_target: str | Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    old = len(MIGRATIONS) - 3
    db = await Database.open(empty_target, schema=old)
    await db.close()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="data.db"):
        db = await Database.open(empty_target)
        try:
            assert await db.schema_version() == len(MIGRATIONS)
        finally:
            await db.close()
    assert said(caplog) == [f"database migrated to schema {n}"
                            for n in range(old + 1, len(MIGRATIONS) + 1)]
