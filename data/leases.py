"""Which process holds which match: leases, taking over, and the claims a timer makes.

Several bot processes may share one database. Each match is *held* by one of them (its
``owner``, the process's name) until ``lease_until``; the holder renews the lease every few
seconds while it lives. Only the holder runs the match's timers and posts its announcements;
any process may act on any match, and the save of that action makes it the holder. A match
whose lease ran out (its process was killed) is claimed by another process, each in one
compare-and-set ``UPDATE``, so two processes never claim the same match.

Everything here is portable SQL (SQLite and PostgreSQL): a claim re-checks in its ``WHERE``
what it read, so it is correct under SQLite's serialised writers and under PostgreSQL's READ
COMMITTED alike. The one statement that differs is the claim's choice (``Tx.claiming``):
PostgreSQL may skip rows another claimer has locked (``FOR UPDATE SKIP LOCKED``) instead of
waiting for them; SQLite has no such clause and needs none (``BEGIN IMMEDIATE`` lets one
writer in at a time).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace

import orjson

from data.db import Database, Reads, Row, Tx
from data.messages import PANEL_COLUMNS, panels_of, read_saved
from data.models import AsSaved, DmPanel, Stood, stood_of

#: A match some process must still hold: in play, or over with announcements not yet posted
#: or an edit still owed (the condition of the index ``matches_live``, migrations 12 and 20:
#: keep them the same).
LIVE = "(status = 'active' OR unsent != '[]' OR resend != '')"
#: Matches looked up per statement when checking which are still held (under every
#: database's limit on parameters).
CHUNK = 500


@dataclass(frozen=True, slots=True)
class Claimed:
    match_id: int
    #: The process it was held by before ('' for none; this process's own name after a
    #: restart).
    previous: str
    #: Until when the previous holder's lease ran.
    lease_until: float
    #: Its turn's deadline as claimed (None: no clock running).
    deadline: float | None = None
    #: Its turn standing still (None: no clock running): as an earlier claim saved it, nobody
    #: holding it since (that claim's bring-in failed), as read; as this claim saved it, as
    #: ``claim`` returns it.
    stood: Stood | None = None


#: Since when each match about to be claimed has its turn standing still, and the time its
#: holder owed it then (``Stood``), by match id, for those with a clock running: worked out by
#: the claimer inside the claim's transaction, with the reads given (``Leases.claim``).
Downtimes = Callable[[Reads, list[Claimed]], Awaitable[dict[int, Stood]]]


def let_go_lease(claimed: Claimed, now: float) -> float:
    """The lease an undone claim, made at ``now``, gives back (``Leases.unclaim``): the
    previous holder's, lapsed; one still running, 0 (claimable at once)."""
    return claimed.lease_until if claimed.lease_until < now else 0.0


@dataclass(frozen=True, slots=True)
class Outbox:
    """A match's announcements still to post, and who may post them."""

    owner: str
    unsent: list[str]
    #: Announcements posted so far.
    announced: int


@dataclass(frozen=True, slots=True)
class Shown:
    """Who holds a match, and where it is as saved."""

    owner: str
    #: Its version, whether it is over, its channel, its table and whether the channel is
    #: lost.
    at: tuple[int, bool, int, int | None, bool]
    #: Each seat's DM panel as saved.
    panels: tuple[DmPanel, DmPanel]


