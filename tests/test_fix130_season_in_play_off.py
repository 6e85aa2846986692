"""fix130: seasons turned off while one is in play, that season counts to its end (fix127)
and ``/umtali stats`` gives its place; ``/umtali leaderboard`` with no season showed the
all-time board meanwhile, and the settings summary spoke of the summaries' channel "should
they be turned on", though the season's summary will be posted there. Until its end, the
default board is that season's, and the summary says seasons are off after it."""

from __future__ import annotations

import pytest

from tests.discord_helpers import World
from tests.test_discord_command_languages import ClientLocales, clients  # noqa: F401 (a fixture)
from tests.test_seasons_discord import (
    NEW_YEAR,
    _ben_beats_ada_twice,
    _content,
    _seasons_on,
    _title,
)


async def test_the_default_board_is_the_season_in_play_after_seasons_are_turned_off(
        world: World, request: pytest.FixtureRequest) -> None:
    summaries, boss = await _seasons_on(world)
    await _ben_beats_ada_twice(world)
    off = await boss.slash(world.channel, "umtali-admin settings", seasons="off")
    said = _content(off)
    assert (f"- Seasons: off after the December 2026 season\n- Season summaries: "
            f"<#{summaries.id}>") in said, said
    assert "should seasons be turned on" not in said, said
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(board) == "Umtali leaderboard · Railway Club · December 2026 season"
    world.clock.advance(60)
    every = await world.carol.slash(world.channel, "umtali leaderboard", season="all")
    assert _title(every) == "Umtali leaderboard · Railway Club · all time"
    locales: ClientLocales = request.getfixturevalue("clients")
    locales[boss.id] = "ru"
    russian = _content(await boss.slash(world.channel, "umtali-admin settings"))
    assert (f"- Сезоны: выкл. после сезона за декабрь 2026\n- Итоги сезона: <#{summaries.id}>"
            in russian), russian
    # Past its end, none follows: the all-time board, and seasons simply off.
    world.clock.now = NEW_YEAR + 60
    after = await world.carol.slash(world.channel, "umtali leaderboard")
    assert _title(after) == "Umtali leaderboard · Railway Club"
    locales[boss.id] = "en"
    plain = _content(await boss.slash(world.channel, "umtali-admin settings"))
    assert "- Seasons: off\n- Summaries' channel, should seasons be turned on" in plain, plain
