"""fix168 (review144 on fix162): ``/umtali display`` lists whose challenges the member stopped,
read after their new look was saved. That read failing (the database busy for a moment)
answered "try again" though the change went through. Now the change is confirmed, and the
list said to be unread for now. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.discord_helpers import World
from tests.test_fix162_stop_challenges import _cy_stops_ada, _said

UNREAD = ("The list of members whose challenges you stopped could not be read just now: "
          "`/umtali display` shows it again in a moment.")


def _pictures(db_path: Path, user_id: int) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT pictures FROM member_prefs WHERE user_id = ?",
                             (user_id,)).fetchone()[0])


def _reads_locked(world: World, monkeypatch: pytest.MonkeyPatch, table: str) -> None:
    """Every read of ``table`` refused as SQLite refuses it while another writer holds it."""
    assert world.bot.matches is not None
    db = world.bot.matches.store.db
    real = db.fetchall

    async def locked(sql: str, params: Sequence[object] = ()) -> Any:
        if table in sql:
            raise sqlite3.OperationalError("database is locked")
        return await real(sql, params)

    monkeypatch.setattr(db, "fetchall", locked)


async def test_the_stops_unread_after_a_change_confirm_the_change(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, locales: dict[int, str]) -> None:
    await _cy_stops_ada(world, db_path)
    _reads_locked(world, monkeypatch, "challenge_stops")
    shown = await world.carol.slash(world.channel, "umtali display", pictures=False)
    assert shown.ephemeral and _said(shown) == (
        "Your panels show your hand as text alone, without pictures.\n" + UNREAD), _said(shown)
    assert _pictures(db_path, world.carol.id) == 0
    locales[world.carol.id] = "ru"
    shown = await world.carol.slash(world.channel, "umtali display", four_colour=True)
    assert "Список участников, чьи вызовы вы не принимаете, сейчас прочитать не удалось" in \
        _said(shown), _said(shown)
    locales[world.carol.id] = "en-US"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    monkeypatch.undo()
    shown = await world.carol.slash(world.channel, "umtali display")
    assert f"<@{world.alice.id}>" in _said(shown) and UNREAD not in _said(shown)


async def test_the_matches_unread_after_a_change_confirm_the_change(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The member's matches, read after the look was saved (to redraw those held elsewhere),
    failing for a moment: the change is confirmed all the same, not "try again" (their next
    move shows the new look there)."""
    _reads_locked(world, monkeypatch, "active_players")
    shown = await world.carol.slash(world.channel, "umtali display", pictures=False)
    assert shown.ephemeral and _said(shown) == (
        "Your panels show your hand as text alone, without pictures."), _said(shown)
    assert _pictures(db_path, world.carol.id) == 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
