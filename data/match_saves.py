"""The store's saves of a match in play: its moves, its turn's deadline after downtime or a
player's answer, and its end, with or without a result; each under a version check, and each
adding to what the match has still to announce (``data.store.Store`` has them all)."""

from __future__ import annotations

import time
from collections.abc import Sequence

import orjson

from data.db import Database, Tx
from data.messages import owe_end_line, read_saved
from data.models import AsSaved, Finish
from data.records import count_session


class StaleState(Exception):
    """The match moved on since the state being saved was loaded."""


def _held(owner: str) -> str:
    """The assignments that make ``owner`` the match's holder, if one is given."""
    return ", owner = ?, lease_until = ?, stood_since = NULL" if owner else ""


def _holder(owner: str, lease_until: float) -> tuple[object, ...]:
    return (owner, lease_until) if owner else ()


async def _announce(c: Tx, match_id: int, texts: Sequence[str]) -> list[str]:
    """Add ``texts`` to what the match has still to announce, in the transaction that has just
    written its row (so holding it); return the whole list. Added to the list as saved, never
    written from a copy: the holder may have posted and cleared some of it since that copy
    was read, and a list written whole from the copy would post those again."""
    assert not isinstance(texts, str), "a list of announcements, not one text"
    row = await c.fetchone("SELECT unsent, channel_lost FROM matches WHERE id = ?", (match_id,))
    unsent: list[str] = [] if row is None else list(orjson.loads(row["unsent"]))
    # A channel lost meanwhile (the saving process's copy was read before) is posted nothing:
    # queued for it, an announcement would go to the channel the match left, or never out.
    if texts and row is not None and not row["channel_lost"]:
        unsent += texts
        await c.execute("UPDATE matches SET unsent = ? WHERE id = ?",
                        (orjson.dumps(unsent).decode(), match_id))
    return unsent


def _unwarned(keep_warned: bool) -> str:
    """The turn's warning to come again with its new deadline, unless ``keep_warned``."""
    return "" if keep_warned else ", warned = 0"


