"""docs/DATABASE.md's recipe that erases a server's data, run as written on a real SQLite
database holding two servers (made through the store, as the bot makes it): nothing that names
the erased server is left, nothing of the other server (nor the board of all servers, nor a
member's own choices) changes, and the database is whole and opens as before."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from data.models import GuildSettings
from data.records import GLOBAL
from data.store import Store
from tests.test_records import forfeited, played

ROOT = Path(__file__).resolve().parents[1]
GONE, KEPT = 10, 11
#: The id the recipe shows, to be replaced by the server's.
SHOWN = "123456789012345678"


def recipe() -> str:
    text = (ROOT / "docs" / "DATABASE.md").read_text(encoding="utf-8")
    section = text.split("## Erasing a server's data", 1)[1]
    found = re.search(r"```sql\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


async def two_servers(path: Path) -> None:
    store = await Store.open(path)
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
    finally:
        await store.close()
    with sqlite3.connect(path) as c:  # what the store's other paths write, row for row
        for guild in (GONE, KEPT):
            c.execute("INSERT INTO seasons (guild_id, season, started_at) VALUES (?, '2026-12', 1)",
                      (guild,))
            c.execute("INSERT INTO season_ratings (guild_id, season, user_id, name, mu, sigma, "
                      "ordinal) VALUES (?, '2026-12', 1, 'Ada', 25, 8, 1)", (guild,))
            c.execute("INSERT INTO guild_locales VALUES (?, 'ru')", (guild,))
        c.execute("INSERT INTO member_prefs (user_id, language) VALUES (1, 'ru')")


def rows_of(c: sqlite3.Connection) -> dict[str, dict[str, list[tuple[object, ...]]]]:
    """Each table's rows, split by server: 'gone' (naming GONE, or a match of its), 'kept'."""
    gone_matches = {r[0] for r in c.execute("SELECT id FROM matches WHERE guild_id = ?",
                                            (GONE,))}
    out: dict[str, dict[str, list[tuple[object, ...]]]] = {}
    for (table,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                              "name NOT LIKE 'sqlite_%'").fetchall():
        columns = [r[1] for r in c.execute(f"PRAGMA table_info({table})")]
        split: dict[str, list[tuple[object, ...]]] = {"gone": [], "kept": []}
        for row in c.execute(f"SELECT * FROM {table} ORDER BY 1, 2"):
            named = dict(zip(columns, row, strict=True))
            gone = named.get("guild_id") == GONE or named.get("scope") == GONE or \
                named.get("match_id") in gone_matches
            split["gone" if gone else "kept"].append(row)
        out[table] = split
    return out


async def test_the_recipe_erases_one_server_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    await two_servers(path)
    with sqlite3.connect(path) as c:
        before = rows_of(c)
    named = {t for t, split in before.items() if split["gone"]}
    assert named >= {"matches", "moves", "challenges", "session_results", "session_hands",
                     "session_players", "player_stats", "ratings", "guild_settings",
                     "seasons", "season_ratings", "guild_locales", "active_players"}

    c = sqlite3.connect(path, isolation_level=None)  # the recipe's own BEGIN and COMMIT
    try:
        c.execute("PRAGMA foreign_keys = ON")  # as the bot's connection
        c.executescript(recipe().replace(SHOWN, str(GONE)))
        after = rows_of(c)
        assert c.execute("PRAGMA foreign_key_check").fetchall() == []
        assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        c.close()
    assert {t: s["gone"] for t, s in after.items() if s["gone"]} == {}
    assert {t: s["kept"] for t, s in after.items()} == {t: s["kept"] for t, s in before.items()}

    store = await Store.open(path)
    try:
        assert [r.user_id for r in (await store.records.leaderboard(GONE, 1)).rows] == []
        assert [r.user_id for r in (await store.records.leaderboard(KEPT, 1)).rows] != []
        assert (await store.records.record(GLOBAL, 2)).rated.sessions == 4
        assert await store.guild_settings(GONE) == GuildSettings(guild_id=GONE)
        assert (await store.guild_settings(KEPT)).seasons == "monthly"
    finally:
        await store.close()


def test_the_recipe_refuses_the_board_of_all_servers(tmp_path: Path) -> None:
    path = tmp_path / "umtali.sqlite3"
    c = sqlite3.connect(path, isolation_level=None)
    try:
        c.execute("CREATE TABLE ratings (scope INTEGER, user_id INTEGER)")
        try:
            c.executescript(recipe().replace(SHOWN, "0"))
        except sqlite3.IntegrityError:
            pass
        else:
            raise AssertionError("the recipe ran for scope 0")
    finally:
        c.close()
