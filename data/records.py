"""Records: every finished session counted once into stats and ratings (read back by
``data.record_reads``).

``count_session`` runs in the transaction that ends the session (``Store._finish``), so a result,
its stats and its ratings are written together or not at all; the ``recorded`` flag makes the
counting happen exactly once, whoever asks. Results kept before records existed, or whose count
failed, are counted by ``count_backlog`` at start-up and at every season tick, oldest first, the
same way.

Ratings are openskill's Plackett-Luce model, one per person per server and one across all
servers (scope ``GLOBAL``). Boards order people by the conservative ``mu - 3 sigma``, so a newcomer
with one lucky win sits below someone who has won steadily. Sessions against the computer are
counted in their own ``practice`` stats and never touch ratings.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, fields
from typing import Any

import asyncpg

from data.db import Database, Row, Tx
from data.failing import failing_for_now
from data.models import (
    HandLine,
    PlayerStats,
)
from data.ratings import MODEL
from data.seasons import current_season, rate_season
from umtali.codec import deal_from_json
from umtali.events import HandEnded, Melded
from umtali.melds import PlayKind
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.session import Session

log = logging.getLogger(__name__)

#: The scope of records across all servers (Discord ids are never 0).
GLOBAL = 0
#: How a session ends when its loser forfeits it.
FORFEITS = ("resigned", "timed out")


# -- what a session adds ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replayed:
    """A session as its replay tells it: every finished hand, and who melded marriages."""

    hands: list[HandLine]
    #: Marriages per seat, those of the unfinished hand of a forfeit included.
    marriages: tuple[int, int]


def replay(state: str | None) -> Replayed | None:
    """Replay a saved session from its seed and moves (the saved state holds only the hand in
    play). None when it cannot be replayed: the result is then kept without those details."""
    try:
        d = json.loads(state or "")
        if "hand_log" in d:
            return _from_log(d)
        deal = deal_from_json(d["first_deal"]) if d.get("first_deal") else None
        # Moves repeat ("draw"): parse each text once; the replay holds the write lock.
        parsed = {text: Move.parse(text) for text in set(d["moves"])}
        _, events = Session.replay(RuleSet.from_json(d["rules"]), d["seed"],
                                   [parsed[text] for text in d["moves"]], deal)
    except Exception as error:  # counting must never stop a session from ending
        log.warning("a finished session could not be replayed for its records: %r", error)
        return None
    hands: list[HandLine] = []
    in_hand = [0, 0]
    total = [0, 0]
    for e in events:
        if isinstance(e, Melded) and e.kind is PlayKind.MARRIAGE:
            in_hand[e.player] += 1
            total[e.player] += 1
        elif isinstance(e, HandEnded):
            hands.append(HandLine(e.game, e.hand, e.scores, e.went_out,
                                  (in_hand[0], in_hand[1])))
            in_hand = [0, 0]
    return Replayed(hands, (total[0], total[1]))


def _from_log(d: dict[str, Any]) -> Replayed:
    """The same, read from the hand log the session keeps: no replay, so recording a result
    costs little however long the session was."""
    hands = [HandLine(g, h, (a, b), None if out < 0 else out, (m0, m1))
             for g, h, a, b, out, m0, m1 in d["hand_log"]]
    total = [sum(line.marriages[seat] for line in hands) for seat in (0, 1)]
    if d["how"] != "played out":
        # A forfeit leaves a hand unfinished: its marriages count too.
        for play in d["hand"]["plays"]:
            if play["kind"] == PlayKind.MARRIAGE.value:
                total[int(play["player"])] += 1
    return Replayed(hands, (total[0], total[1]))


def hand_lines(row: Row, replayed: Replayed | None) -> list[HandLine]:
    """The finished hands: from the replay, or else from the scores kept with the result."""
    if replayed is not None:
        return replayed.hands
    # Every finished game has a winner; only a forfeit leaves one more, unfinished. (The scores
    # kept with a played-out result repeat its last game: trimming also undoes that.)
    games = row["games_won0"] + row["games_won1"] + (row["how"] != "played out")
    return [HandLine(g, h, (int(a), int(b)), None, (0, 0))
            for g, hands in enumerate(json.loads(row["hand_scores"] or "[]")[:games], 1)
            for h, (a, b) in enumerate(hands, 1)]


def seat_stats(row: Row, seat: int, hands: list[HandLine],
               replayed: Replayed | None) -> PlayerStats:
    """What one session adds to the totals of the person in ``seat``."""
    other = 1 - seat
    won = row["winner_seat"] == seat
    mine = [h.scores[seat] for h in hands]
    return PlayerStats(
        sessions_won=int(won), sessions_lost=int(not won),
        games_won=row[f"games_won{seat}"], games_lost=row[f"games_won{other}"],
        hands_won=sum(h.scores[seat] > h.scores[other] for h in hands),
        hands_lost=sum(h.scores[seat] < h.scores[other] for h in hands),
        points=sum(mine), best_hand=max(mine, default=None),  # none scored: none
        marriages=replayed.marriages[seat] if replayed else 0,
        went_out=sum(h.went_out == seat for h in hands),
        forfeits=int(not won and row["how"] in FORFEITS),
    )


def recorded_name(row: Row, seat: int, scope: int) -> str:
    """The name ``seat`` is recorded under in ``scope``: on their server's records, the one
    they had there (their nickname); on those of all servers, their Discord-wide display name,
    as a nickname is its server's alone (a result from before it was kept: the name here)."""
    if scope == GLOBAL:
        return str(row[f"player{seat}_global_name"] or row[f"player{seat}_name"])
    return str(row[f"player{seat}_name"])


