"""docs/DATABASE.md's recipe that erases a server's data, run as written on a real database
holding two servers (made through the store, as the bot makes it), on SQLite and on
PostgreSQL: nothing that names the erased server is left, nothing of the other server (nor the
board of all servers, nor a member's own choices) changes, and the database opens as before."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import asyncpg

from data.db import Database
from data.models import GuildSettings
from data.records import GLOBAL
from data.store import Store
from tests.test_records import forfeited, played

ROOT = Path(__file__).resolve().parents[1]
GONE, KEPT = 10, 11
#: The id the recipe shows, to be replaced by the server's.
SHOWN = "123456789012345678"
Rows = dict[str, dict[str, list[tuple[object, ...]]]]


def recipe() -> str:
    text = (ROOT / "docs" / "DATABASE.md").read_text(encoding="utf-8")
    section = text.split("## Erasing a server's data", 1)[1]
    found = re.search(r"```sql\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


async def two_servers(target: str | Path) -> None:
    store = await Store.open(target)
    try:
        for guild in (GONE, KEPT):
            await played(store, 3, ((1, "Ada"), (2, "Ben")), guild=guild)
            await forfeited(store, (2, "Ben"), (3, "Cy"), guild=guild)
            await store.save_guild_settings(GuildSettings(guild_id=guild, seasons="monthly"))
            await store.create_challenge(
                guild_id=guild, channel_id=5, challenger=(1, "Ada"), opponent=(3, "Cy"),
                variant="english", optional_melding=False, turn_timer=300, ttl=600)
            await store.create_match(guild_id=guild, channel_id=1,
                                     players=((4, "Di"), (5, "Ed")), variant="english",
                                     turn_timer=0, state="{}", deadline=None)
        async with store.db.transaction() as tx:  # what the store's other paths write
            for guild in (GONE, KEPT):
                await tx.execute("INSERT INTO seasons (guild_id, season, started_at) "
                                 "VALUES (?, '2026-12', 1)", (guild,))
                await tx.execute("INSERT INTO season_ratings (guild_id, season, user_id, name, "
                                 "mu, sigma, ordinal) VALUES (?, '2026-12', 1, 'Ada', 25, 8, 1)",
                                 (guild,))
                await tx.execute("INSERT INTO guild_locales VALUES (?, 'ru')", (guild,))
            await tx.execute("INSERT INTO member_prefs (user_id, language) VALUES (1, 'ru')")
    finally:
        await store.close()


async def columns(db: Database) -> dict[str, list[str]]:
    if db.dialect == "sqlite":
        names = [r[0] for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {n: [r[1] for r in await db.fetchall(f"PRAGMA table_info({n})")] for n in names}
    out: dict[str, list[str]] = {}
    for table, column in await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns WHERE "
            "table_schema = current_schema() ORDER BY table_name, ordinal_position"):
        out.setdefault(table, []).append(column)
    return out


async def rows_of(target: str | Path) -> Rows:
    """Each table's rows, split by server: 'gone' (naming GONE, or a match of its), 'kept'."""
    db = await Database.open(target)
    try:
        gone_matches = {r[0] for r in await db.fetchall(
            "SELECT id FROM matches WHERE guild_id = ?", (GONE,))}
        out: Rows = {}
        for table, names in (await columns(db)).items():
            split: dict[str, list[tuple[object, ...]]] = {"gone": [], "kept": []}
            for row in await db.fetchall(f"SELECT * FROM {table}"):
                named = dict(zip(names, tuple(row), strict=True))
                gone = named.get("guild_id") == GONE or named.get("scope") == GONE or \
                    named.get("match_id") in gone_matches
                split["gone" if gone else "kept"].append(tuple(row))
            out[table] = {k: sorted(v, key=repr) for k, v in split.items()}
        return out
    finally:
        await db.close()


async def run_recipe(target: str | Path, server: str) -> None:
    """The recipe as an admin runs it: in ``sqlite3`` or ``psql``, the bot stopped."""
    script = recipe().replace(SHOWN, server)
    if isinstance(target, Path):
        c = sqlite3.connect(target, isolation_level=None)  # the recipe's own BEGIN, COMMIT
        try:
            c.execute("PRAGMA foreign_keys = ON")  # as the bot's connection
            c.executescript(script)
            assert c.execute("PRAGMA foreign_key_check").fetchall() == []
            assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        finally:
            c.close()
        return
    conn = await asyncpg.connect(target)
    try:
        await conn.execute(script)
    finally:
        await conn.close()


async def test_the_recipe_erases_one_server_and_nothing_else(empty_target: str | Path) -> None:
    await two_servers(empty_target)
    before = await rows_of(empty_target)
    named = {t for t, split in before.items() if split["gone"]}
    assert named >= {"matches", "moves", "challenges", "session_results", "session_hands",
                     "session_players", "player_stats", "ratings", "guild_settings",
                     "seasons", "season_ratings", "guild_locales", "active_players"}
    await run_recipe(empty_target, str(GONE))
    after = await rows_of(empty_target)
    assert {t: s["gone"] for t, s in after.items() if s["gone"]} == {}
    assert {t: s["kept"] for t, s in after.items()} == {t: s["kept"] for t, s in before.items()}

    store = await Store.open(empty_target)
    try:
        assert [r.user_id for r in (await store.records.leaderboard(GONE, 1)).rows] == []
        assert [r.user_id for r in (await store.records.leaderboard(KEPT, 1)).rows] != []
        assert (await store.records.record(GLOBAL, 2)).rated.sessions == 4
        assert await store.guild_settings(GONE) == GuildSettings(guild_id=GONE)
        assert (await store.guild_settings(KEPT)).seasons == "monthly"
    finally:
        await store.close()


async def test_the_recipe_refuses_the_board_of_all_servers(empty_target: str | Path) -> None:
    await two_servers(empty_target)
    before = await rows_of(empty_target)
    try:
        await run_recipe(empty_target, "0")
    except (sqlite3.IntegrityError, asyncpg.CheckViolationError):
        pass
    else:
        raise AssertionError("the recipe ran for the board of all servers")
    assert await rows_of(empty_target) == before
