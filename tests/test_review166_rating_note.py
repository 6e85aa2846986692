"""The board and the stats say why a rating may be below zero (review166: "2. ada · −1.8 ·
won 0 of 1" and "rating −0.5, #2 of 2" unexplained), in the final card's words, English and
Russian. SimCord, a real SQLite file."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, manager, start_match
from tests.test_records_discord import resign


def _footer(result: Any) -> str:
    return str(result.response.embeds[0].footer.text)


async def test_the_board_and_the_stats_explain_a_rating_below_zero(
        world: World, locales: dict[int, str]) -> None:
    await resign(world, world.bob, await start_match(world))
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    said = board.response.embeds[0].description or ""
    assert "−" in said, said  # the loser's rating, below zero after one session
    assert _footer(board) == (
        "Page 1 of 1 · A rating is a cautious estimate of skill (μ − 3σ), so it may be below "
        "zero: it moves most in your first sessions and rises as you play more. Practice is not "
        "rated."), _footer(board)
    stats = await world.bob.slash(world.channel, "umtali stats")
    assert _footer(stats).startswith("A rating is a cautious estimate of skill (μ − 3σ), so it "
                                     "may be below zero"), _footer(stats)
    # In the server's language when posted in the channel, the member's when for them alone.
    await manager(world).slash(world.channel, "umtali-admin settings", language="ru")
    locales[world.bob.id] = "ru"
    stats = await world.bob.slash(world.channel, "umtali stats")
    assert _footer(stats) == (
        "Рейтинг — осторожная оценка мастерства (μ − 3σ), поэтому он бывает ниже нуля: сильнее "
        "всего он меняется в первых матчах и растёт по мере игры. Тренировки на рейтинг не "
        "влияют."), _footer(stats)