# -- counting, inside the transaction that ends the session --------------------------------

_COLS = tuple(f.name for f in fields(PlayerStats))


def _greater(a: str, b: str) -> str:
    """The greater of two values (SQLite's two-argument MAX is GREATEST in PostgreSQL)."""
    return f"CASE WHEN {b} > {a} THEN {b} ELSE {a} END"


_STATS_HEAD = (f"INSERT INTO player_stats AS s (scope, user_id, practice, name, "
               f"{', '.join(_COLS)}, last_at)")
_STATS_TAIL = (
    "ON CONFLICT (scope, user_id, practice) DO UPDATE SET "
    # The newest name wins, whatever order results are counted in.
    # (The kept row's columns are named ``s.``: PostgreSQL finds a bare name ambiguous here.)
    "name = CASE WHEN excluded.last_at >= s.last_at THEN excluded.name ELSE s.name END, "
    # A best hand is NULL until a hand is scored: a forfeit's none leaves it, a hand fills it.
    + ", ".join("best_hand = CASE WHEN s.best_hand IS NULL OR excluded.best_hand > s.best_hand "
                "THEN excluded.best_hand ELSE s.best_hand END" if c == "best_hand"
                else f"{c} = s.{c} + excluded.{c}" for c in _COLS)
    + f", last_at = {_greater('s.last_at', 'excluded.last_at')}"
)


async def _insert(tx: Tx, head: str, rows: list[tuple[object, ...]], tail: str = "") -> None:
    """One multi-row INSERT: a trip to the database thread per table, not per row (this runs
    while the session's end holds the write lock)."""
    if rows:
        marks = "(" + ", ".join("?" * len(rows[0])) + ")"
        await tx.execute(f"{head} VALUES {', '.join([marks] * len(rows))} {tail}",
                         tuple(v for r in rows for v in r))


async def count_session(tx: Tx, match_id: int) -> bool:
    """Count a kept result into hands, history, stats and ratings; False if it already was.

    A failure of the count itself must neither stop the session from ending nor leave half a
    count in the transaction it shares with other matches' moves: it is undone to a savepoint,
    logged, and the result stays uncounted for the next sweep (``count_backlog``). Waiting too
    long for another process's rating lock, a deadlock or a serialization failure is not the
    count's fault and would pass the next time: it is undone the same way and raised, so that
    the session's ending fails as a whole and is tried again (a move or a resign as any failed
    save, a forfeit at the clock's next tick), its ratings applied in the order played.
    """
    return bool(await _try_count(tx, match_id))


