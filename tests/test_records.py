"""Records in the store, on both backends: each finished session counted once into hands,
stats and ratings."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.umtali.saved import finish_of
from data import record_reads, records
from data.models import Finish, PlayerStats
from data.records import GLOBAL
from data.store import StaleState, Store
from umtali.codec import session_to_json
from umtali.events import Event, HandEnded, Melded
from umtali.melds import PlayKind
from umtali.moves import Move
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session

GUILD = 10


def greedy_moves(rules: RuleSet, seed: int) -> list[Move]:
    """A whole session of greedy play, as its move list."""
    s = Session(rules, seed)
    while not s.over:
        s.apply(GreedyPlayer().choose(s.view(s.to_act)))
    return list(s.moves)


def state(session: Session) -> str:
    return json.dumps(session_to_json(session))


async def record_moves(store: Store, match_id: int, session: Session, moves: list[Move],
                       now: float = 1000.0) -> None:
    """Save ``moves`` as the bot does, the session's end (if they reach it) with the last."""
    for move in moves:
        version, seat = len(session.moves), session.to_act
        session.apply(move)
        await store.record_move(
            match_id=match_id, version=version, seat=seat, move=str(move),
            state=state(session), deadline=None,
            finish=finish_of(session) if session.over else None, now=now)


async def played(store: Store, seed: int, players: tuple[tuple[int, str], tuple[int, str]],
                 rules: RuleSet | None = None, guild: int = GUILD) -> tuple[int, Session]:
    rules = rules or RuleSet.english()
    session = Session(rules, seed)
    match_id = await store.create_match(
        guild_id=guild, channel_id=1, players=players, variant=rules.name, turn_timer=0,
        state=state(session), deadline=None)
    await record_moves(store, match_id, session, greedy_moves(rules, seed))
    return match_id, session


async def forfeited(store: Store, winner: tuple[int, str], loser: tuple[int, str], *,
                    guild: int = GUILD, how: str = "resigned", now: float = 1000.0,
                    computer: str | None = None) -> int:
    """A session the loser (seat 1) gave up before a move; ``computer``: the winner's level."""
    session = Session(RuleSet.english(), 7)
    match_id = await store.create_match(
        guild_id=guild, channel_id=1, players=(winner, loser), variant="english",
        turn_timer=0, state=state(session), deadline=None,
        computer=(0, computer) if computer else None)
    session.resign(1, how)
    await store.finish_match(match_id=match_id, version=0, state=state(session),
                             finish=finish_of(session), now=now)
    return match_id


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


def events_of(session: Session) -> list[Event]:
    return Session.replay(session.rules, session.seed, session.moves)[1]


async def test_a_played_session_is_counted_once_with_its_hands(store: Store) -> None:
    match_id, session = await played(store, 3, ((1, "Ada"), (2, "Ben")))
    assert session.over and session.how == "played out"
    events = events_of(session)
    ended = [e for e in events if isinstance(e, HandEnded)]
    hands = await store.records.hands(match_id)
    assert [h.scores for h in hands] == [e.scores for e in ended]
    assert [(h.game, h.hand) for h in hands] == [(e.game, e.hand) for e in ended]
    assert [h.went_out for h in hands] == [e.went_out for e in ended]
    marriages = [sum(1 for e in events if isinstance(e, Melded) and e.player == seat
                     and e.kind is PlayKind.MARRIAGE) for seat in (0, 1)]
    winner = session.winner
    for seat, user_id in ((0, 1), (1, 2)):
        scores = [e.scores[seat] for e in ended]
        expected = PlayerStats(
            sessions_won=int(seat == winner), sessions_lost=int(seat != winner),
            games_won=session.games_won[seat], games_lost=session.games_won[1 - seat],
            hands_won=sum(e.scores[seat] > e.scores[1 - seat] for e in ended),
            hands_lost=sum(e.scores[seat] < e.scores[1 - seat] for e in ended),
            points=sum(scores), best_hand=max(scores), marriages=marriages[seat],
            went_out=sum(e.went_out == seat for e in ended), forfeits=0)
        for scope in (GUILD, GLOBAL):
            record = await store.records.record(scope, user_id)
            assert record.rated == expected
            assert record.practice == PlayerStats()
            assert record.rating is not None and record.rating.players == 2
            assert record.rating.rank == (1 if seat == winner else 2)
    # Counting it again, or the backlog, changes nothing.
    before = await store.records.record(GUILD, 1)
    async with store.db.transaction() as tx:
        assert not await records.count_session(tx, match_id)
    assert await store.count_backlog() == 0
    assert await store.records.record(GUILD, 1) == before
    assert len(await store.records.hands(match_id)) == len(ended)
    assert len(await store.records.recent(GUILD, 1)) == 1


