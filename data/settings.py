"""The store's queries on what servers and members chose: server settings, and each member's
look, hand order and language (``data.store.Store`` has them all)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from data.db import Database, Row, Tx
from data.models import GuildSettings, MemberPrefs
from data.seasons import guild_key

#: The columns of a server's settings (``change_guild_settings``).
GUILD_COLUMNS = frozenset({"variant", "optional_melding", "turn_timer", "threads", "pictures",
                           "language", "time_control", "seasons", "season_channel_id"})


#: The ``meta`` key that changes with every change of any server's settings. Since migration
#: 30 it holds the change's count (``guild_settings.changed``, counted as a member's
#: ``changed`` below, ``SETTINGS_KEY`` on PostgreSQL), and a process reads again only the
#: servers changed past the count it last read. Any other stamp is an older process's change
#: (the ~10 s it may run past a migration: no count, a stamp of its own): every server is read
#: again; and the next counted change notes from which count on that holds (``Counted``), so
#: that a process that did not read in between still reads every server once.
SETTINGS_STAMP = "guild_settings_stamp"

#: A member's choices changed: their row's ``changed`` (migration 14) becomes one past the
#: largest in the table, so that every process, keeping them all in memory, reads again only
#: the rows past the largest it read. Changes take turns (SQLite's one writer; on PostgreSQL
#: this advisory key, ``Tx.serialise``, below any server's, ``data.seasons.guild_key``): a
#: change counts past one only once that one is committed, so a read that sees it sees all
#: before it.
PREFS_KEY = -(2**63)
_NEXT_CHANGE = "(SELECT COALESCE(MAX(changed), 0) + 1 FROM member_prefs)"
#: The same for servers' settings: next above the members' key, below any server's.
SETTINGS_KEY = PREFS_KEY + 1


@dataclass(frozen=True, slots=True)
class Stamps:
    """What the choices that every process keeps in memory were at one read."""

    #: ``SETTINGS_STAMP`` (None: never changed).
    settings: str | None = None
    #: The last change to a member's choices (0: none since migration 14).
    prefs: int = 0
    #: The last change to a server's settings (0: none since migration 30).
    guilds: int = 0


def _guild(guild_id: int, row: Row | None) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(guild_id, row["variant"], bool(row["optional_melding"]),
                         row["turn_timer"], bool(row["threads"]), bool(row["pictures"]),
                         row["language"], row["time_control"], row["seasons"],
                         row["season_channel_id"])


@dataclass(frozen=True, slots=True)
class Counted:
    """A ``SETTINGS_STAMP`` written since migration 30."""

    #: The change's count.
    change: int
    #: The count of the first change after the last an older process made (uncounted): a
    #: process that last read before it reads every server.
    whole_from: int

    def __str__(self) -> str:
        return f"c{self.change}:{self.whole_from}"

    @staticmethod
    def read(stamp: str | None) -> Counted | None:
        """The stamp as written since migration 30; None for an older process's."""
        change, _, whole_from = (stamp or "").removeprefix("c").partition(":")
        if not (stamp or "").startswith("c") or not change.isdigit() or \
                not whole_from.isdigit():
            return None
        return Counted(int(change), int(whole_from))


async def _stamp(c: Tx, change: int) -> None:
    row = await c.fetchone("SELECT value FROM meta WHERE key = ?", (SETTINGS_STAMP,))
    before = Counted.read(None if row is None else str(row["value"]))
    whole_from = before.whole_from if before is not None and before.change == change - 1 \
        else change
    stamp = str(Counted(change, whole_from))
    await c.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE "
                    "SET value = excluded.value", (SETTINGS_STAMP, stamp))


def _prefs(row: Row) -> MemberPrefs:
    return MemberPrefs(row["user_id"], row["hand_order"], bool(row["pictures"]),
                       bool(row["four_colour"]), row["language"])


class SettingsQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    # -- server settings ------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return _guild(guild_id, await self.db.fetchone(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)))

    async def change_guild_settings(self, guild_id: int,
                                    changes: Mapping[str, object],
                                    now: float | None = None) -> GuildSettings:
        """Change only the settings named in ``changes`` (two managers changing different
        settings at once both keep theirs); the server's settings as they are then. ``now``:
        the change's time (the clock's by default), kept as ``seasons_since`` when the cadence
        changes."""
        unknown = set(changes) - GUILD_COLUMNS
        if unknown:
            raise ValueError(f"not a server setting: {sorted(unknown)}")
        names = list(changes)
        values = tuple(int(v) if isinstance(v, bool) else v for v in changes.values())
        since = ""
        if "seasons" in changes:
            # Since when the cadence is what it is (a choice of the same one changes nothing):
            # a result counted late opens its season only by the cadence of its end.
            names.append("seasons_since")
            values += (time.time() if now is None else now,)
            since = (", seasons_since = CASE WHEN guild_settings.seasons = excluded.seasons "
                     "THEN guild_settings.seasons_since ELSE excluded.seasons_since END")
        async with self.db.transaction() as c:
            if "seasons" in changes:
                # A change of cadence and a season's end take turns (``data.seasons``): the
                # season ended meanwhile opens its next by the cadence it finds, and the
                # season in play read after this change is the one it leaves running.
                # Taken before ``SETTINGS_KEY`` (always in this order), so that a season's end
                # holds up this server's change only, not every server's.
                await c.serialise([guild_key(guild_id)])
            if names:
                await c.serialise([SETTINGS_KEY])
                row = await c.fetchone(
                    "SELECT COALESCE(MAX(changed), 0) + 1 AS next FROM guild_settings")
                change = int(row["next"]) if row is not None else 1
                await c.execute(
                    f"INSERT INTO guild_settings (guild_id, {', '.join(names)}, changed) "
                    f"VALUES (?{', ?' * len(names)}, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                    + ", ".join(f"{n} = excluded.{n}" for n in (*names, "changed")
                                if n != "seasons_since") + since,
                    (guild_id, *values, change))
                await _stamp(c, change)
            return _guild(guild_id, await c.fetchone(
                "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)))

    async def save_guild_settings(self, s: GuildSettings) -> None:
        """The whole row at once, as tests and tools seed it: unlike ``change_guild_settings``
        (the admins' command), not stamped for the memory of processes running meanwhile. A
        cadence seeded so is in force since long ago (``seasons_since`` NULL)."""
        async with self.db.transaction() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild_id, variant, optional_melding, turn_timer, "
                "threads, pictures, language, time_control, seasons, season_channel_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE "
                "SET variant = excluded.variant, optional_melding = excluded.optional_melding, "
                "turn_timer = excluded.turn_timer, threads = excluded.threads, "
                "pictures = excluded.pictures, language = excluded.language, "
                "time_control = excluded.time_control, seasons = excluded.seasons, "
                "season_channel_id = excluded.season_channel_id, "
                "seasons_since = CASE WHEN guild_settings.seasons = excluded.seasons "
                "THEN guild_settings.seasons_since END",
                (s.guild_id, s.variant, int(s.optional_melding), s.turn_timer, int(s.threads),
                 int(s.pictures), s.language, s.time_control, s.seasons, s.season_channel_id),
            )

    async def stamps(self) -> Stamps:
        """Whether servers' settings or members' choices changed, both in one cheap read (a
        key, and the end of an index), as every process asks every few seconds."""
        row = await self.db.fetchone(
            "SELECT (SELECT value FROM meta WHERE key = ?) AS settings, "
            "(SELECT MAX(changed) FROM member_prefs) AS prefs, "
            "(SELECT MAX(changed) FROM guild_settings) AS guilds", (SETTINGS_STAMP,))
        if row is None:
            return Stamps()
        settings = row["settings"]
        return Stamps(None if settings is None else str(settings), int(row["prefs"] or 0),
                      int(row["guilds"] or 0))

    async def guild_looks(self, since: int | None = None) -> dict[int, tuple[str, bool]]:
        """Each server that ever changed its settings (``since``: only those changed past that
        count, a ``Stamps.guilds``): its language ('': the server's own preferred locale) and
        whether its matches show pictures."""
        if since is None:
            rows = await self.db.fetchall(
                "SELECT guild_id, language, pictures FROM guild_settings")
        else:
            rows = await self.db.fetchall(
                "SELECT guild_id, language, pictures FROM guild_settings WHERE changed > ?",
                (since,))
        return {row["guild_id"]: (row["language"], bool(row["pictures"])) for row in rows}

    # -- what Discord showed of servers (migration 21) -------------------------------------

    async def seen_languages(self) -> dict[int, str]:
        """The language of each server's preferred locale, as last seen (read at start-up)."""
        rows = await self.db.fetchall("SELECT guild_id, language FROM guild_locales")
        return {row["guild_id"]: row["language"] for row in rows}

    async def seen_language(self, guild_id: int) -> str:
        """The language of the server's preferred locale, as last seen ('': never)."""
        row = await self.db.fetchone("SELECT language FROM guild_locales WHERE guild_id = ?",
                                     (guild_id,))
        return "" if row is None else str(row["language"])

    async def note_seen_language(self, guild_id: int, language: str) -> None:
        """The server's preferred locale is ``language`` now, as Discord showed it: kept for
        the processes that do not hear from the server, which read it when they need it."""
        async with self.db.transaction() as c:
            await c.execute(
                "INSERT INTO guild_locales (guild_id, language) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language))

    async def guild_languages(self) -> dict[int, str]:
        """The servers that chose a language for their matches (read once at start-up)."""
        rows = await self.db.fetchall(
            "SELECT guild_id, language FROM guild_settings WHERE language != ''")
        return {row["guild_id"]: row["language"] for row in rows}

    async def guilds_without_pictures(self) -> set[int]:
        """The servers that turned pictures off (read once at start-up)."""
        rows = await self.db.fetchall("SELECT guild_id FROM guild_settings WHERE pictures = 0")
        return {row["guild_id"] for row in rows}

    # -- members' own choices -------------------------------------------------------------

    async def member_prefs(self, user_ids: Iterable[int]) -> dict[int, MemberPrefs]:
        """The choices of each of ``user_ids`` (the defaults for one who made none)."""
        ids = sorted(set(user_ids))
        found = {i: MemberPrefs(i) for i in ids}
        if not ids:
            return found
        marks = ", ".join("?" * len(ids))
        for row in await self.db.fetchall(
                f"SELECT * FROM member_prefs WHERE user_id IN ({marks})", tuple(ids)):
            found[row["user_id"]] = _prefs(row)
        return found

    async def chosen_prefs(self) -> dict[int, MemberPrefs]:
        """Every member with a choice that is not the default (read once at start-up)."""
        rows = await self.db.fetchall(
            "SELECT * FROM member_prefs WHERE pictures = 0 OR four_colour = 1 "
            "OR hand_order != 'suit' OR language != ''")
        return {row["user_id"]: _prefs(row) for row in rows}

    async def prefs_changed_since(self, change: int) -> list[MemberPrefs]:
        """The members whose choices changed after ``change`` (a ``Stamps.prefs``), as they
        are now (defaults included: a member may have gone back to them)."""
        rows = await self.db.fetchall("SELECT * FROM member_prefs WHERE changed > ?", (change,))
        return [_prefs(row) for row in rows]

    async def _change_prefs(self, user_id: int, changes: Mapping[str, object]) -> None:
        """Set the choices named in ``changes`` (the others as they were), counted as the
        next change (``PREFS_KEY``)."""
        names = list(changes)
        async with self.db.transaction() as c:
            await c.serialise([PREFS_KEY])
            await c.execute(
                f"INSERT INTO member_prefs (user_id, {', '.join(names)}, changed) "
                f"VALUES (?{', ?' * len(names)}, {_NEXT_CHANGE}) "
                "ON CONFLICT (user_id) DO UPDATE SET "
                + ", ".join(f"{n} = excluded.{n}" for n in (*names, "changed")),
                (user_id, *changes.values()))

    async def set_look(self, user_id: int, pictures: bool, four_colour: bool) -> None:
        await self._change_prefs(user_id, {"pictures": int(pictures),
                                           "four_colour": int(four_colour)})

    async def set_hand_order(self, user_id: int, hand_order: str) -> None:
        await self._change_prefs(user_id, {"hand_order": hand_order})

    async def set_language(self, user_id: int, language: str) -> None:
        await self._change_prefs(user_id, {"language": language})
