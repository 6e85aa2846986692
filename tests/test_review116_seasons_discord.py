"""review116's findings on seasons and the public boards, through the bot: what a member's
stats say of a season in play when seasons are turned off."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import assert_error

from data.season_queries import Seasons
from tests.discord_helpers import World, manager
from tests.test_discord_command_languages import ClientLocales, clients  # noqa: F401 (a fixture)
from tests.test_records_discord import text_of
from tests.test_seasons_discord import NEW_YEAR, _ben_beats_ada_twice, _seasons_on


async def test_stats_name_no_season_once_the_one_in_play_has_ended_with_seasons_off(
        world: World) -> None:
    """Seasons turned off mid-December: December still counts to its end (as the manager is
    told), and stats give its place until then; past it, no season line (none follows), even
    before the tick has marked it ended."""
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    off = await manager(world).slash(world.channel, "umtali-admin settings", seasons="off")
    assert "The December 2026 season still ends at its usual time" in str(off.response.content)
    stats = text_of(await world.bob.slash(world.channel, "umtali stats"))
    assert "December 2026 season: rating" in stats, stats
    world.clock.now = NEW_YEAR + 60
    stats = text_of(await world.bob.slash(world.channel, "umtali stats"))
    assert "December 2026" not in stats and "Rating **" in stats, stats


async def test_the_season_asked_for_is_checked_by_its_key(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/umtali leaderboard season:…`` checks the name by its key (``Seasons.had``), not
    through the list of every season with its players (``Seasons.of``: it counted every
    season's players then, 200 ms at 50,000 players and 36 seasons)."""
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)

    async def every_season(*args: object) -> None:
        raise AssertionError("every season's players counted")

    monkeypatch.setattr(Seasons, "of", every_season)
    past = await world.carol.slash(world.channel, "umtali leaderboard", season="2026-12")
    assert past.response.embeds[0].title == \
        "Umtali leaderboard · Railway Club · December 2026 season"
    never = await world.carol.slash(world.channel, "umtali leaderboard", season="2025-06")
    assert never.ephemeral and "no season “2025-06”" in str(never.response.content)
    monkeypatch.undo()
    offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season", "")
    assert [(c["value"], c["name"]) for c in offered] == [
        ("all", "all time"), ("2026-12", "December 2026 season · 2 players")]
    assert [c["value"] for c in await world.carol.autocomplete(
        world.channel, "umtali leaderboard", "season", "season 2026")] == ["2026-12"]


async def test_boards_and_stats_post_in_a_channel_once_a_minute_then_privately(
        world: World, request: pytest.FixtureRequest) -> None:
    """``/umtali leaderboard`` and ``/umtali stats`` are public posts: a channel gets one a
    minute; asked again within it, the board comes to the member alone, in their language,
    saying why. Another channel, or a minute later, posts again."""
    await _ben_beats_ada_twice(world)
    first = await world.carol.slash(world.channel, "umtali leaderboard")
    assert not first.ephemeral and "Umtali leaderboard" in text_of(first)
    again = await world.bob.slash(world.channel, "umtali stats")
    assert again.ephemeral and "Umtali · ben" in text_of(again)
    assert "less than a minute ago" in str(again.response.content)
    board = await world.alice.slash(world.channel, "umtali leaderboard")
    assert board.ephemeral and "Umtali leaderboard" in text_of(board)
    other = world.guild.create_text_channel("elsewhere")
    assert not (await world.carol.slash(other, "umtali stats")).ephemeral
    world.clock.advance(60)
    assert not (await world.bob.slash(world.channel, "umtali stats")).ephemeral
    locales: ClientLocales = request.getfixturevalue("clients")
    locales[world.carol.id] = "ru"
    russian = await world.carol.slash(world.channel, "umtali leaderboard")
    assert russian.ephemeral and "меньше минуты назад" in str(russian.response.content)


async def test_a_board_whose_post_failed_holds_the_channel_back_for_nobody(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """Discord failing the public post: nothing was posted, so the next member asking within
    the minute gets the board in the channel, not privately."""
    await _ben_beats_ada_twice(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await world.carol.slash(world.channel, "umtali leaderboard")
    await world.env.settle()
    assert_error(world.env, contains="500")
    for r in caplog.records:
        r.expected = True  # Discord's 500, logged as an error: meant here
    board = await world.bob.slash(world.channel, "umtali leaderboard")
    assert not board.ephemeral and "Umtali leaderboard" in text_of(board)


async def test_the_season_suggestions_read_no_players_ratings(world: World) -> None:
    """Each keystroke's suggestions read the seasons' rows alone, their players counted as
    they first play (``seasons.players``): counting each season's ratings on every keystroke
    took 200 ms at 50,000 players playing in each of 24 seasons (bench/seasons.py)."""
    await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    assert world.bot.matches is not None
    db = world.bot.matches.store.db
    asked: list[str] = []
    fetchall, fetchone = db.fetchall, db.fetchone

    async def all_noted(sql: str, params: Any = ()) -> Any:
        asked.append(sql)
        return await fetchall(sql, params)

    async def one_noted(sql: str, params: Any = ()) -> Any:
        asked.append(sql)
        return await fetchone(sql, params)

    db.fetchall, db.fetchone = all_noted, one_noted  # type: ignore[method-assign]
    try:
        offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season",
                                                 "")
    finally:
        del db.fetchall, db.fetchone
    assert [c["name"] for c in offered] == ["all time", "December 2026 season · 2 players"]
    assert asked and not [sql for sql in asked if "season_ratings" in sql], asked