async def test_a_session_ends_once_even_if_finished_twice(store: Store) -> None:
    match_id = await forfeited(store, (1, "Ada"), (2, "Ben"))
    with pytest.raises(StaleState):
        await store.finish_match(match_id=match_id, version=0, state="{}",
                                 finish=Finish(1, "timed out", (0, 0), "[]"))
    ada = await store.records.record(GLOBAL, 1)
    assert ada.rated.sessions == 1 and ada.rated.sessions_won == 1
    ben = await store.records.record(GUILD, 2)
    assert ben.rated.sessions_lost == 1 and ben.rated.forfeits == 1


async def test_forfeits_count_for_the_loser_only(store: Store) -> None:
    await forfeited(store, (1, "Ada"), (2, "Ben"), how="timed out")
    await forfeited(store, (2, "Ben"), (1, "Ada"), how="resigned")
    for user_id in (1, 2):
        record = await store.records.record(GUILD, user_id)
        assert (record.rated.sessions_won, record.rated.forfeits) == (1, 1)
        assert record.rated.games_won == record.rated.points == 0
        # No hand was scored: no best hand (fix133: it was 0, shown as a hand played).
        assert record.rated.best_hand is None


async def test_practice_is_kept_apart_and_never_rated(store: Store) -> None:
    bot = (99, "Computer (easy)")
    await forfeited(store, bot, (1, "Ada"), computer="easy")
    ada = await store.records.record(GUILD, 1)
    assert ada.rated == PlayerStats() and ada.rating is None
    assert (ada.practice.sessions, ada.practice.sessions_lost, ada.practice.forfeits) == (1, 1, 1)
    assert (await store.records.record(GLOBAL, 1)).practice.sessions == 1
    # The computer keeps no record, and nobody is on a board.
    assert (await store.records.record(GUILD, 99)).practice == PlayerStats()
    for scope in (GUILD, GLOBAL):
        board = await store.records.leaderboard(scope, 1)
        assert board.rows == () and board.players == 0
    [line] = await store.records.recent(GUILD, 1)
    assert line.computer_level == "easy" and line.names == ("Computer (easy)", "Ada")
    # Practice is no head-to-head (review142): the computer is no member to be matched with.
    h2h = await store.records.head_to_head(GUILD, 1, 99)
    assert (h2h.won, h2h.lost, len(h2h.recent)) == (0, 0, 0)


async def test_one_lucky_session_does_not_top_the_board(store: Store) -> None:
    # Steady wins 6 of 8 against a crowd of others, then loses once to a newcomer.
    for i in range(8):
        other = (100 + i, f"Other {i}")
        if i < 6:
            await forfeited(store, (3, "Steady"), other, now=2000.0 + i)
        else:
            await forfeited(store, other, (3, "Steady"), now=2000.0 + i)
    await forfeited(store, (1, "Lucky"), (3, "Steady"), now=3000.0)
    lucky, steady = [(await store.records.record(GUILD, i)).rating for i in (1, 3)]
    assert lucky is not None and steady is not None
    # Lucky's mean is the higher: the cautious estimate (mu - 3 sigma) puts Steady first.
    assert lucky.mu > steady.mu and lucky.value < steady.value
    assert lucky.value == pytest.approx(lucky.mu - 3 * lucky.sigma)
    board = await store.records.leaderboard(GUILD, 1)
    first = board.rows[0]
    assert (first.name, first.rank, first.sessions_won, first.sessions) == ("Steady", 1, 6, 9)
    assert steady.rank == 1 and lucky.rank > 1


async def test_servers_have_their_own_boards_and_share_the_global_one(store: Store) -> None:
    await forfeited(store, (1, "Ada"), (2, "Ben"), guild=10)
    await forfeited(store, (2, "Ben"), (3, "Cy"), guild=11)
    assert [r.user_id for r in (await store.records.leaderboard(10, 1)).rows] == [1, 2]
    assert [r.user_id for r in (await store.records.leaderboard(11, 1)).rows] == [2, 3]
    world = await store.records.leaderboard(GLOBAL, 1)
    assert {r.user_id for r in world.rows} == {1, 2, 3}
    ben = await store.records.record(GLOBAL, 2)
    assert (ben.rated.sessions_won, ben.rated.sessions_lost) == (1, 1)
    assert await store.records.recent(10, 3) == []


async def test_board_pages_and_ranks_agree(store: Store) -> None:
    for i in range(12):
        await forfeited(store, (1000 + i, f"Winner {i}"), (2000 + i, f"Loser {i}"))
    board = await store.records.leaderboard(GUILD, 1)
    assert (board.page, board.pages, board.players, len(board.rows)) == (1, 3, 24, 10)
    last = await store.records.leaderboard(GUILD, 3)
    # Twelve winners of one session each, twelve losers: two ties (tests/test_ranks.py).
    assert [r.rank for r in last.rows] == [13, 13, 13, 13]
    assert await store.records.leaderboard(GUILD, 99) == last
    everyone = [*board.rows, *(await store.records.leaderboard(GUILD, 2)).rows, *last.rows]
    assert len({r.user_id for r in everyone}) == 24
    for row in everyone:
        rating = (await store.records.record(GUILD, row.user_id)).rating
        assert rating is not None and rating.rank == row.rank


