"""fix133: a member's best hand is that of a hand they scored: a session forfeited before any
hand was scored adds none (it gave "best hand 0", as if 0 were a hand played, and put 0 over a
negative best), on both backends; migration 31 mends the rows kept before from their hands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.umtali.stats import record_text
from data.db import Database
from data.models import Finish, PlayerRecord, PlayerStats
from data.records import GLOBAL
from data.store import Store
from tests.discord_helpers import World, start_match
from tests.test_records import GUILD, forfeited
from tests.test_records_discord import resign, text_of
from umtali.i18n import tr_for

ADA, BEN = (1, "Ada"), (2, "Ben")


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def resigned_after(store: Store, hands: str) -> None:
    """Ben (seat 1) resigns to Ada after the hands ``hands`` of the first game (kept scores:
    no replay, so the scores are the test's)."""
    match_id = await store.create_match(
        guild_id=GUILD, channel_id=1, players=(ADA, BEN), variant="english", turn_timer=0,
        state="{}", deadline=None)
    await store.finish_match(match_id=match_id, version=0, state="{}",
                             finish=Finish(0, "resigned", (0, 0), f"[{hands}]"))


async def test_a_forfeit_before_any_hand_scored_gives_no_best_hand(store: Store) -> None:
    await forfeited(store, ADA, BEN)
    for scope in (GUILD, GLOBAL):
        for user_id in (ADA[0], BEN[0]):
            stats = (await store.records.record(scope, user_id)).rated
            assert stats.sessions == 1
            assert stats.best_hand is None


async def test_a_forfeit_leaves_a_negative_best_hand_as_it_was(store: Store) -> None:
    await resigned_after(store, "[[-5, 20], [-12, 7]]")
    assert (await store.records.record(GUILD, ADA[0])).rated.best_hand == -5
    # Ada forfeits the next session before any hand is scored: her best is still -5.
    await forfeited(store, BEN, ADA)
    for scope in (GUILD, GLOBAL):
        ada = (await store.records.record(scope, ADA[0])).rated
        assert (ada.sessions, ada.best_hand) == (2, -5)
    # A best kept before is not taken back by the none of a forfeit, nor the none by a hand.
    await forfeited(store, ADA, BEN)
    assert (await store.records.record(GUILD, BEN[0])).rated.best_hand == 20
    await resigned_after(store, "[[-30, -2]]")
    assert (await store.records.record(GUILD, ADA[0])).rated.best_hand == -5
    assert (await store.records.record(GUILD, BEN[0])).rated.best_hand == 20


@pytest.mark.parametrize("language", ["en", "ru"])
def test_stats_show_no_best_hand_as_a_dash(language: str) -> None:
    tr = tr_for(language)
    none = record_text(PlayerRecord("ada", PlayerStats(sessions_lost=1, forfeits=1),
                                    PlayerStats(), None), tr)
    times = tr.plural("{count} time", "{count} times", 0)
    assert tr("Points in all: {points} · best hand: {best} · marriages: {marriages} · went "
              "out: {went_out} · sessions resigned or lost on time: {forfeits}", points=0,
              best="—", marriages=0, went_out=times, forfeits=1) in none
    played = record_text(PlayerRecord("ada", PlayerStats(sessions_lost=1, best_hand=0),
                                      PlayerStats(), None), tr)
    assert tr("Points in all: {points} · best hand: {best} · marriages: {marriages} · went "
              "out: {went_out} · sessions resigned or lost on time: {forfeits}", points=0,
              best=tr.plural("{count} point", "{count} points", 0), marriages=0,
              went_out=times, forfeits=0) in played


async def test_migration_31_mends_the_best_hands_kept_before_from_their_hands(
        empty_target: str | Path) -> None:
    """Rows of schema 30 where a forfeit wrote 0: each scope's best is read again from the
    hands kept with its sessions (``session_hands``, kept since records began); a 0 some hand
    scored stays, a best above 0 is left alone."""
    db = await Database.open(empty_target, schema=30)
    try:
        async with db.transaction() as tx:
            for match_id, guild, practice, scores in (
                    (101, GUILD, 0, [(-5, 20), (-12, 7)]),  # Ada (seat 0): below 0 only
                    (102, GUILD, 0, []),  # a forfeit before any hand
                    (103, 11, 0, [(0, 3)]),  # another server: Ada scores 0
                    (104, GUILD, 1, [(9, 4)])):  # practice
                await tx.execute(
                    "INSERT INTO matches (id, guild_id, channel_id, player0_id, player1_id, "
                    "player0_name, player1_name, status, variant, turn_timer, state, "
                    "created_at) VALUES (?, ?, 5, 1, 2, 'Ada', 'Ben', 'finished', 'english', "
                    "0, '{}', 1.0)", (match_id, guild))
                await tx.execute(
                    "INSERT INTO session_results (match_id, guild_id, player0_id, player1_id, "
                    "winner_seat, how, games_won0, games_won1, variant, hand_scores, "
                    "finished_at, recorded) VALUES (?, ?, 1, 2, 1, 'resigned', 0, 0, "
                    "'english', '[]', ?, 1)", (match_id, guild, float(match_id)))
                for seat in (0, 1):
                    await tx.execute(
                        "INSERT INTO session_players (match_id, seat, user_id, opponent_id, "
                        "guild_id, won, practice, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (match_id, seat, seat + 1, 2 - seat, guild, seat, practice,
                         float(match_id)))
                for hand, (a, b) in enumerate(scores, 1):
                    await tx.execute(
                        "INSERT INTO session_hands (match_id, game, hand, score0, score1, "
                        "marriages0, marriages1) VALUES (?, 1, ?, ?, ?, 0, 0)",
                        (match_id, hand, a, b))
            # The totals as schema 30 kept them: a forfeit's 0 over Ada's -5.
            for scope, user_id, practice, kept in (
                    (GUILD, 1, 0, 0), (11, 1, 0, 0), (GLOBAL, 1, 0, 0), (GUILD, 1, 1, 9),
                    (GUILD, 2, 0, 20), (GLOBAL, 2, 0, 20), (11, 2, 0, 3), (GUILD, 2, 1, 4),
                    (GUILD, 3, 0, 0)):  # no session of theirs kept: none
                await tx.execute(
                    "INSERT INTO player_stats (scope, user_id, practice, name, sessions_won, "
                    "sessions_lost, games_won, games_lost, hands_won, hands_lost, points, "
                    "best_hand, marriages, went_out, forfeits, last_at) VALUES "
                    "(?, ?, ?, 'x', 0, 1, 0, 0, 0, 0, 0, ?, 0, 0, 0, 1.0)",
                    (scope, user_id, practice, kept))
    finally:
        await db.close()
    store = await Store.open(empty_target)
    try:
        async def best(scope: int, user_id: int, practice: int = 0) -> int | None:
            record = await store.records.record(scope, user_id)
            return (record.practice if practice else record.rated).best_hand

        assert await best(GUILD, 1) == -5
        assert await best(11, 1) == 0
        assert await best(GLOBAL, 1) == 0
        assert await best(GUILD, 1, practice=1) == 9
        assert await best(GUILD, 2) == 20
        assert await best(11, 2) == 3
        assert await best(GUILD, 3) is None
        # New rows keep none until a hand is scored.
        await forfeited(store, (5, "Cy"), (6, "Di"))
        assert await best(GUILD, 6) is None
    finally:
        await store.close()


async def test_stats_through_the_bot_show_no_best_hand_after_a_resignation(
        world: World) -> None:
    """Ada resigns before any hand is scored: /umtali stats shows her best hand as "—"."""
    await resign(world, world.alice, await start_match(world))
    ada = text_of(await world.carol.slash(world.channel, "umtali stats", member=world.alice))
    assert "Sessions: won 0, lost 1" in ada
    assert "Points in all: 0 · best hand: — · marriages: 0" in ada
    assert "best hand: 0" not in ada
