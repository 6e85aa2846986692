"""Servers' settings as several processes read them again (``data/settings.py``, migration
30): each change is counted one past the last, as a member's choices are, and a process reads
again only the servers changed since its last read, not every server's row (140 ms at 100,000
servers each time any one changed). A change by an older process (no count) is still read,
every server's row then. On both backends, two stores standing for two processes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.prefs import Preferences
from data.settings import SETTINGS_STAMP
from data.store import Store


def _prefs(store: Store) -> Preferences:
    return Preferences(store, lambda guild_id: None)


def _counting(monkeypatch: pytest.MonkeyPatch, store: Store) -> list[int]:
    """How many servers each read of their looks returned."""
    read = store.guild_looks
    sizes: list[int] = []

    async def counted(*args: Any) -> dict[int, tuple[str, bool]]:
        looks = await read(*args)
        sizes.append(len(looks))
        return looks

    monkeypatch.setattr(store, "guild_looks", counted)
    return sizes


async def test_a_process_reads_again_only_the_servers_that_changed(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = stores
    for guild_id in range(1, 31):
        await two.change_guild_settings(guild_id, {"language": "en"})
    mine = _prefs(one)
    await mine.load()
    sizes = _counting(monkeypatch, one)
    await two.change_guild_settings(5, {"language": "ru"})
    await two.change_guild_settings(6, {"pictures": False})
    await mine.catch_up()
    assert sizes == [2]
    assert mine.guild_language(5) == "ru" and 6 in mine.plain_guilds
    await mine.catch_up()  # nothing changed: nothing read
    assert sizes == [2]
    await two.change_guild_settings(6, {"pictures": True})
    await mine.catch_up()
    assert sizes == [2, 1] and 6 not in mine.plain_guilds
    assert mine.guild_language(5) == "ru"


async def test_a_change_by_an_older_process_is_read_with_every_server(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot from before migration 30, still running its last seconds, saves a server's
    settings as it did (no count, a stamp of its own): the others read every server's."""
    one, two = stores
    for guild_id in range(1, 11):
        await two.change_guild_settings(guild_id, {"language": "en"})
    mine = _prefs(one)
    await mine.load()
    sizes = _counting(monkeypatch, one)
    async with two.db.transaction() as c:
        await c.execute("UPDATE guild_settings SET language = 'ru' WHERE guild_id = 3")
        await c.execute("UPDATE meta SET value = 'a1b2c3d4e5f60718' WHERE key = ?",
                        (SETTINGS_STAMP,))
    await mine.catch_up()
    assert sizes == [10] and mine.guild_language(3) == "ru"
    # The next counted change is read with every server once more (another older change may
    # have come between: nothing tells), then only the changed ones again.
    await two.change_guild_settings(4, {"language": "ru"})
    await mine.catch_up()
    assert sizes == [10, 10] and mine.guild_language(4) == "ru"
    await two.change_guild_settings(5, {"language": "ru"})
    await mine.catch_up()
    assert sizes == [10, 10, 1] and mine.guild_language(5) == "ru"


async def test_settings_changed_at_once_by_two_processes_are_each_counted_apart(
        stores: tuple[Store, Store]) -> None:
    """A reader that saw a change saw every one before it: two changes saved together never
    share a count (PostgreSQL's READ COMMITTED would let both take MAX + 1 unserialised)."""
    one, two = stores
    await asyncio.gather(*(
        (one, two)[guild_id % 2].change_guild_settings(
            guild_id, {"pictures": False} if guild_id % 3 else {"seasons": "monthly"})
        for guild_id in range(1, 31)))
    rows = await one.db.fetchall("SELECT changed FROM guild_settings ORDER BY changed")
    assert [r["changed"] for r in rows] == list(range(1, 31))
    assert (await one.stamps()).guilds == 30



async def test_an_older_process_change_is_read_though_a_counted_one_came_after(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """The older bot's change (no count) is followed, before this process reads again, by a
    counted change of another server: the stamp is a count again, yet the older change is
    read (review122: it was missed until a restart)."""
    one, two = stores
    for guild_id in range(1, 11):
        await two.change_guild_settings(guild_id, {"language": "en"})
    mine = _prefs(one)
    await mine.load()
    async with two.db.transaction() as c:
        await c.execute("UPDATE guild_settings SET language = 'ru' WHERE guild_id = 3")
        await c.execute("UPDATE meta SET value = 'a1b2c3d4e5f60718' WHERE key = ?",
                        (SETTINGS_STAMP,))
    await two.change_guild_settings(4, {"pictures": False})
    await mine.catch_up()
    assert mine.guild_language(3) == "ru" and 4 in mine.plain_guilds
    # Read once with every server; after that, only the changed ones again.
    sizes = _counting(monkeypatch, one)
    await two.change_guild_settings(5, {"language": "ru"})
    await mine.catch_up()
    assert sizes == [1] and mine.guild_language(5) == "ru"
    # A process that had not read since before the older change reads every server too.
    late = _prefs(one)
    await late.load()
    late_sizes: list[int] = []
    async with two.db.transaction() as c:
        await c.execute("UPDATE guild_settings SET pictures = 0 WHERE guild_id = 7")
        await c.execute("UPDATE meta SET value = 'ffeeddccbbaa9988' WHERE key = ?",
                        (SETTINGS_STAMP,))
    await two.change_guild_settings(8, {"language": "ru"})
    await two.change_guild_settings(9, {"language": "ru"})
    sizes.clear()
    await late.catch_up()
    late_sizes.extend(sizes)
    assert late_sizes == [10] and 7 in late.plain_guilds and late.guild_language(9) == "ru"
