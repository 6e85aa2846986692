"""Ties on the boards, on both backends: players whose ratings show the same (to one decimal)
share a place and the next place counts them all (1, 2, 2, 4), on every page, in a person's
stats and in a season's summary. Before, a tie was ranked by user id."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.umtali.numbers import one_decimal
from cogs.umtali.season_summaries import LISTED, summary_embed
from data import record_reads
from data.ranks import shown
from data.records import GLOBAL
from data.store import Store
from tests.discord_helpers import World
from tests.test_records import GUILD, forfeited
from tests.test_records_discord import board_lines, text_of
from tests.test_seasons import at, seasons_on
from umtali.i18n import tr_for

EN = tr_for("en")


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def rated(store: Store, ratings: dict[int, float]) -> None:
    """Players (by id) with exactly these ratings on the server's board: each played a
    session (so has stats and a name), then their rating is set to the value wanted."""
    for user_id in ratings:
        await forfeited(store, (user_id, f"P{user_id}"), (90_000 + user_id, "Other"))
    async with store.db.transaction() as tx:
        await tx.execute("DELETE FROM ratings WHERE user_id >= 90000")
        for user_id, value in ratings.items():
            await tx.execute("UPDATE ratings SET ordinal = ? WHERE scope = ? AND user_id = ?",
                             (value, GUILD, user_id))


async def everyone(store: Store, per_page: int) -> list[tuple[int, int]]:
    """(place, user id) down the whole board, page by page."""
    first = await store.records.leaderboard(GUILD, 1, per_page)
    rows = list(first.rows)
    for page in range(2, first.pages + 1):
        rows += (await store.records.leaderboard(GUILD, page, per_page)).rows
    return [(r.rank, r.user_id) for r in rows]


# 0.25 and 0.15 are half-tenths as typed, not in binary: 0.25 is exact and shows 0.2 (Python
# rounds a half to even), 0.15 is a little less and shows 0.1; SQL's ROUND gives 0.3 and 0.2 on
# both backends. 25.04 and 24.96 both show 25.0; 25.06 shows 25.1.
RATINGS = {1: 25.06, 2: 25.04, 3: 25.0, 4: 24.96, 5: 3.0, 6: 0.25, 7: 0.2, 8: 0.15, 9: 0.1,
           10: 0.04, 11: -0.04, 12: -3.0}
PLACES = [(1, 1), (2, 2), (2, 3), (2, 4), (5, 5), (6, 6), (6, 7), (8, 8), (8, 9), (10, 10),
          (10, 11), (12, 12)]


@pytest.mark.parametrize("per_page", [2, 3, 10])
async def test_ratings_shown_alike_share_a_place_on_every_page(store: Store,
                                                               per_page: int) -> None:
    await rated(store, RATINGS)
    assert [shown(RATINGS[u]) for _, u in PLACES] == [
        25.1, 25.0, 25.0, 25.0, 3.0, 0.2, 0.2, 0.1, 0.1, 0.0, 0.0, -3.0]
    board = await everyone(store, per_page)
    # A tie across a page's start keeps its place (pages of 2 and 3 cut 2, 2, 2 and 0.2, 0.2).
    assert sorted(board) == PLACES, board
    assert [u for _, u in board] == [u for _, u in PLACES]
    for place, user_id in PLACES:
        rating = (await store.records.record(GUILD, user_id)).rating
        assert rating is not None and (rating.rank, rating.players) == (place, 12), user_id
        # What the place is counted from is what the board and the stats show.
        assert one_decimal(EN, rating.value) == \
            f"{shown(RATINGS[user_id]):.1f}".replace("-", "\u2212")
        # And as many show that rating or a higher one as are placed there or above.
        higher = sum(1 for v in RATINGS.values() if shown(v) >= shown(RATINGS[user_id]))
        assert await record_reads.BOARD.within(store.db, (GUILD,), RATINGS[user_id]) == higher


async def test_everyone_tied_shares_the_first_place(store: Store) -> None:
    # Twelve who each won their one session, twelve who lost theirs: two ties of twelve.
    for i in range(12):
        await forfeited(store, (1000 + i, f"Winner {i}"), (2000 + i, f"Loser {i}"))
    for scope in (GUILD, GLOBAL):
        pages = [await store.records.leaderboard(scope, p) for p in (1, 2, 3)]
        places = [r.rank for page in pages for r in page.rows]
        assert places == [1] * 12 + [13] * 12
        for row in pages[1].rows:
            rating = (await store.records.record(scope, row.user_id)).rating
            assert rating is not None and rating.rank == row.rank


async def test_a_seasons_board_and_summary_share_places_too(store: Store) -> None:
    await seasons_on(store)
    # Three who won a session, two who lost one: 1, 1, 1, 4, 4.
    for winner, loser in ((1, 11), (2, 12), (3, 13)):
        await forfeited(store, (winner, f"W{winner}"), (loser, f"L{loser}"),
                        now=at(2026, 12))
    async with store.db.transaction() as tx:  # one of the losers' season left off
        await tx.execute("DELETE FROM season_ratings WHERE user_id = 13")
    first = await store.seasons.board(GUILD, "2026-12", 1, per_page=2)
    second = await store.seasons.board(GUILD, "2026-12", 2, per_page=2)
    third = await store.seasons.board(GUILD, "2026-12", 3, per_page=2)
    assert [r.rank for p in (first, second, third) for r in p.rows] == [1, 1, 1, 4, 4]
    # The summary's best three: all three tied for the first place.
    best, more = await store.seasons.best(GUILD, "2026-12", 3, 10)
    assert [(r.rank, r.user_id) for r in best.rows] == [(1, 1), (1, 2), (1, 3)]
    assert (best.players, more) == (5, 0)
    # With one place: the tie for it comes whole.
    best, more = await store.seasons.best(GUILD, "2026-12", 1, 10)
    assert [r.rank for r in best.rows] == [1, 1, 1] and more == 0
    lines = str(summary_embed("2026-12", best, EN).description).splitlines()
    assert [line.split(" ")[0] for line in lines[:3]] == ["🥇"] * 3
    assert all("`1.`" in line for line in lines[:3])
    # Listing at most two: one more shares the first place.
    best, more = await store.seasons.best(GUILD, "2026-12", 3, 2)
    assert [r.rank for r in best.rows] == [1, 1] and more == 1


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_season_summary_lists_a_big_tie_in_part_within_an_embeds_limit(
        store: Store, lang: str) -> None:
    await seasons_on(store)
    # Fourteen who won their one session, with the longest names: all first.
    for i in range(14):
        await forfeited(store, (100 + i, "*" * 31 + f"{i % 10}"), (200 + i, f"L{i}"),
                        now=at(2026, 12))
    best, more = await store.seasons.best(GUILD, "2026-12", 3, LISTED)
    assert (len(best.rows), more, best.players) == (LISTED, 14 - LISTED, 28)
    text = str(summary_embed("2026-12", best, tr_for(lang), more=more).description)
    assert len(text) <= 4096
    said = {"en": "…and 4 more players share these places.",
            "ru": "…и ещё 4 игрока на тех же местах."}[lang]
    assert text.splitlines()[LISTED] == said


async def test_the_leaderboard_and_stats_on_discord_show_shared_places(world: World) -> None:
    store = world.bot.matches.store if world.bot.matches is not None else None
    assert store is not None
    dee = world.guild.add_member(world.env.create_user("dee"))
    # ada beats ben, cy beats dee: ada and cy tied first, ben and dee tied third.
    for (winner, w), (loser, n) in (((world.alice, "ada"), (world.bob, "ben")),
                                    ((world.carol, "cy"), (dee, "dee"))):
        await forfeited(store, (winner.id, w), (loser.id, n), guild=world.guild.id)
    board = await world.carol.slash(world.channel, "umtali leaderboard")
    places = [line.split("`")[1].strip() for line in board_lines(board)]
    assert places == ["1.", "1.", "3.", "3."]
    ben = text_of(await world.bob.slash(world.channel, "umtali stats"))
    assert "#3 of 4" in ben
    cy = text_of(await world.alice.slash(world.channel, "umtali stats", member=world.carol))
    assert "#1 of 4" in cy