async def test_the_newest_name_is_kept(store: Store) -> None:
    await forfeited(store, (1, "Ada"), (2, "Ben"), now=1000.0)
    await forfeited(store, (1, "Ada L."), (2, "Ben"), now=2000.0)
    assert (await store.records.record(GUILD, 1)).name == "Ada L."
    [row, _] = (await store.records.leaderboard(GUILD, 1)).rows
    assert row.name == "Ada L."
    # History keeps the name each session was played under.
    lines = await store.records.recent(GUILD, 1)
    assert [line.names[0] for line in lines] == ["Ada L.", "Ada"]


async def test_a_state_that_cannot_be_replayed_still_ends_the_session(store: Store) -> None:
    match_id = await store.create_match(
        guild_id=GUILD, channel_id=1, players=((1, "Ada"), (2, "Ben")), variant="english",
        turn_timer=0, state="{}", deadline=None)
    await store.finish_match(match_id=match_id, version=0, state="{}",
                             finish=Finish(0, "played out", (2, 0), "[[[30, 10]], [[5, 9]]]"))
    hands = await store.records.hands(match_id)
    assert [(h.game, h.hand, h.scores, h.went_out) for h in hands] == [
        (1, 1, (30, 10), None), (2, 1, (5, 9), None)]
    ada = (await store.records.record(GUILD, 1)).rated
    assert (ada.points, ada.best_hand, ada.hands_won, ada.hands_lost) == (35, 30, 1, 1)


@pytest.mark.parametrize("name, sql, params", [
    ("board", record_reads.BOARD_SQL, (1, 10, 0)),
    ("players", record_reads.PLAYERS_SQL, (1,)),
    ("above", record_reads.ABOVE_SQL, (1, 2.0)),
    ("near", record_reads.NEAR_SQL, (1, 2.0, 2.2)),
    ("stats", record_reads.STATS_SQL, (1, 2)),
    ("rating", record_reads.RATING_SQL, (1, 2)),
    ("recent", record_reads.RECENT_SQL, (1, 2, 5)),
    ("versus", record_reads.VERSUS_SQL, (1, 2, 3, 5)),
    ("versus count", record_reads.VERSUS_COUNT_SQL, (1, 2, 3)),
])
@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite's plans; PostgreSQL's vary with size
async def test_reads_use_indexes_not_scans(store: Store, name: str, sql: str,
                                           params: tuple[object, ...]) -> None:
    plan = [str(r["detail"]) for r in await store.db.fetchall("EXPLAIN QUERY PLAN " + sql,
                                                              params)]
    for step in plan:
        assert not (step.startswith("SCAN") and "CONSTANT ROW" not in step), (name, plan)
        assert "TEMP B-TREE" not in step, (name, plan)


async def test_a_failed_count_is_undone_and_counted_at_the_next_start(
        store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*args: object) -> PlayerStats:
        raise RuntimeError("stats on fire")

    monkeypatch.setattr(records, "seat_stats", broken)
    match_id, session = await played(store, 3, ((1, "Ada"), (2, "Ben")))
    # The session ended all the same, with its result; nothing of the count was kept.
    row = await store.match(match_id)
    assert row is not None and row.status == "finished"
    assert [r["recorded"] for r in await store.session_results(GUILD)] == [0]
    assert await store.records.hands(match_id) == []
    assert await store.records.recent(GUILD, 1) == []
    assert (await store.records.leaderboard(GLOBAL, 1)).players == 0
    assert "stats on fire" in caplog.text
    assert await store.count_backlog() == 0  # still broken: left for later, no endless loop
    monkeypatch.undo()
    assert await store.count_backlog() == 1
    assert (await store.records.record(GUILD, 1)).rated.sessions == 1
    assert len(await store.records.hands(match_id)) == sum(map(len, session.finished_games))


@pytest.mark.parametrize("forfeit", [False, True])
def test_the_hand_log_tells_what_a_replay_tells(forfeit: bool) -> None:
    import random

    from data.records import replay
    from umtali.codec import session_to_json
    from umtali.rules import RuleSet
    from umtali.session import Session

    session = Session(RuleSet.english(), 77)
    rng = random.Random(77)
    while not session.over and not (forfeit and len(session.moves) > 400):
        session.apply(rng.choice(session.legal_moves()))
    if forfeit:
        session.resign(1, "timed out")
    saved = session_to_json(session)
    from_log = replay(json.dumps(saved))
    del saved["hand_log"]  # as saved before the log existed: replayed instead
    replayed = replay(json.dumps(saved))
    assert from_log is not None and replayed is not None
    assert from_log == replayed
    assert sum(from_log.marriages) > 0
