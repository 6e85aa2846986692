"""A session whose count failed as it ended says on its final card that its ratings are not
counted yet; once a later sweep (the season tick, or the next start) counts it, the card shows
them: its table edited in place, never posted again."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest

from cogs.umtali import final_card
from cogs.umtali.final_card import RECOUNT_SHOWN_FOR
from cogs.umtali.live import LiveMatch
from cogs.umtali.records import count_backlog
from cogs.umtali.season_summaries import season_tick
from data import records
from data.models import PlayerStats
from data.season_queries import Seasons
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    start_match,
    start_practice,
    table_message,
    thread_of,
)

NOT_YET = "Ratings are not counted yet."


def broken(*args: object) -> PlayerStats:
    raise RuntimeError("stats on fire")


async def _resigned_uncounted(world: World, monkeypatch: pytest.MonkeyPatch,
                              practice: bool = False) -> LiveMatch:
    """ada resigns a session whose count fails as it ends (logged, left for a sweep)."""
    monkeypatch.setattr(records, "seat_stats", broken)
    live = await (start_practice(world) if practice else start_match(world))
    ask = await world.alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    await world.alice.click(ask.response, custom_id=yes)
    await flush(world)
    monkeypatch.undo()
    assert live.over
    return live


def _table(world: World, live: LiveMatch) -> Any:
    """The table message as the channel has it now."""
    return next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)


def _ratings(world: World, live: LiveMatch) -> str:
    card = _table(world, live).embeds[1].to_dict()
    return "\n".join(f["value"] for f in card.get("fields", []) if f["name"] == "Ratings")


async def test_a_session_counted_at_the_next_tick_shows_its_ratings_on_its_final_card(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _resigned_uncounted(world, monkeypatch)
    assert _ratings(world, live) == NOT_YET
    posted = len(thread_of(world, live).history())
    await season_tick(world.bot)
    await world.env.settle()
    store = world.bot.matches.store if world.bot.matches else None
    assert store is not None
    changes = await store.records.rating_changes(live.id)
    assert set(changes) == {0, 1}
    ratings = _ratings(world, live)
    for seat, (before, after) in changes.items():
        # (a negative rating with a true minus sign)
        assert f"{live.names[seat]}: {round(before, 1)} → {round(after, 1)}".replace(
            "-", "\u2212") in ratings
    # Edited in place, its buttons kept: nothing posted.
    assert len(thread_of(world, live).history()) == posted
    assert custom_ids(_table(world, live)) == [f"umtali:rm:{live.id}",
                                               f"umtali:rf:{world.guild.id}:{live.id}"]


async def test_a_session_counted_at_the_next_start_shows_its_ratings_too(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _resigned_uncounted(world, monkeypatch)
    await count_backlog(world.bot)  # what the cog does as it loads
    await world.env.settle()
    assert NOT_YET not in _ratings(world, live) and "→" in _ratings(world, live)


async def test_an_old_table_is_left_as_it_is(world: World,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _resigned_uncounted(world, monkeypatch)
    world.clock.advance(RECOUNT_SHOWN_FOR + 60)
    await season_tick(world.bot)
    await world.env.settle()
    assert _ratings(world, live) == NOT_YET
    store = world.bot.matches.store if world.bot.matches else None
    assert store is not None and await store.records.rating_changes(live.id)  # counted all the same


async def test_a_deleted_table_is_not_posted_again_and_nothing_is_an_error(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live = await _resigned_uncounted(world, monkeypatch)
    table = await table_message(world, live)
    thread = thread_of(world, live)
    await world.bot.get_partial_messageable(thread.id).get_partial_message(table.id).delete()
    posted = len(thread.history())
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await season_tick(world.bot)
        await world.env.settle()
    assert len(thread.history()) == posted
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "could not show the ratings counted late" in caplog.text


async def test_practice_is_not_rated_and_its_card_is_left_alone(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _resigned_uncounted(world, monkeypatch, practice=True)
    before = _table(world, live).embeds[1].to_dict()
    edits: list[int] = []
    real = world.bot.http.edit_message

    async def edit_message(channel_id: int, message_id: int, **kw: Any) -> Any:
        edits.append(message_id)
        return await real(channel_id, message_id, **kw)

    monkeypatch.setattr(world.bot.http, "edit_message", edit_message)
    await season_tick(world.bot)
    await world.env.settle()
    assert _table(world, live).embeds[1].to_dict() == before
    assert live.table_message_id not in edits


async def test_a_season_read_failing_after_the_count_still_shows_the_ratings(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tick counts the session (committed), then its seasons' read fails: the card is
    shown all the same (no later tick would count it again)."""
    live = await _resigned_uncounted(world, monkeypatch)
    real = Seasons.end_due
    failed: list[bool] = []

    async def end_due(self: Seasons, now: float, **kwargs: Any) -> object:
        if not failed:
            failed.append(True)
            raise RuntimeError("database gone for a moment")
        return await real(self, now, **kwargs)

    monkeypatch.setattr(Seasons, "end_due", end_due)
    await season_tick(world.bot)
    await world.env.settle()
    assert failed
    assert NOT_YET not in _ratings(world, live) and "→" in _ratings(world, live)


