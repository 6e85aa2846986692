"""Every earlier schema upgrades in place on start-up, keeps its rows, and counts old results:
on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogs.umtali.saved import finish_of
from data.db import Database, Tx
from data.migrations import MIGRATIONS
from data.models import PlayerStats
from data.records import GLOBAL
from data.store import Store
from tests.test_records import greedy_moves
from umtali.codec import session_to_json
from umtali.events import HandEnded
from umtali.rules import RuleSet
from umtali.session import Session

GUILD = 10
SEED = 3


def finished_session() -> Session:
    session, _ = Session.replay(RuleSet.english(), SEED, greedy_moves(RuleSet.english(), SEED))
    return session


async def old_database(target: str | Path, version: int) -> Session:
    """A database at schema ``version`` holding what the bot kept at schema 1: settings, an
    open challenge, an active match, a played-out match and a practice match with results."""
    db = await Database.open(target, schema=version)
    try:
        async with db.transaction() as tx:  # one commit, not one a row
            done = await _old_rows(tx, version)
    finally:
        await db.close()
    return done


async def _old_rows(tx: Tx, version: int) -> Session:
    await tx.execute("INSERT INTO guild_settings (guild_id, variant, optional_melding, "
                       "turn_timer, threads) VALUES (?, 'russian', 1, 120, 0)", (GUILD,))
    await tx.execute(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, "
        "challenger_name, opponent_name, variant, optional_melding, turn_timer, created_at, "
        "expires_at) VALUES (?, 5, 1, 3, 'Ada', 'Cy', 'english', 0, 300, 1.0, 9e9)", (GUILD,))
    fresh = Session(RuleSet.english(), 5)
    done = finished_session()
    practice = Session(RuleSet.english(), 6)
    practice.resign(0)
    rows = [  # id, players, state, status, computer seat and level
        (1, (1, "Ada"), (2, "Ben"), fresh, "active", None, None),
        (2, (1, "Ada"), (2, "Ben"), done, "finished", None, None),
        (3, (2, "Ben"), (99, "Computer (easy)"), practice, "finished", 1, "easy"),
    ]
    for match_id, a, b, session, status, seat, level in rows:
        await tx.execute(
            "INSERT INTO matches (id, guild_id, channel_id, player0_id, player1_id, "
            "player0_name, player1_name, status, variant, turn_timer, state, version, "
            "computer_seat, computer_level, created_at) "
            "VALUES (?, ?, 5, ?, ?, ?, ?, ?, 'english', 300, ?, ?, ?, ?, 1.0)",
            (match_id, GUILD, a[0], b[0], a[1], b[1], status,
             json.dumps(session_to_json(session)), len(session.moves), seat, level))
    await tx.execute("INSERT INTO active_players VALUES (?, 1, 1), (?, 2, 1)", (GUILD, GUILD))
    for ply, move in enumerate(done.moves):
        await tx.execute("INSERT INTO moves VALUES (2, ?, 0, ?, 1.0)", (ply, str(move)))
    for match_id, session, level in ((2, done, None), (3, practice, "easy")):
        f = finish_of(session)
        # As schema 1 kept results: no names, no computer seat.
        await tx.execute(
            "INSERT INTO session_results (match_id, guild_id, player0_id, player1_id, "
            "winner_seat, how, games_won0, games_won1, variant, hand_scores, computer_level, "
            "finished_at) SELECT id, guild_id, player0_id, player1_id, ?, ?, ?, ?, variant, ?, "
            "computer_level, ? FROM matches WHERE id = ?",
            (f.winner_seat, f.how, *f.games_won, f.hand_scores, 100.0 + match_id, match_id))
        assert (level is None) == (session is done)
    if version >= 2:
        # From schema 2 on, results keep their players' names and the computer's seat.
        await tx.execute(
            "UPDATE session_results SET "
            "player0_name = (SELECT player0_name FROM matches WHERE id = match_id), "
            "player1_name = (SELECT player1_name FROM matches WHERE id = match_id), "
            "computer_seat = (SELECT computer_seat FROM matches WHERE id = match_id)")
    return done


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS)))
async def test_an_old_database_upgrades_in_place_and_keeps_its_rows(empty_target: str | Path,
                                                                    version: int) -> None:
    path = empty_target
    done = await old_database(path, version)
    store = await Store.open(path)
    try:
        assert await store.db.schema_version() == len(MIGRATIONS)
        settings = await store.guild_settings(GUILD)
        assert (settings.variant, settings.optional_melding, settings.turn_timer) == (
            "russian", True, 120)
        assert [c.opponent_name for c in await store.open_challenges()] == ["Cy"]
        [active] = await store.active_matches()
        assert active.id == 1 and await store.active_match_of(GUILD, 2) == 1
        assert await store.moves(2) == [str(m) for m in done.moves]
        results = await store.session_results(GUILD)
        assert [r["match_id"] for r in results] == [2, 3]

        # Results kept before records are counted once, at start-up, like new ones.
        assert await store.count_backlog() == 2
        assert await store.count_backlog() == 0
        # Names kept with the matches now show with their results.
        lines = await store.records.recent(GUILD, 2)
        assert [line.names for line in lines] == [("Ben", "Computer (easy)"), ("Ada", "Ben")]
        ended = [e for e in Session.replay(done.rules, done.seed, done.moves)[1]
                 if isinstance(e, HandEnded)]
        hands = await store.records.hands(2)
        assert [(h.scores, h.went_out) for h in hands] == [(e.scores, e.went_out) for e in ended]
        winner = done.winner + 1  # user ids 1 and 2 sit in seats 0 and 1
        for scope in (GUILD, GLOBAL):
            board = await store.records.leaderboard(scope, 1)
            assert [r.user_id for r in board.rows] == [winner, 3 - winner]
        ben = await store.records.record(GUILD, 2)
        assert ben.practice.sessions == 1 and ben.practice.forfeits == 1
        assert (await store.records.record(GUILD, 99)).practice == PlayerStats()
        assert await store.records.session(1) is None  # the active match has no result yet
    finally:
        await store.close()
