"""fix161 (review138 A): in a match with no clock, an opponent out of reach (left the server,
or hidden from its channel with their DMs closed) made the remaining player's "Yes" to resign
end the match with no result at once. A player losing could have the winning opponent kicked
for a moment (by a friend with Kick Members, or themselves), resign "with no result", and the
opponent came back seconds later to a void match.

Now "no result" comes only once the opponent has been out of reach for a day
(``resigning.NO_RESULT_AFTER``), counted from when the bot first found them so, saved with the
match (``matches.gone_since0``/``1``: a restart or another process keeps it), cleared when they
are found back. Until then the question says so, and its "Yes" is a resignation, a loss.
SimCord, a real SQLite file."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import UmtaliBot
from cogs.umtali.resigning import NO_RESULT_AFTER
from tests.discord_helpers import World, custom_ids, flush, start_match
from tests.test_clocks_database_outage import Writes
from tests.test_records_discord import restart
from tests.test_review43_opponent_left import ASKED_LEFT, LEFT

ASKED = "Resign the session? Your opponent wins it."


def _stamp(at: float, style: Any) -> str:
    return discord.utils.format_dt(dt.datetime.fromtimestamp(at, dt.UTC), style)


def grace_left(since: float) -> str:
    """The question while ben has left the server for less than a day since ``since``."""
    return (f"ben has left the server (first found out of reach {_stamp(since, 'R')}), and this "
            f"match has no clock. If ben is still gone at {_stamp(since + NO_RESULT_AFTER, 'f')} "
            "(a day after I first found them gone), Yes then ends it with no result. Yes now "
            "is a resignation: ben wins the session.")


def _row(db_path: Path, match_id: int) -> tuple[str, str | None, int]:
    with sqlite3.connect(db_path) as c:
        status, how = c.execute("SELECT status, how FROM matches WHERE id = ?",
                                (match_id,)).fetchone()
        results = c.execute("SELECT COUNT(*) FROM session_results").fetchone()[0]
    return status, how, results


async def _ask(world: World) -> Any:
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.ephemeral
    return ask


async def _yes(world: World, ask: Any) -> str:
    done = await world.alice.click(ask.response, custom_id=next(
        c for c in custom_ids(ask.response) if c.endswith(":resign")))
    assert done.acknowledged
    await flush(world)
    return str(done.response.content)


async def _kicked(world: World) -> None:
    world.guild.remove_member(world.bob)
    await world.env.settle()


async def test_kicked_then_resigned_at_once_is_a_rated_loss(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    first_seen = world.clock()
    ask = await _ask(world)
    assert ask.response.content == grace_left(first_seen), ask.response.content
    # The Yes asked for is a resignation's, and does nothing else.
    assert any(c.endswith(":loss:resign") for c in custom_ids(ask.response))
    world.guild.add_member(world.bob.user)  # back a few seconds later
    await world.env.settle()
    assert (await _yes(world, ask)).startswith("You resigned: ben wins the session")
    assert live.over and live.session.how == "resigned" and live.session.winner == 1
    assert _row(db_path, live.id) == ("finished", "resigned", 1)


async def test_a_day_out_of_reach_ends_it_with_no_result(world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    first_seen = world.clock()
    await _ask(world)  # first found gone: the day counts from here
    world.clock.advance(NO_RESULT_AFTER - 60)
    ask = await _ask(world)
    assert ask.response.content == grace_left(first_seen), ask.response.content
    world.clock.advance(60)
    ask = await _ask(world)
    assert ask.response.content == ASKED_LEFT
    assert await _yes(world, ask) == LEFT
    assert live.over and live.session.winner < 0
    assert _row(db_path, live.id) == ("finished", "abandoned", 0)


async def test_back_meanwhile_restarts_the_day(world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    await _ask(world)
    world.clock.advance(20 * 3600)
    world.guild.add_member(world.bob.user)
    await world.env.settle()
    back = await _ask(world)
    assert back.response.content == ASKED  # found back: what was saved is cleared
    world.clock.advance(5 * 3600)
    await _kicked(world)
    again = world.clock()
    ask = await _ask(world)
    assert ask.response.content == grace_left(again), ask.response.content
    world.clock.advance(NO_RESULT_AFTER - 1)
    assert (await _ask(world)).response.content == grace_left(again)
    assert not live.over and _row(db_path, live.id) == ("active", None, 0)


async def test_a_restart_keeps_when_they_were_first_found_gone(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    first_seen = world.clock()
    await _ask(world)
    world.clock.advance(3600)
    await restart(world, make_bot)
    ask = await _ask(world)
    assert ask.response.content == grace_left(first_seen), ask.response.content
    world.clock.advance(NO_RESULT_AFTER - 3600)
    ask = await _ask(world)
    assert ask.response.content == ASKED_LEFT
    assert await _yes(world, ask) == LEFT
    assert _row(db_path, live.id) == ("finished", "abandoned", 0)


async def test_the_database_failing_as_they_are_first_found_gone_changes_nothing(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    writes = Writes(world, monkeypatch)
    writes.down = True
    ask = await _ask(world)
    assert ask.response.content == (
        "The database did not answer as I checked whether ben can still be reached, so "
        "nothing changed: try again in a moment."), ask.response.content
    assert not custom_ids(ask.response)  # no question: nothing to answer
    assert writes.refused >= 1
    assert not live.over and _row(db_path, live.id) == ("active", None, 0)
    writes.down = False
    # Working again: first found gone now, a day from now.
    world.clock.advance(NO_RESULT_AFTER)
    now = world.clock()
    assert (await _ask(world)).response.content == grace_left(now)


async def test_said_in_russian(world: World, locales: dict[int, str]) -> None:
    await start_match(world, turn_timer=0)
    await _kicked(world)
    locales[world.alice.id] = "ru"
    first_seen = world.clock()
    ask = await _ask(world)
    assert ask.response.content == (
        f"ben больше не на сервере (вне досягаемости, впервые замечено {_stamp(first_seen, 'R')}"
        "), а в этом матче нет контроля времени. Если ben не вернётся к "
        f"{_stamp(first_seen + NO_RESULT_AFTER, 'f')} (через сутки с того момента, как это "
        "впервые замечено), «Да» тогда завершит матч без результата. «Да» сейчас — это сдача: "
        "матч выигрывает ben."), ask.response.content


async def test_a_no_result_yes_after_they_came_back_and_left_again_changes_nothing(
        world: World, db_path: Path) -> None:
    live = await start_match(world, turn_timer=0)
    await _kicked(world)
    await _ask(world)
    world.clock.advance(NO_RESULT_AFTER)
    ask = await _ask(world)
    assert ask.response.content == ASKED_LEFT
    world.guild.add_member(world.bob.user)
    await world.env.settle()
    assert (await _ask(world)).response.content == ASKED  # found back
    await _kicked(world)
    again = world.clock()
    assert (await _ask(world)).response.content == grace_left(again)
    # The "no result" asked before: its day is over, the new absence's is not.
    assert await _yes(world, ask) == (
        f"ben came back, and was found out of reach again {_stamp(again, 'R')}: the match "
        f"can end with no result from {_stamp(again + NO_RESULT_AFTER, 'f')}. This question "
        "is out of date, and nothing changed. Use /umtali resign again if you still want to "
        "stop.")
    assert not live.over and _row(db_path, live.id) == ("active", None, 0)