async def test_a_card_discord_cannot_take_for_now_is_tried_again_at_the_next_tick(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _resigned_uncounted(world, monkeypatch)
    real = final_card._edit_final
    tries: list[int] = []

    async def edit_final(svc: Any, match: LiveMatch) -> None:
        tries.append(match.id)
        if len(tries) == 1:
            raise TimeoutError("Discord slow for a moment")
        await real(svc, match)

    monkeypatch.setattr(final_card, "_edit_final", edit_final)
    await season_tick(world.bot)
    await world.env.settle()
    assert tries == [live.id] and _ratings(world, live) == NOT_YET
    await season_tick(world.bot)  # counts nothing new: the card is owed all the same
    await world.env.settle()
    assert tries == [live.id, live.id]
    assert NOT_YET not in _ratings(world, live) and "→" in _ratings(world, live)
    await season_tick(world.bot)
    assert tries == [live.id, live.id]  # shown: not tried again


async def test_a_busy_database_at_the_count_and_the_card_is_no_error_and_tried_again(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The database busy past its timeout (another writer on the file) as the next start
    counts the results kept, then as the counted session's card is read: a line each, no
    error with a traceback (no bug of ours), and the card shown at the next try."""
    live = await _resigned_uncounted(world, monkeypatch)
    svc = world.bot.matches
    assert svc is not None
    count, match = svc.store.count_backlog, svc.store.match

    async def locked(*args: object) -> Any:
        raise sqlite3.OperationalError("database is locked")
    caplog.clear()  # (the count's failure as the session ended, meant)
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(svc.store, "count_backlog", locked)
    await count_backlog(world.bot)
    monkeypatch.setattr(svc.store, "count_backlog", count)
    monkeypatch.setattr(svc.store, "match", locked)
    await count_backlog(world.bot)  # counted now; its card's read fails
    await world.env.settle()
    assert _ratings(world, live) == NOT_YET
    monkeypatch.setattr(svc.store, "match", match)
    await season_tick(world.bot)  # the next ones shown: the one owed with them
    await world.env.settle()
    assert NOT_YET not in _ratings(world, live) and "→" in _ratings(world, live)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_count_failing_on_the_disk_is_a_warning_and_counted_later(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The session's count failing as it ends on the disk full (no bug): a warning without
    a traceback, the result left for the next count, as any failed count is."""
    def full(*args: object) -> PlayerStats:
        raise sqlite3.OperationalError("database or disk is full")
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr(records, "seat_stats", full)
    live = await start_match(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    await world.alice.click(ask.response, custom_id=yes)
    await flush(world)
    monkeypatch.undo()
    assert live.over and _ratings(world, live) == NOT_YET
    [said] = [r for r in caplog.records if "could not be counted" in r.getMessage()]
    assert said.levelno == logging.WARNING and not said.exc_info
    await count_backlog(world.bot)
    await world.env.settle()
    assert NOT_YET not in _ratings(world, live) and "→" in _ratings(world, live)
