"""fix154: ``/umtali-admin end-match`` asks before it ends. A suggestion picked by mistake
("#123 · Ada vs Ben" next to "#124 · Ada vs Bo") would end the wrong match for good: the
command names the match fully, privately, with **End it** and **Keep it**; only End it ends
it, by the very path the command took before. SimCord, a real SQLite file (the clicks from
elsewhere, after a restart, late: tests/test_admin_end_confirm_clicks.py)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    manager,
    start_match,
    start_practice,
    thread_of,
)
from tests.processes.helpers import main_of
from tests.test_admin_end_match import ENDED, _db


def _content(result: Any) -> str:
    return str(result.response.content or "")


def _button(message: Any, action: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(f":{action}"))


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_command_asks_and_end_it_ends(world: World, db_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    boss = manager(world)
    live = await start_match(world)
    world.clock.advance(3 * 3600 + 60)
    ask = await boss.slash(world.channel, "umtali-admin end-match", member=world.alice)
    assert ask.ephemeral, ask
    assert _content(ask) == (f"Match #{live.id} · ada vs ben · rated · started 3 hours ago: end "
                             "it with no result? Nobody wins and no rating changes."), _content(ask)
    # Asked, nothing ended yet.
    await flush(world)
    assert not live.over
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]
    ids = custom_ids(ask.response)
    assert ids == [f"umtali:end:{live.id}:{boss.user.id}:end",
                   f"umtali:end:{live.id}:{boss.user.id}:keep"], ids
    assert all(len(i) < 100 for i in ids)
    done = await boss.click(ask.response, custom_id=_button(ask.response, "end"))
    assert done.acknowledged
    await flush(world)
    # The question itself now says what happened, its buttons gone.
    assert _content(ask).startswith(f"Match #{live.id} is ended with no result"), _content(ask)
    assert custom_ids(ask.response) == []
    assert live.over and live.abandoned
    assert _db(db_path, "SELECT status, how, ended_by FROM matches") == [
        ("finished", "abandoned", boss.user.id)]
    assert [m for m in thread_of(world, live).history() if ENDED in (m.content or "")]
    assert not _errors(caplog)


async def test_keep_it_changes_nothing(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_practice(world)
    ask = await boss.slash(world.channel, "umtali-admin end-match", match=str(live.id))
    assert f"Match #{live.id} · ada vs " in _content(ask) and " · practice · " in \
        _content(ask), _content(ask)
    kept = await boss.click(ask.response, custom_id=_button(ask.response, "keep"))
    assert kept.acknowledged
    await flush(world)
    assert "nothing changed" in _content(ask) and f"#{live.id}" in _content(ask), _content(ask)
    assert custom_ids(ask.response) == []
    assert not live.over
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]


async def test_a_match_ended_meanwhile_is_left_as_it_ended(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Asked, then the player resigns before the admin's click: the click ends nothing, the
    resignation stands, the admin is told."""
    boss = manager(world)
    live = await start_match(world)
    ask = await boss.slash(world.channel, "umtali-admin end-match", member=world.alice)
    resign = await world.alice.slash(thread_of(world, live), "umtali resign")
    await world.alice.click(resign.response, custom_id=_button(resign.response, "resign"))
    await flush(world)
    assert live.over
    late = await boss.click(ask.response, custom_id=_button(ask.response, "end"))
    assert late.acknowledged
    await flush(world)
    assert "already over" in _content(ask) and custom_ids(ask.response) == [], _content(ask)
    assert _db(db_path, "SELECT how, winner_seat, ended_by FROM matches") == [
        ("resigned", 1, None)]
    assert not [m for m in thread_of(world, live).history() if ENDED in (m.content or "")]
    assert not _errors(caplog)


async def test_only_the_match_asked_about_is_ended(world: World, db_path: Path) -> None:
    """The member's match changes between the question and the click (it ended, another
    started): the click ends the match it named, which is over, not the member's new one."""
    boss = manager(world)
    first = await start_match(world)
    ask = await boss.slash(world.channel, "umtali-admin end-match", member=world.alice)
    svc = main_of(world)
    assert await svc.resign(first, 0)
    await flush(world)
    second = await start_match(world)
    assert second.id != first.id
    await boss.click(ask.response, custom_id=_button(ask.response, "end"))
    await flush(world)
    assert "already over" in _content(ask), _content(ask)
    assert not second.over
    assert _db(db_path, "SELECT id, status FROM matches ORDER BY id") == [
        (first.id, "finished"), (second.id, "active")]


async def test_the_checks_still_answer_at_once(world: World, db_path: Path) -> None:
    """No match, or the admin's own rated one: answered as before, no question asked."""
    boss = manager(world)
    await start_match(world)
    none = await boss.slash(world.channel, "umtali-admin end-match", member=world.carol)
    assert "no match in play" in _content(none) and custom_ids(none.response) == []
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]


async def test_in_russian(world: World, db_path: Path, locales: dict[int, str]) -> None:
    boss = manager(world)
    locales[boss.user.id] = "ru"
    live = await start_match(world)
    ask = await boss.slash(world.channel, "umtali-admin end-match", member=world.alice)
    said = _content(ask)
    assert f"Матч #{live.id} · ada — ben" in said and "без результата" in said, said
    labels = [c["label"] for row in ask.response.components for c in row["components"]]
    assert labels == ["Завершить", "Оставить"], labels
    await boss.click(ask.response, custom_id=_button(ask.response, "end"))
    await flush(world)
    assert "без результата" in _content(ask) and live.over, _content(ask)
    again = await boss.slash(world.channel, "umtali-admin end-match", match=str(live.id))
    assert "уже закончился" in _content(again), _content(again)


async def test_a_failed_save_at_the_click_leaves_the_question(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails as End it is clicked: told privately, as the command told it
    before, nothing changed; the question keeps its buttons, to be clicked again."""
    boss = manager(world)
    live = await start_match(world)
    svc = main_of(world)
    ask = await boss.slash(world.channel, "umtali-admin end-match", member=world.alice)
    asked = _content(ask)

    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(svc.store, "abandon_match", failing)
    failed = await boss.click(ask.response, custom_id=_button(ask.response, "end"))
    assert _content(failed) == ("The match could not be ended (the database failed): nothing "
                                "changed. Try again in a moment."), _content(failed)
    assert _content(ask) == asked and len(custom_ids(ask.response)) == 2
    assert not live.over
    monkeypatch.undo()
    await boss.click(ask.response, custom_id=_button(ask.response, "end"))
    await flush(world)
    assert live.over and "ended with no result" in _content(ask), _content(ask)
