"""The store's queries on a server as a whole: what the bot has going on in it, and ending
that when the bot was removed from it (``data.store.Store`` has them all)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from data.db import Database

#: A server's matches in play offered at most (Discord shows 25 suggestions).
OFFERED = 25


@dataclass(frozen=True, slots=True)
class InPlay:
    """A match in play, as an admin choosing one sees it."""

    match_id: int
    player_ids: tuple[int, int]
    names: tuple[str, str]
    computer_seat: int | None
    computer_level: str | None
    created_at: float


#: A server's matches in play listed at most (``under_way_in``): more than an admin's answer
#: (an embed's 4,096 characters) ever holds; the rest are counted.
LISTED = 50


@dataclass(frozen=True, slots=True)
class UnderWay:
    """A match in play as its server's admin sees it listed (``/umtali-admin matches``):
    ``state`` is read there for what its public table shows alone."""

    match_id: int
    channel_id: int
    channel_lost: bool
    player_ids: tuple[int, int]
    names: tuple[str, str]
    computer_seat: int | None
    computer_level: str | None
    variant: str
    turn_timer: int
    time_control: str
    state: str
    #: Its last move's time; its start's when it has none.
    since: float
    moved: bool


def _like(text: str) -> str:
    """``text`` anywhere, as LIKE reads it (its own ``%``, ``_`` and ``\\`` taken as they are)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class ServerQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def servers_in_play(self) -> set[int]:
        """The servers with a match in play or a challenge open: those whose removal of the
        bot would leave something behind."""
        rows = await self.db.fetchall(
            "SELECT guild_id FROM matches WHERE status = 'active' UNION "
            "SELECT guild_id FROM challenges WHERE status = 'open'")
        return {int(r["guild_id"]) for r in rows}

    async def active_matches_in(self, guild_id: int) -> list[int]:
        """The ids of the server's matches in play."""
        rows = await self.db.fetchall(
            "SELECT id FROM matches WHERE status = 'active' AND guild_id = ? ORDER BY id",
            (guild_id,))
        return [int(r["id"]) for r in rows]

    async def in_play_in(self, guild_id: int, typed: str = "",
                         limit: int = OFFERED) -> list[InPlay]:
        """The server's matches in play, newest first, at most ``limit``: those whose number
        starts with ``typed`` (digits) or whose players' stored names hold it (any case).
        Through the index of the matches in play by server (migration 32), read newest first
        and stopped at ``limit``: a server's thousands of matches are not all read."""
        # Control characters and lone surrogates, which no database takes (a NUL, "\ud800"),
        # are no part of a name or a number.
        typed = "".join(ch for ch in typed if unicodedata.category(ch) not in ("Cc", "Cs"))
        typed = typed.strip().lstrip("#").strip()
        where, params = "", list[object]([guild_id])
        if typed:
            # The databases' LOWER lowers ASCII alone: a name in another script is sought as
            # typed, in small letters, in capitals, and capitalised.
            cases = sorted({c.lower() if c.isascii() else c for c in
                            (typed.lower(), typed, typed.upper(), typed.capitalize())})
            names = " OR ".join(f"LOWER({column}) LIKE ? ESCAPE '\\'"
                                for column in ("player0_name", "player1_name")
                                for _ in cases)
            where = f" AND (CAST(id AS TEXT) LIKE ? ESCAPE '\\' OR {names})"
            params += [_like(typed)[1:], *[_like(c) for _ in range(2) for c in cases]]
        rows = await self.db.fetchall(
            "SELECT id, player0_id, player1_id, player0_name, player1_name, computer_seat, "
            "computer_level, created_at FROM matches WHERE status = 'active' AND guild_id = ?"
            f"{where} ORDER BY id DESC LIMIT ?", (*params, limit))
        return [InPlay(int(r["id"]), (r["player0_id"], r["player1_id"]),
                       (r["player0_name"], r["player1_name"]), r["computer_seat"],
                       r["computer_level"], float(r["created_at"])) for r in rows]

    async def under_way_in(self, guild_id: int,
                           limit: int = LISTED) -> tuple[list[UnderWay], int]:
        """The server's matches in play, oldest move first (a stuck match first), at most
        ``limit``, and how many it has in all: one read. Each one's last move through the
        moves' key (match, ply), newest ply first: no match's moves are all read."""
        columns = ("id, channel_id, channel_lost, player0_id, player1_id, player0_name, "
                   "player1_name, computer_seat, computer_level, variant, turn_timer, "
                   "time_control, state, created_at")
        rows = await self.db.fetchall(
            f"SELECT {columns}, moved, COALESCE(moved, created_at) AS since, "
            f"COUNT(*) OVER () AS total FROM (SELECT {columns}, (SELECT at FROM moves WHERE "
            "match_id = matches.id ORDER BY ply DESC LIMIT 1) AS moved FROM matches "
            "WHERE status = 'active' AND guild_id = ?) AS in_play ORDER BY since, id LIMIT ?",
            (guild_id, limit))
        return [UnderWay(int(r["id"]), int(r["channel_id"]), bool(r["channel_lost"]),
                         (int(r["player0_id"]), int(r["player1_id"])),
                         (r["player0_name"], r["player1_name"]), r["computer_seat"],
                         r["computer_level"], r["variant"], int(r["turn_timer"]),
                         r["time_control"], r["state"], float(r["since"]),
                         r["moved"] is not None) for r in rows], \
            int(rows[0]["total"]) if rows else 0

    async def withdraw_challenges_in(self, guild_id: int) -> int:
        """Withdraw every challenge (and practice offer) still open on the server; how many.
        As ``close_challenge``, their seeds and salts go with them."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE challenges SET status = 'cancelled', seed = '', salt = '' "
                "WHERE guild_id = ? AND status = 'open'", (guild_id,))
            return int(cur.rowcount)
