"""Challenges in the store, and the limits that keep one member from flooding a server with
them."""

from __future__ import annotations

import time
from dataclasses import dataclass

from data.db import Database, Tx
from data.models import Challenge, challenge_of
from data.seasons import guild_key
from data.stops import stopped


class Refused(Exception):
    """A limit against spam refused a new challenge or practice session.

    ``reason`` is ``"stopped"`` (the opponent takes no challenges from this challenger),
    ``"pair"`` (these two already have an open challenge), ``"open"`` (the challenger has too
    many open), ``"declined"`` (the opponent declined this challenger's challenge a short
    while ago), ``"unanswered"`` (too many to this opponent left unaccepted of late) or
    ``"cooldown"`` (too soon after the last one); wait ``retry_after`` seconds.
    ``mine``: the pair's open challenge is the challenger's own (not one to answer).
    """

    def __init__(self, reason: str, retry_after: float = 0.0, *, mine: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.mine = mine


@dataclass(frozen=True, slots=True)
class Limits:
    """How often one member may open challenges or practice sessions on a server."""

    #: Open challenges a member may have at once.
    open_challenges: int = 3
    #: Seconds between two challenges by the same member.
    challenge_cooldown: float = 20.0
    #: Seconds between two practice sessions started by the same member.
    practice_cooldown: float = 30.0
    #: Practice sessions a member may ask for within ``practice_cooldown``, started or not:
    #: each is posted, and one cancelled at once makes room for another.
    practice_offers: int = 3
    #: Seconds during which a challenge an opponent declined (from the "no"), or several left
    #: unaccepted (withdrawn, expired; from their sending), hold back the next challenge to
    #: that opponent: each pings them.
    pair_window: float = 600.0
    #: Challenges to one opponent, not accepted, allowed within ``pair_window``.
    pair_challenges: int = 3
    #: Seconds over which repeated "no"s and unaccepted challenges add up (review138: 3 in
    #: each 10 minutes were still 36 pings in two hours).
    day: float = 86400.0
    #: The hold-back after a second "no" from the same opponent within ``day``, from the last.
    repeat_hold: float = 86400.0
    #: Challenges to one opponent, not accepted (withdrawn at once too), allowed within ``day``.
    pair_daily: int = 6


class ChallengeQueries:
    """The store's queries on challenges (``data.store.Store`` has them all)."""

    def __init__(self, db: Database, limits: Limits | None = None) -> None:
        self.db = db
        self.limits = limits or Limits()

    async def create_challenge(
        self, *, guild_id: int, channel_id: int, challenger: tuple[int, str],
        opponent: tuple[int, str], variant: str, optional_melding: bool, turn_timer: int,
        ttl: float, now: float | None = None, time_control: str = "",
        rematch_of: int | None = None, sealed: tuple[str, str, str] = ("", "", ""),
        computer_level: str | None = None, global_names: tuple[str, str] = ("", ""),
    ) -> Challenge:
        """A new open challenge; raises Refused when a limit against spam says no (checked in
        the same transaction, so two commands racing cannot both pass). ``sealed``: its
        session's seed, salt and commitment, drawn before it is posted. With
        ``computer_level``, a practice session waiting for its player's cut (the opponent
        is the bot): one at a time per member and server ("pair"), and the practice
        cooldown. ``global_names``: the challenger's and the opponent's Discord-wide display
        names, recorded with the session for the records of all servers."""
        now = time.time() if now is None else now
        async with self.db.transaction() as c:
            # Read and inserted in turn with another process's (SQLite has one writer
            # anyway; PostgreSQL would let two both read "no open challenge" and insert).
            if computer_level is None:
                # And with a stop of the challenger by the opponent (``stop_challenges``
                # holds the same key), not committed between the check and the insert.
                # A player's key before the server's: the order a rated session's count
                # takes them in (``count_session``), so neither waits for the other.
                await c.serialise([opponent[0]])
            await c.serialise([guild_key(guild_id)])
            if computer_level is None:
                await self._check_challenge_limits(c, guild_id, challenger[0], opponent[0], now)
            else:
                await self._check_practice_limits(c, guild_id, challenger[0], now)
            inserted = await c.fetchone(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, "
                "challenger_name, opponent_name, variant, optional_melding, turn_timer, "
                "created_at, expires_at, time_control, rematch_of, seed, salt, commitment, "
                "computer_level, challenger_global_name, opponent_global_name) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, challenger[0], opponent[0], challenger[1], opponent[1],
                 variant, int(optional_melding), turn_timer, now, now + ttl, time_control,
                 rematch_of, *sealed, computer_level, *global_names),
            )
            assert inserted is not None
            challenge_id = int(inserted["id"])
        found = await self.challenge(challenge_id)
        assert found is not None
        return found

    async def _check_challenge_limits(self, c: Tx, guild_id: int, challenger_id: int,
                                      opponent_id: int, now: float) -> None:
        # First: a stopped member learns nothing else of their opponent's challenges.
        if await stopped(c, opponent_id, challenger_id):
            raise Refused("stopped")
        rows = await c.fetchall(
            "SELECT challenger_id, opponent_id, status, created_at, expires_at, unseen "
            "FROM challenges "
            "WHERE guild_id = ? AND challenger_id IN (?, ?) AND computer_level IS NULL AND "
            "(status = 'open' OR created_at > ?)",
            (guild_id, challenger_id, opponent_id, now - self.limits.challenge_cooldown))
        open_now = [r for r in rows if r["status"] == "open" and r["expires_at"] > now]
        pair = [r for r in open_now
                if {r["challenger_id"], r["opponent_id"]} == {challenger_id, opponent_id}]
        if pair:
            raise Refused("pair", mine=pair[0]["challenger_id"] == challenger_id)
        mine = [r for r in rows if r["challenger_id"] == challenger_id]
        if sum(r in open_now for r in mine) >= self.limits.open_challenges:
            raise Refused("open")
        # One Discord never showed (the command failed on its side) is no reason to wait; nor
        # one stamped further ahead than the cooldown, by a clock since set back (review150).
        cooldown = self.limits.challenge_cooldown
        last = max((r["created_at"] for r in mine
                    if not r["unseen"] and r["created_at"] <= now + cooldown), default=None)
        if last is not None and now - last < cooldown:
            raise Refused("cooldown", cooldown - (now - last))
        await self._check_pair_history(c, guild_id, challenger_id, opponent_id, now)

    async def _check_pair_history(self, c: Tx, guild_id: int, challenger_id: int,
                                  opponent_id: int, now: float) -> None:
        """A "no" stands a while from when it was said, a second within a day for a day;
        challenges withdrawn to be sent again (each a ping) are only a few in ten minutes,
        and in a day: counted from when each was sent. One accepted was answered, whatever
        became of its match (one ended with no result marks it cancelled); one Discord never
        posted pinged nobody."""
        limits = self.limits
        window, day = limits.pair_window, limits.day
        # A "no" holds for a day at most, and a second counts a first up to a day before it;
        # a challenge is declined within its ten minutes of being open.
        since = now - limits.repeat_hold - day - window
        rows = await c.fetchall(
            "SELECT status, created_at, closed_at FROM challenges WHERE guild_id = ? AND "
            "challenger_id = ? AND opponent_id = ? AND computer_level IS NULL AND "
            "status != 'accepted' AND match_id IS NULL AND unseen = 0 AND created_at > ? "
            "ORDER BY created_at DESC",
            (guild_id, challenger_id, opponent_id, since))
        # (One declined before its time was kept counts from its sending. One stamped further
        # ahead than it would hold, by a clock since set back, holds nothing: review150.)
        noes = sorted((t for r in rows if r["status"] == "declined"
                       if (t := r["closed_at"] or r["created_at"]) <= now + window),
                      reverse=True)
        if noes:
            again = len(noes) > 1 and noes[1] > noes[0] - day
            until = noes[0] + (limits.repeat_hold if again else window)
            if until > now:
                raise Refused("declined", until - now)
        # This opponent's limits alone: anyone else may be challenged meanwhile.
        for span, most in ((window, limits.pair_challenges), (day, limits.pair_daily)):
            sent = [r["created_at"] for r in rows if now - span < r["created_at"] <= now + span]
            if len(sent) >= most:
                raise Refused("unanswered", sent[most - 1] + span - now)

    async def _check_practice_limits(self, c: Tx, guild_id: int, member_id: int,
                                     now: float) -> None:
        """One practice session waiting for its cut per member and server, none soon after
        the member's last, and only a few asked for within the cooldown."""
        row = await c.fetchone(
            "SELECT id FROM challenges WHERE guild_id = ? AND challenger_id = ? AND "
            "status = 'open' AND computer_level IS NOT NULL AND expires_at > ? LIMIT 1",
            (guild_id, member_id, now))
        if row is not None:
            raise Refused("pair")
        await self.check_practice_cooldown(c, guild_id, member_id, now)
        # Asked for and cancelled again and again, none is started: counted as posted.
        rows = await c.fetchall(
            "SELECT created_at FROM challenges WHERE guild_id = ? AND challenger_id = ? AND "
            "computer_level IS NOT NULL AND created_at > ? AND created_at <= ? "
            "ORDER BY created_at DESC",
            (guild_id, member_id, now - self.limits.practice_cooldown,
             now + self.limits.practice_cooldown))
        if len(rows) >= self.limits.practice_offers:
            oldest = rows[self.limits.practice_offers - 1]["created_at"]
            raise Refused("cooldown", oldest + self.limits.practice_cooldown - now)

    async def check_practice_cooldown(self, c: Tx, guild_id: int, member_id: int,
                                      now: float) -> None:
        """Refused ("cooldown") soon after the member's last practice session started."""
        row = await c.fetchone(
            "SELECT MAX(created_at) AS last FROM matches WHERE guild_id = ? AND "
            "player0_id = ? AND computer_seat IS NOT NULL", (guild_id, member_id))
        last = None if row is None else row["last"]
        # (one stamped further ahead than the cooldown, by a clock since set back: none)
        if last is not None and -self.limits.practice_cooldown <= now - last < \
                self.limits.practice_cooldown:
            raise Refused("cooldown", self.limits.practice_cooldown - (now - last))

    async def open_challenge_between(self, guild_id: int, one: int, other: int,
                                     now: float) -> Challenge | None:
        """The open, unexpired challenge between two members on a server, either way round
        (the one the "pair" limit counts)."""
        row = await self.db.fetchone(
            "SELECT * FROM challenges WHERE guild_id = ? AND status = 'open' AND "
            "expires_at > ? AND ((challenger_id = ? AND opponent_id = ?) OR "
            "(challenger_id = ? AND opponent_id = ?)) ORDER BY id LIMIT 1",
            (guild_id, now, one, other, other, one))
        return None if row is None else challenge_of(row)

    async def open_challenges_by(self, guild_id: int, challenger: int,
                                 now: float) -> list[Challenge]:
        """A member's open, unexpired challenges on a server (the ones the "open" limit
        counts)."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ? AND "
            "status = 'open' AND expires_at > ? AND computer_level IS NULL ORDER BY id",
            (guild_id, challenger, now))
        return [challenge_of(row) for row in rows]

    async def challenge(self, challenge_id: int) -> Challenge | None:
        row = await self.db.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else challenge_of(row)

    async def challenge_of_match(self, match_id: int) -> Challenge | None:
        """The challenge (or practice offer) the match was started from, if any."""
        row = await self.db.fetchone("SELECT * FROM challenges WHERE match_id = ?", (match_id,))
        return None if row is None else challenge_of(row)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.db.transaction() as c:
            await c.execute("UPDATE challenges SET message_id = ? WHERE id = ?",
                            (message_id, challenge_id))

    async def save_message_late(self, challenge_id: int, message_id: int,
                                now: float) -> Challenge | None:
        """``challenge_id``'s message, whose save failed as it was posted, saved now (if none
        is saved yet), a withdrawal owed to it due at once: the challenge as it is then (its
        status, read in the same statement: one closed elsewhere meanwhile, which could not
        say so on its message; fix170), or None."""
        async with self.db.transaction() as c:
            row = await c.fetchone(
                "UPDATE challenges SET message_id = ?, "
                "said_after = CASE WHEN unsaid = 1 THEN ? ELSE said_after END "
                "WHERE id = ? AND message_id IS NULL RETURNING *",
                (message_id, now, challenge_id))
            return None if row is None else challenge_of(row)

    async def close_challenge(self, challenge_id: int, status: str, *,
                              unseen: bool = False, now: float | None = None) -> bool:
        """Move an open challenge to ``status`` (never ``accepted``: that is the match's
        start); False when it was no longer open. Its seed and salt go: no match was played
        from them, so they are never shown, and need not be kept. ``unseen``: Discord never
        posted it (the pair's limit leaves it out). ``now``: when (a "no" holds back the next
        challenge from it)."""
        assert status != "accepted", "accepted with its match, by create_match"
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE challenges SET status = ?, seed = '', salt = '', unseen = ?, "
                "closed_at = ? WHERE id = ? AND status = 'open'",
                (status, int(unseen), time.time() if now is None else now, challenge_id),
            )
            return cur.rowcount == 1

    async def expire_challenge(self, challenge_id: int,
                               now: float | None = None) -> Challenge | None:
        """``close_challenge(challenge_id, "expired")``, the challenge as closed returned in the
        same statement (None: no longer open): its message, if saved meanwhile by its poster,
        is known without a read that could fail after the close (review163)."""
        async with self.db.transaction() as c:
            row = await c.fetchone(
                "UPDATE challenges SET status = 'expired', seed = '', salt = '', unseen = 0, "
                "closed_at = ? WHERE id = ? AND status = 'open' RETURNING *",
                (time.time() if now is None else now, challenge_id))
            return None if row is None else challenge_of(row)

    async def open_challenges(self) -> list[Challenge]:
        rows = await self.db.fetchall("SELECT * FROM challenges WHERE status = 'open'")
        return [challenge_of(r) for r in rows]

    async def due_challenges(self, now: float) -> list[Challenge]:
        """Open challenges whose time ran out (through the index: no scan of the open ones)."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ? "
            "ORDER BY expires_at", (now,))
        return [challenge_of(r) for r in rows]