class Leases:
    """The leases of one process, named ``owner``."""

    def __init__(self, db: Database, owner: str) -> None:
        self.db = db
        self.owner = owner

    async def claim(self, now: float, until: float, *, mine_too: bool = False,
                    lapsed_mine: bool = False, limit: int = 1000, after: int = 0,
                    downtimes: Downtimes | None = None) -> list[Claimed]:
        """Take the matches whose lease ran out (``lapsed_mine``: this process's own too, one
        it failed to bring into memory and so renews no more), and, ``mine_too``, those this
        process's name holds still (a restart takes back its own at once), leased until
        ``until``: the first ``limit`` of them with an id above ``after``. Each is saved with
        its turn's downtime (``downtimes``, worked out in the same transaction), so that, its
        bring-in failing, whoever claims it next gives it that, whatever became of the notes
        it was read from (rewritten by its holder's restart) or of this process (another
        restart, an undoing of the claim failing); cleared once it is held (``renew``,
        ``take``, a resume or a move saved by its holder: ``data.store``)."""
        lapsed = "lease_until < ?" if lapsed_mine else "lease_until < ? AND owner != ?"
        mine = " OR owner = ?" if mine_too else ""
        params: tuple[object, ...] = (after, now) + (() if lapsed_mine else (self.owner,)) + (
            (self.owner,) if mine_too else ())
        where = f"FROM matches WHERE {LIVE} AND id > ? AND (({lapsed}){mine})"
        # Asked every second: a read first, so that a tick with nothing to claim writes nothing.
        if not await self.db.fetchone(f"SELECT 1 {where} LIMIT 1", params):
            return []
        sql = f"SELECT id, owner, lease_until, deadline, stood_since, stood_on, stood_owed " \
              f"{where} ORDER BY id LIMIT {int(limit)}"
        async with self.db.transaction() as c:
            found = [Claimed(int(row["id"]), str(row["owner"]), float(row["lease_until"]),
                             None if row["deadline"] is None else float(row["deadline"]),
                             stood_of(row))
                     for row in await c.fetchall(c.claiming(sql), params)]
            stood = {} if downtimes is None or not found else await downtimes(c, found)
            claimed = []
            for f in found:
                since, owed = stood.get(f.match_id, (None, 0.0))
                # Compare and set: claimed only if nobody claimed it since it was read.
                cur = await c.execute(
                    "UPDATE matches SET owner = ?, lease_until = ?, stood_since = ?, "
                    "stood_on = deadline, stood_owed = ? WHERE id = ? AND owner = ? "
                    "AND (lease_until < ? OR owner = ?)",
                    (self.owner, until, since, owed, f.match_id, f.previous, now, self.owner))
                if cur.rowcount == 1:
                    claimed.append(replace(f, stood=None if since is None or f.deadline is None
                                           else (since, owed)))
        return claimed

    async def renew(self, until: float, held: Iterable[int],
                    unsettled: Iterable[int] = ()) -> set[int]:
        """Extend to ``until`` this process's leases of ``held`` (the matches it keeps in
        memory) and ``unsettled`` (claimed, their resume's outcome unknown); of those, the ones
        another process holds now. Only those: a match this process holds in the database but
        failed to load (or forgot while saving it) is left to lapse, and is claimed again. A
        downtime a claim saved (``claim``) is cleared on those in memory, resumed."""
        ids = sorted(set(held) | set(unsettled))
        keep = set(unsettled) - set(held)
        lost: set[int] = set()
        async with self.db.transaction() as c:
            for i in range(0, len(ids), CHUNK):
                chunk = ids[i:i + CHUNK]
                for part, cleared in (([m for m in chunk if m not in keep], ", stood_since = NULL"),
                                      ([m for m in chunk if m in keep], "")):
                    if part:
                        await c.execute(
                            f"UPDATE matches SET lease_until = ?{cleared} WHERE id IN "
                            f"({', '.join('?' * len(part))}) AND owner = ? AND {LIVE}",
                            (until, *part, self.owner))
                marks = ", ".join("?" * len(chunk))
                rows = await c.fetchall(
                    f"SELECT id FROM matches WHERE id IN ({marks}) AND owner != ?",
                    (*chunk, self.owner))
                lost.update(int(r["id"]) for r in rows)
        return lost

    async def unclaim(self, claimed: Claimed, until: float, now: float) -> None:
        """Undo the claim, made at ``now``, of a match that could not be brought into play
        here (leased until ``until`` by it), if nobody touched it since: claimable again at
        once, by any process, its previous holder and lapsed lease as they were (so a takeover
        still gives back the time lost since that holder stopped)."""
        async with self.db.transaction() as c:
            await c.execute(
                "UPDATE matches SET owner = ?, lease_until = ? WHERE id = ? AND owner = ? "
                "AND lease_until = ?",
                (claimed.previous, let_go_lease(claimed, now), claimed.match_id, self.owner,
                 until))

    async def release(self) -> None:
        """Stopping cleanly: this process's matches may be claimed at once."""
        async with self.db.transaction() as c:
            await c.execute("UPDATE matches SET lease_until = 0 WHERE owner = ?", (self.owner,))

    async def take(self, match_id: int, until: float, version: int | None = None,
                   over: bool = False, saved: AsSaved | None = None) -> bool:
        """Hold ``match_id`` from now on, whoever held it (a player is acting on it here);
        with ``version``, only if it is still at that version and (``over``) ended or not, as
        the copy in hand has it: False if the match moved on meanwhile. ``saved``: filled
        with where the match is shown as saved when taken."""
        guard = "" if version is None else \
            f" AND version = ? AND status {'!=' if over else '='} 'active'"
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET owner = ?, lease_until = ?, stood_since = NULL "
                f"WHERE id = ?{guard}",
                (self.owner, until, match_id, *(() if version is None else (version,))))
            if saved is not None and cur.rowcount == 1:
                await read_saved(c, match_id, saved)
            return cur.rowcount == 1

    async def taken_here(self, match_id: int, version: int, over: bool) -> bool | None:
        """True if the match is held here at ``version``, ended or not as ``over`` says: this
        process's ``take``, its answer lost (``cogs.umtali.unheard``); else None."""
        row = await self.db.fetchone(
            "SELECT owner, version, status FROM matches WHERE id = ?", (match_id,))
        if row is None or (row["owner"], int(row["version"]), row["status"] != "active") != (
                self.owner, version, over):
            return None
        return True

    async def holder(self, match_id: int) -> str | None:
        """Who holds the match now (None: no such match)."""
        row = await self.db.fetchone("SELECT owner FROM matches WHERE id = ?", (match_id,))
        return None if row is None else str(row["owner"])

    async def in_play(self, ids: Iterable[int]) -> set[int]:
        """Of ``ids``, the matches in play as saved (the others over, or gone): one statement
        a chunk."""
        wanted = sorted(set(ids))
        playing: set[int] = set()
        for i in range(0, len(wanted), CHUNK):
            chunk = wanted[i:i + CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = await self.db.fetchall(
                f"SELECT id FROM matches WHERE id IN ({marks}) AND status = 'active'", chunk)
            playing.update(int(r["id"]) for r in rows)
        return playing

    async def progress(self, match_id: int) -> tuple[int, bool] | None:
        """The match's version and whether it is over, as saved."""
        row = await self.db.fetchone("SELECT version, status FROM matches WHERE id = ?",
                                     (match_id,))
        return None if row is None else (int(row["version"]), row["status"] != "active")

    async def saved_as(self, match_id: int, version: int, state: str) -> list[str] | None:
        """What the match has left to announce, if it is saved at ``version`` with ``state``
        and held here: a save of this process's found to have gone through, its answer lost
        (``cogs.umtali.unheard``); else None."""
        row = await self.db.fetchone(
            "SELECT version, state, owner, unsent FROM matches WHERE id = ?", (match_id,))
        if row is None or (int(row["version"]), row["state"], row["owner"]) != (
                version, state, self.owner):
            return None
        return list(orjson.loads(row["unsent"]))

    async def stopped_here(self, match_id: int, version: int) -> bool | None:
        """True if the turn at ``version``, held here, has its clock stopped: this process's
        ``stop_clock``, its answer lost (``cogs.umtali.unheard``); else None."""
        row = await self._held_at(match_id, version)
        return True if row is not None and row["deadline"] is None else None

    async def warned_here(self, match_id: int, version: int) -> bool | None:
        """True if the turn at ``version``, held here, has its warning claimed: this
        process's ``claim_warning``, its answer lost; else None."""
        row = await self._held_at(match_id, version)
        return True if row is not None and row["warned"] else None

    async def _held_at(self, match_id: int, version: int) -> Row | None:
        """The match's row if it is in play at ``version`` and held here: only the holder
        claims a turn's clock or warning, so what it finds claimed there is its own."""
        return await self.db.fetchone(
            "SELECT deadline, warned FROM matches WHERE id = ? AND owner = ? AND version = ? "
            "AND status = 'active'", (match_id, self.owner, version))

    async def ended_as(self, match_id: int, how: str) -> list[str] | None:
        """What the match has left to announce, if it is saved ended ``how`` (abandoned,
        cancelled) with no winner, held here: an ending of this process's found to have gone
        through, its answer lost; else None."""
        row = await self.db.fetchone(
            "SELECT status, how, winner_seat, owner, unsent FROM matches WHERE id = ?",
            (match_id,))
        if row is None or (row["status"], row["how"], row["winner_seat"], row["owner"]) != (
                "finished", how, None, self.owner):
            return None
        return list(orjson.loads(row["unsent"]))

    async def shown(self, match_id: int) -> Shown | None:
        """Who holds the match, and where it is as saved."""
        row = await self.db.fetchone(
            "SELECT owner, version, status, channel_id, table_message_id, channel_lost, "
            f"{PANEL_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        table = row["table_message_id"]
        return Shown(str(row["owner"]), (
            int(row["version"]), row["status"] != "active", int(row["channel_id"]),
            None if table is None else int(table), bool(row["channel_lost"])),
            panels_of(row))

    async def of_member(self, user_id: int) -> list[int]:
        """The matches the member is playing, on every server."""
        rows = await self.db.fetchall(
            "SELECT match_id FROM active_players WHERE user_id = ? ORDER BY match_id",
            (user_id,))
        return [int(r["match_id"]) for r in rows]

    async def in_channel(self, channel_id: int) -> int | None:
        """The match in play in ``channel_id``, if any."""
        row = await self.db.fetchone(
            "SELECT id FROM matches WHERE status = 'active' AND channel_id = ? ORDER BY id "
            "LIMIT 1", (channel_id,))
        return None if row is None else int(row["id"])

    # -- what a timer does, once ----------------------------------------------------------

    async def claim_warning(self, match_id: int, version: int) -> bool:
        """The warning of the turn at ``version`` is this process's to send (once: False if
        it was sent, the turn is over, or another process holds the match)."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET warned = 1 WHERE id = ? AND owner = ? AND version = ? "
                "AND warned = 0 AND status = 'active'", (match_id, self.owner, version))
            return cur.rowcount == 1

    async def stop_clock(self, match_id: int, version: int) -> bool:
        """The turn at ``version`` is out of time: its clock stops (the waiting player is to
        be asked), once, by the holder."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET deadline = NULL, warned = 0 WHERE id = ? AND owner = ? "
                "AND version = ? AND status = 'active' AND deadline IS NOT NULL",
                (match_id, self.owner, version))
            return cur.rowcount == 1

    async def restart_clock(self, match_id: int, version: int, deadline: float,
                            question: str) -> bool:
        """The turn at ``version``, its clock stopped and its question (``question`` as saved,
        of another turn or none) never asked, ends at ``deadline`` again: by the holder, once
        (the next check asks)."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET deadline = ?, warned = 0 WHERE id = ? AND owner = ? "
                "AND version = ? AND status = 'active' AND deadline IS NULL AND question = ?",
                (deadline, match_id, self.owner, version, question))
            return cur.rowcount == 1

    async def set_question(self, match_id: int, question: str, was: str,
                           asked_at: int | None = None) -> bool:
        """The match's time-up question is ``question`` now ('' for none), if it was ``was``:
        of a move and an answer settling it at once, one does.

        ``asked_at``: ``question`` was just asked, at that version, and is saved as standing
        only while the match is still at it, in play, its clock stopped and held here (a move
        saved meanwhile by another process, which this process's copy does not know of yet,
        withdrew it). Whatever question is saved then gives way, ``was`` or not: none stands
        at a stopped clock before the holder that stopped it has asked."""
        params: tuple[object, ...] = (was,)
        guard = "question = ?"
        if asked_at is not None:
            guard = "owner = ? AND version = ? AND status = 'active' AND deadline IS NULL"
            params = (self.owner, asked_at)
        async with self.db.transaction() as c:
            cur = await c.execute(f"UPDATE matches SET question = ? WHERE id = ? AND {guard}",
                                  (question, match_id, *params))
            return cur.rowcount == 1

    # -- announcements --------------------------------------------------------------------

    async def outbox(self, match_id: int) -> Outbox | None:
        row = await self.db.fetchone(
            "SELECT owner, unsent, announced FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        return Outbox(str(row["owner"]), list(orjson.loads(row["unsent"])),
                      int(row["announced"]))

    async def posted(self, match_id: int, texts: list[str], announced: int,
                     told: str = "") -> list[str]:
        """``texts`` were posted, when ``announced`` had been posted before them: drop them
        from the unsent ones, unless another process posted them already. Compare and set on
        the count, so a move saving a new announcement meanwhile keeps it. The unsent
        announcements left. ``told``: ``resend`` as it was owed, cleared in the same write if
        it still is (the end line told: ``Owners.posted``)."""
        async def job(c: Tx) -> list[str] | None:
            return await _clear(c, match_id, texts, announced, told)

        for _ in range(5):
            # Batched: many matches posting at once share one commit, as their moves do.
            left = await self.db.batched(job)
            if left is not None:
                return left
        raise RuntimeError(f"match {match_id}: its announcements kept changing")


async def _clear(c: Tx, match_id: int, texts: list[str], announced: int,
                 told: str) -> list[str] | None:
    row = await c.fetchone("SELECT unsent, announced FROM matches WHERE id = ?", (match_id,))
    if row is None:
        return []
    unsent = list(orjson.loads(row["unsent"]))
    if int(row["announced"]) != announced or unsent[:len(texts)] != texts:
        return unsent  # posted (and cleared) by another process: nothing to do
    left = unsent[len(texts):]
    paid = ", resend = CASE WHEN resend = ? THEN '' ELSE resend END" if told else ""
    cur = await c.execute(
        f"UPDATE matches SET unsent = ?, announced = announced + ?{paid} WHERE id = ? "
        "AND announced = ? AND unsent = ?",
        (orjson.dumps(left).decode(), len(texts), *((told,) if told else ()), match_id,
         announced, row["unsent"]))
    return left if cur.rowcount == 1 else None