#: Errors of contention between processes (PostgreSQL): the ending that met one is retried.
CONTENTION: tuple[type[Exception], ...] = (
    asyncpg.LockNotAvailableError, asyncpg.TransactionRollbackError,
    asyncpg.QueryCanceledError)


async def _try_count(tx: Tx, match_id: int, for_now: list[int] | None = None,
                     now: float | None = None) -> bool | None:
    """``count_session``, with None when the count failed (logged, undone); ``for_now``: where
    its id goes when that was the database failing for now (no bug: counted later); ``now``:
    the clock counting it (None: as the session ends, its own end)."""
    await tx.execute("SAVEPOINT count_session")
    counted: bool | None
    try:
        counted = await _count(tx, match_id, now)
    except CONTENTION:
        await tx.execute("ROLLBACK TO count_session")
        await tx.execute("RELEASE count_session")
        raise
    except Exception as e:
        await tx.execute("ROLLBACK TO count_session")
        if failing_for_now(e):
            # The disk failing or full, a statement's timeout: no bug, and counted later.
            log.warning("session %d could not be counted into stats and ratings (%s: %s); "
                        "counted later", match_id, e.__class__.__name__, e)
            if for_now is not None:
                for_now.append(match_id)
        else:
            log.exception("session %d could not be counted into stats and ratings", match_id)
        counted = None
    await tx.execute("RELEASE count_session")
    return counted


async def _count(tx: Tx, match_id: int, now: float | None) -> bool:
    marked = await tx.execute(
        "UPDATE session_results SET recorded = 1 WHERE match_id = ? AND recorded = 0",
        (match_id,))
    if marked.rowcount != 1:
        return False
    [row] = await tx.fetchall(
        "SELECT r.*, m.state FROM session_results r "
        "LEFT JOIN matches m ON m.id = r.match_id WHERE r.match_id = ?", (match_id,))
    replayed = replay(row["state"])
    hands = hand_lines(row, replayed)
    await _insert(
        tx, "INSERT INTO session_hands (match_id, game, hand, score0, score1, went_out, "
        "marriages0, marriages1)",
        [(match_id, h.game, h.hand, *h.scores, h.went_out, *h.marriages) for h in hands])
    ids = (row["player0_id"], row["player1_id"])
    practice = int(row["computer_level"] is not None)
    rated = not practice and ids[0] != ids[1]
    if rated:
        # Another process may be counting a session of one of these players in the same
        # moment: they take turns before touching any row of theirs (their stats rows, taken
        # seat by seat, would be locked in opposite orders by a session seated the other way).
        await tx.serialise(ids)
    at, scopes = row["finished_at"], (row["guild_id"], GLOBAL)
    people = [seat for seat in (0, 1) if seat != row["computer_seat"]]  # not the computer
    await _insert(
        tx, "INSERT INTO session_players (match_id, seat, user_id, opponent_id, guild_id, won, "
        "practice, finished_at)",
        [(match_id, seat, ids[seat], ids[1 - seat], row["guild_id"],
          int(row["winner_seat"] == seat), practice, at) for seat in people])
    added = {seat: seat_stats(row, seat, hands, replayed) for seat in people}
    await _insert(tx, _STATS_HEAD, [
        (scope, ids[seat], practice, recorded_name(row, seat, scope),
         *(getattr(added[seat], c) for c in _COLS), at)
        for seat in people for scope in scopes], _STATS_TAIL)
    if rated:
        moved = await _rate(tx, scopes, ids, row["winner_seat"])
        for seat in people:  # as the server's board shows them, for the session's final card
            await tx.execute(
                "UPDATE session_players SET rating_before = ?, rating_after = ? "
                "WHERE match_id = ? AND seat = ?", (*moved[(scopes[0], ids[seat])], match_id,
                                                    seat))
        await _rate_season(tx, row, ids, at, at if now is None else now)
    return True