class MatchSaves:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def resume_turn(self, match_id: int, deadline: float, announce: Sequence[str] = (),
                          reserve: tuple[int, float] | None = None,
                          version: int | None = None, owner: str | None = None,
                          keep_warned: bool = False,
                          was: float | None = None) -> list[str] | None:
        """After downtime: the turn's new deadline, its warning to come (``keep_warned``: as it
        was, the deadline moved by too little to warn again), ``announce`` added to
        what is left to say (returned, whole), and (``reserve``: seat, seconds) what is left
        of the reserve of the seat to act; with ``version``, only if the match is still at it
        (another process may have saved a move since it was read: None); with ``owner``, only
        if that process holds it still (one held up past its lease after taking the match
        over: the match was taken again, and its turn resumed there). With ``was``, only if
        the turn ends then as saved, or between then and ``deadline`` (a part paid before, its
        answer lost); one ending at ``deadline`` already is this resume saved before, its
        answer lost (what is left to say returned as saved, nothing added again)."""
        seat, left = reserve if reserve is not None else (0, None)
        assert seat in (0, 1)
        guard = "" if version is None else " AND version = ?"
        held = "" if owner is None else " AND owner = ?"
        guards = (*(() if version is None else (version,)), *(() if owner is None else (owner,)))
        # From ``was`` on, short of ``deadline``: a part of this time paid before, its answer
        # lost, then more owed (the database failing again before this payment): the rest is
        # paid now (refused, the time owed was dropped and the turn ended at ``was``).
        owed = "" if was is None else " AND deadline >= ? AND deadline < ?"
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET deadline = ?{_unwarned(keep_warned)}, stood_since = NULL, "
                f"reserve{seat} = COALESCE(?, reserve{seat}) "
                f"WHERE id = ? AND status = 'active'{guard}{held}{owed}",
                (deadline, left, match_id, *guards,
                 *(() if was is None else (was, deadline))))
            if cur.rowcount == 1:
                return await _announce(c, match_id, announce)
            if was is None:
                return None
            row = await c.fetchone(
                f"SELECT unsent FROM matches WHERE id = ? AND status = 'active'{guard}{held} "
                "AND deadline = ?", (match_id, *guards, deadline))
            return None if row is None else list(orjson.loads(row["unsent"]))

    async def set_deadline(self, match_id: int, version: int, deadline: float | None, *,
                           owner: str | None = None, taker: str = "",
                           lease_until: float = 0.0, untold: int | None = None,
                           keep_warned: bool = False, answered: bool = False) -> bool:
        """The turn at ``version`` ends at ``deadline`` now (None: its time is up, and the
        waiting player was asked), its warning to come (``keep_warned``: as it was, time given
        back too little to warn again); False if the match moved on, or,
        ``owner`` given (a timer's change, made by the holder alone), is held by another
        process now: a take-over keeps the version, and gives the turn its own deadline.
        ``taker``: a player's answer, saved by that process, which holds the match from now
        on (leased until ``lease_until``), as a move's does. ``untold``: the seat then to be
        told its turn anew by a new DM panel (``dm_told``), saved with the answer.
        ``answered``: the time-up question's "keep waiting": only on a clock stopped as saved
        (of two answers racing, one is saved), the question forgotten in the same save (a
        failure leaves it standing, answerable again)."""
        held = "" if owner is None else " AND owner = ?"
        if answered:
            held += " AND deadline IS NULL"
        told = "" if untold is None else f", dm{untold}_told = ''"
        asked = ", question = ''" if answered else ""
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET deadline = ?{_unwarned(keep_warned)}{told}{asked}"
                f"{_held(taker)} "
                f"WHERE id = ? AND version = ? AND status = 'active'{held}",
                (deadline, *_holder(taker, lease_until), match_id, version,
                 *(() if owner is None else (owner,))))
            return cur.rowcount == 1

    async def set_warned(self, match_id: int) -> None:
        async with self.db.transaction() as c:
            await c.execute("UPDATE matches SET warned = 1 WHERE id = ?", (match_id,))

    async def record_move(
        self, *, match_id: int, version: int, seat: int, move: str, state: str,
        deadline: float | None, pending: str = "", announce: Sequence[str] = (),
        finish: Finish | None = None, now: float | None = None, reserve: float | None = None,
        owner: str = "", lease_until: float = 0.0, only_held: bool = False,
        question: str | None = None, saved: AsSaved | None = None, keep_deadline: bool = False,
        judged: bool = False, judged_by: float | None = None, comeback: bool = False,
    ) -> list[str]:
        """Save a move and the state after it, in one transaction; return what is left to
        announce, ``announce`` (this move's announcements) included.

        ``version`` is the number of moves before this one; if the saved match has moved on
        (another process or a racing click), nothing is written and StaleState is raised.
        ``reserve``: what is left of the seat's reserve (time bank) after its turn, if spent.
        ``owner``: the process saving it, which holds the match from now on (``data.leases``);
        ``only_held``: only if it holds it already (the computer's move). ``question``: the
        time-up question as it is now (withdrawn by this move), None to leave it as saved.
        ``saved``: filled with where the match is shown as saved with the move (for a copy
        read before it: a newer panel its holder sent meanwhile, a table moved since).
        ``keep_deadline``: a move within the turn, its clock running on: the turn's deadline
        and warning as saved are kept (time its holder gave back since the copy was read keeps
        the version); a clock stopped there since (the time-up question asked, its version
        kept) finds the match moved on (StaleState): judged again on it, the move withdraws
        the question.
        ``judged``: the turn's last move, judged by the turn's deadline ``judged_by`` (and the
        reserve with it): only if that is the deadline as saved. Another (time given back by
        its holder since the copy was read, a turn resumed, its reserve cut) finds the match
        moved on (StaleState): judged again on it.
        ``comeback``: a move within the turn to a clock stopped for the time-up question, which
        it withdraws: only if the clock is stopped as saved (the question answered by its
        holder since the copy was read, the clock running again, finds the match moved on).
        """
        now = time.time() if now is None else now
        assert seat in (0, 1)
        assert not (keep_deadline and judged)
        held = " AND owner = ?" if only_held else ""
        if keep_deadline:
            held += " AND deadline IS NOT NULL"
        if judged:
            held += " AND deadline IS NOT DISTINCT FROM ?"
        if comeback:
            held += " AND deadline IS NULL"
        asked = "" if question is None else ", question = ?"

        async def job(c: Tx) -> list[str]:
            # (kept: the parameters bound all the same)
            clock = "deadline = COALESCE(deadline, ?), warned = CASE WHEN deadline IS NOT " \
                "NULL OR deadline IS NOT DISTINCT FROM ? THEN warned ELSE 0 END" \
                if keep_deadline else \
                "deadline = ?, warned = CASE WHEN deadline IS NOT DISTINCT FROM ? THEN warned " \
                "ELSE 0 END"
            cur = await c.execute(
                f"UPDATE matches SET state = ?, version = version + 1, {clock}, "
                # A move of the seat's proves its player back: a later absence counts its
                # day from its own start (``data.absences``), not from one before the move.
                f"pending = ?, reserve{seat} = COALESCE(?, reserve{seat}), "
                f"gone_since{seat} = NULL{asked}"
                f"{_held(owner)} WHERE id = ? AND version = ? AND status = 'active'{held}",
                (state, deadline, deadline, pending, reserve,
                 *(() if question is None else (question,)),
                 *_holder(owner, lease_until), match_id, version,
                 *((owner,) if only_held else ()), *((judged_by,) if judged else ())),
            )
            if cur.rowcount != 1:
                raise StaleState(f"match {match_id} is not at move {version}")
            await c.execute(
                "INSERT INTO moves (match_id, ply, seat, move, at) VALUES (?, ?, ?, ?, ?)",
                (match_id, version, seat, move, now),
            )
            if finish is not None:
                await self._finish(c, match_id, finish, now)
            if saved is not None:
                await read_saved(c, match_id, saved)
            return await _announce(c, match_id, announce)

        return await self.db.batched(job)

    async def finish_match(self, *, match_id: int, version: int, state: str, finish: Finish,
                           announce: Sequence[str] = (), now: float | None = None,
                           owner: str = "", lease_until: float = 0.0,
                           only_held: bool = False, stopped: bool = False,
                           saved: AsSaved | None = None) -> list[str]:
        """End a match without a move (resigned, timed out), once; return what is left to
        announce, ``announce`` included. ``owner`` holds it from now on; ``only_held``: only
        if it holds it already (a timer's forfeit). ``stopped``: only if its clock is stopped
        as saved (the time-up question's claim: "keep waiting" saved meanwhile runs it again,
        at the same version), the time-up question forgotten in the same save (a failure
        leaves it standing, answerable again). ``saved``: as ``record_move``'s."""
        now = time.time() if now is None else now
        held = " AND owner = ?" if only_held else ""
        if stopped:
            held += " AND deadline IS NULL"
        asked = ", question = ''" if stopped else ""
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET state = ?{asked}{_held(owner)} "
                f"WHERE id = ? AND version = ? AND status = 'active'{held}",
                (state, *_holder(owner, lease_until), match_id, version,
                 *((owner,) if only_held else ())),
            )
            if cur.rowcount != 1:
                raise StaleState(f"match {match_id} is not at move {version}")
            await self._finish(c, match_id, finish, now)
            if saved is not None:
                await read_saved(c, match_id, saved)
            return await _announce(c, match_id, announce)

    async def abandon_match(self, match_id: int, how: str, now: float | None = None,
                            announce: Sequence[str] | None = None, owner: str = "",
                            lease_until: float = 0.0, channel_lost: bool = False,
                            saved: AsSaved | None = None, resend: str = "",
                            unreachable: bool = False, ended_by: int | None = None,
                            turn: bool = False, end_line: bool = False) -> list[str] | None:
        """End a match with no winner and no record (``how``: ``abandoned``, ``cancelled``),
        freeing both players; None if it had already ended, else what is left to announce:
        with ``announce`` (an admin's notice, the reveal of its seed), that added, by
        ``owner``, which holds it from now on; without, nothing (what waited is dropped).
        ``channel_lost``: its channel is marked lost with the ending, in one save (the bot was
        removed from its server).
        ``resend``: what its delivery owes from now on (``set_resend``), saved with it.
        ``saved``: as ``record_move``'s. ``unreachable``: only if, as saved, its channel is
        lost and a player's DMs closed (another process may have brought it back to a
        channel since this copy was read). ``ended_by``: the server admin who ended it.
        ``turn``: the lines of the turn in progress as saved (held back until it ends) are
        announced first, as a resignation's are: as saved, as a copy's may be behind.
        ``end_line``: its challenge message's end line owed from now on (``owe_end_line``; not
        for a match that could not be read, whose table nobody draws)."""
        now = time.time() if now is None else now
        owes = ", resend = ?" if resend else ""
        by = ", ended_by = ?" if ended_by is not None else ""
        still = (" AND channel_lost = 1 AND (dm_refused0 != 0 OR dm_refused1 != 0)"
                 if unreachable else "")
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET status = 'finished', finished_at = ?, how = ?, "
                f"deadline = NULL{', channel_lost = 1' if channel_lost else ''}{owes}{by}"
                f"{_held(owner)} WHERE id = ? AND status = 'active'{still}",
                (now, how, *((resend,) if resend else ()),
                 *((ended_by,) if ended_by is not None else ()), *_holder(owner, lease_until),
                 match_id))
            if cur.rowcount != 1:
                return None
            await c.execute("DELETE FROM active_players WHERE match_id = ?", (match_id,))
            await c.execute("UPDATE challenges SET status = 'cancelled' WHERE match_id = ?",
                            (match_id,))
            if end_line:
                await owe_end_line(c, match_id)
            if saved is not None:
                await read_saved(c, match_id, saved)
            if turn:
                row = await c.fetchone("SELECT pending FROM matches WHERE id = ?", (match_id,))
                said = "" if row is None else str(row["pending"]).strip()[:2000]
                if said:
                    announce = [said, *(announce or ())]
            if announce is None:
                await c.execute("UPDATE matches SET unsent = '[]' WHERE id = ?", (match_id,))
                return []
            return await _announce(c, match_id, announce)

    async def _finish(self, c: Tx, match_id: int, f: Finish,
                      now: float) -> None:
        await c.execute(
            "UPDATE matches SET status = 'finished', finished_at = ?, winner_seat = ?, how = ?, "
            "deadline = NULL WHERE id = ?",
            (now, f.winner_seat, f.how, match_id),
        )
        cur = await c.execute(
            "INSERT INTO session_results (match_id, guild_id, player0_id, player1_id, "
            "player0_name, player1_name, winner_seat, how, games_won0, games_won1, variant, "
            "hand_scores, computer_seat, computer_level, finished_at, player0_global_name, "
            "player1_global_name) SELECT id, guild_id, "
            "player0_id, player1_id, player0_name, player1_name, ?, ?, ?, ?, variant, ?, "
            "computer_seat, computer_level, ?, player0_global_name, player1_global_name "
            "FROM matches WHERE id = ? "
            "ON CONFLICT DO NOTHING",
            (f.winner_seat, f.how, f.games_won[0], f.games_won[1], f.hand_scores, now, match_id),
        )
        if cur.rowcount == 1:
            # Stats and ratings change with the result, in this transaction: counted once.
            await count_session(c, match_id)
        await c.execute("DELETE FROM active_players WHERE match_id = ?", (match_id,))
        await owe_end_line(c, match_id)
