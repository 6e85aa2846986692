"""fix130: ``seasons.players`` (migration 28) is only ever added to, as each player first plays
in the season (``rate_season``); a session counted by an older process during the migration's
window (one not adding to it) left it short for good. A season's end counts it again from
its board, in the end's own transaction: an ended season's count is exact."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from data.seasons import SKEW, rate_season
from data.store import Store

GUILD = 1_300_000_000_000_000_000
NEW_YEAR = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()


async def test_a_season_end_counts_its_players_again_on_both_backends(
        store_target: str | Path) -> None:
    store = await Store.open(store_target)
    try:
        async with store.db.transaction() as tx:
            await tx.execute("INSERT INTO seasons (guild_id, season, started_at) "
                             "VALUES (?, '2026-12', ?)", (GUILD, NEW_YEAR - 86400))
            await rate_season(tx, GUILD, "2026-12", (GUILD + 1, GUILD + 2), ("a", "b"), 0)
            # An older process's count (before migration 28): rated, the players not added to.
            for user_id, won in ((GUILD + 3, 1), (GUILD + 4, 0)):
                await tx.execute(
                    "INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, "
                    "ordinal, sessions_won, sessions_lost) "
                    "VALUES (?, '2026-12', ?, 'c', 25.0, 8.0, 1.0, ?, ?)",
                    (GUILD, user_id, won, 1 - won))
            # A rating carried in alone is no player of the season.
            await tx.execute(
                "INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, "
                "ordinal) VALUES (?, '2026-12', ?, 'd', 25.0, 8.0, 0.0)", (GUILD, GUILD + 5))
        [before] = await store.seasons.of(GUILD)
        assert before.players == 2  # short of the board, as left by the older process
        [end] = await store.seasons.end_due(NEW_YEAR + SKEW + 1)
        assert end.season == "2026-12"
        [after] = await store.seasons.of(GUILD)
        board = await store.seasons.board(GUILD, "2026-12", 1)
        assert after.ended_at is not None and after.players == board.players == 4
    finally:
        await store.close()