async def _rate_season(tx: Tx, row: Row, ids: tuple[int, int], at: float,
                       now: float) -> None:
    settings = await tx.fetchone("SELECT seasons FROM guild_settings WHERE guild_id = ?",
                                 (row["guild_id"],))
    cadence = settings["seasons"] if settings is not None else "off"
    season = await current_season(tx, row["guild_id"], cadence, at, now)
    if season is not None:
        moved = await rate_season(tx, row["guild_id"], season, ids,
                                  (row["player0_name"], row["player1_name"]),
                                  row["winner_seat"])
        for seat, (before, after) in enumerate(moved):  # for the final card, as above
            await tx.execute(
                "UPDATE session_players SET season = ?, season_before = ?, season_after = ? "
                "WHERE match_id = ? AND seat = ?", (season, before, after, row["match_id"],
                                                    seat))


async def _rate(tx: Tx, scopes: tuple[int, int], ids: tuple[int, int],
                winner: int) -> dict[tuple[int, int], tuple[float, float]]:
    """Both players' ratings in each scope, after ``winner`` beat the other; returns each
    (scope, person)'s board value before and after."""
    rows_before = await tx.fetchall(
        "SELECT scope, user_id, mu, sigma FROM ratings "
        "WHERE scope IN (?, ?) AND user_id IN (?, ?)", (*scopes, *ids))
    known = {(r["scope"], r["user_id"]): MODEL.rating(r["mu"], r["sigma"]) for r in rows_before}
    rows: list[tuple[object, ...]] = []
    moved: dict[tuple[int, int], tuple[float, float]] = {}
    for scope in scopes:
        teams = [[known.get((scope, i)) or MODEL.rating()] for i in ids]
        rated = MODEL.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
        for user_id, [before], [r] in zip(ids, teams, rated, strict=True):
            rows.append((scope, user_id, r.mu, r.sigma, r.ordinal()))
            moved[(scope, user_id)] = (before.ordinal(), r.ordinal())
    await _insert(tx, "INSERT INTO ratings (scope, user_id, mu, sigma, ordinal)", rows,
                  "ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, "
                  "sigma = excluded.sigma, ordinal = excluded.ordinal")
    return moved


async def count_backlog(db: Database, batch: int = 50, skip: set[int] | None = None,
                        counted_ids: list[int] | None = None,
                        left: list[int] | None = None, now: float | None = None) -> int:
    """Count every kept result not counted yet (kept before records existed, or whose counting
    failed), oldest first so that ratings follow the order sessions were played in. Returns how
    many were counted, their ids added to ``counted_ids``. One whose count fails is added to
    ``skip`` (this process's sweeps pass it by; the next start tries it again). Contention with
    another process, or the database failing for now (a full disk), stops the sweep there,
    what it counted kept: the rest waits for the next sweep, still in order (the result it
    stopped at added to ``left``); such a result is never passed by as one that a bug keeps
    from being counted, else it waited for the next start, its season ended meanwhile.
    ``now``: the clock (None: the system's), whose season alone may open (``current_season``;
    within ``seasons.LATE`` past a result's period, that period's season too)."""
    skip = set() if skip is None else skip
    now = time.time() if now is None else now
    pending = [r["match_id"] for r in await db.fetchall(
        "SELECT match_id FROM session_results WHERE recorded = 0 ORDER BY finished_at, match_id")
        if r["match_id"] not in skip]
    counted = 0
    for first in range(0, len(pending), batch):
        async with db.transaction() as tx:
            for match_id in pending[first:first + batch]:
                for_now: list[int] = []
                try:
                    done = await _try_count(tx, match_id, for_now, now)
                except CONTENTION as e:
                    log.info("counting earlier results waits for another process (%s)", e)
                    if left is not None:
                        left.append(match_id)
                    return counted
                if for_now:
                    if left is not None:
                        left.append(match_id)
                    return counted
                if done is None:
                    skip.add(match_id)
                elif done and counted_ids is not None:
                    counted_ids.append(match_id)
                counted += bool(done)
    return counted
