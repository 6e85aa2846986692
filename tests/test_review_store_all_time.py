"""The all-time board asked for in the member's own words, as they type them: in Russian, ``е``
stands for ``ё`` (most keyboards make ``ё`` awkward), so "за все время" is "за всё время".
Before, it was refused as a season the server never had."""

from __future__ import annotations

from cogs.umtali.board_posts import PUBLIC_EVERY
from tests.discord_helpers import World
from tests.test_seasons_discord import _ben_beats_ada_twice, _content, _seasons_on, _title


async def test_all_time_typed_in_russian_without_yo_is_all_time(
        world: World, locales: dict[int, str]) -> None:
    await _seasons_on(world, language="ru")
    await _ben_beats_ada_twice(world)
    locales[world.carol.id] = "ru"
    for typed in ("за все время", "ЗА ВСЁ ВРЕМЯ", "За Все Время"):
        world.clock.advance(PUBLIC_EVERY)  # the channel's next public board (review116)
        board = await world.carol.slash(world.channel, "umtali leaderboard", season=typed)
        assert not board.ephemeral, (typed, _content(board))
        assert _title(board) == "Таблица лидеров Умтали · Railway Club · за всё время", typed
        world.clock.advance(PUBLIC_EVERY)
        everywhere = await world.carol.slash(world.channel, "umtali leaderboard",
                                             scope="global", season=typed)
        assert not everywhere.ephemeral, (typed, _content(everywhere))


async def test_all_time_is_offered_to_russian_typed_without_yo(
        world: World, locales: dict[int, str]) -> None:
    await _seasons_on(world, language="ru")
    await _ben_beats_ada_twice(world)
    locales[world.carol.id] = "ru"
    offered = await world.carol.autocomplete(world.channel, "umtali leaderboard", "season",
                                             "все вр")
    assert [c["value"] for c in offered] == ["all"]
