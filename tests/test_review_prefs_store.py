"""Members' choices as several processes read them again (``data/settings.py``, migration 14):
each change is counted one past the last, so that a process reads again only the rows changed
since its last read; and ``Preferences.catch_up`` keeps what was saved in its own process
rather than an older read. On both backends, two stores standing for two processes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.prefs import Preferences
from data.models import GuildSettings, MemberPrefs
from data.store import Store


def _prefs(store: Store) -> Preferences:
    return Preferences(store, lambda guild_id: None)


async def test_a_process_reads_again_only_the_members_who_changed(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    assert (await one.stamps()).prefs == 0
    await one.set_hand_order(7, "rank")
    await two.set_look(8, False, True)
    await one.set_language(9, "ru")
    seen = (await two.stamps()).prefs
    assert seen == 3
    assert await two.prefs_changed_since(0) == [MemberPrefs(7, "rank"),
                                                MemberPrefs(8, pictures=False, four_colour=True),
                                                MemberPrefs(9, language="ru")]
    # Member 8 goes back to the defaults: read again as such (and only that row).
    await one.set_look(8, True, False)
    assert (await two.stamps()).prefs == seen + 1
    assert await two.prefs_changed_since(seen) == [MemberPrefs(8)]
    assert await two.prefs_changed_since(seen + 1) == []


async def test_changes_saved_at_once_by_two_processes_are_each_counted_apart(
        stores: tuple[Store, Store]) -> None:
    """A reader that saw a change saw every one before it: two changes saved together never
    share a count (PostgreSQL's READ COMMITTED would let both take MAX + 1 unserialised)."""
    one, two = stores
    saves = [store.set_hand_order(user, "rank") for user in range(1, 41)
             for store in ((one, two)[user % 2],)]
    await asyncio.gather(*saves)
    rows = await one.db.fetchall("SELECT changed FROM member_prefs ORDER BY changed")
    assert [r["changed"] for r in rows] == list(range(1, 41))


async def test_a_choice_saved_by_another_process_is_read_at_the_next_catch_up(
        stores: tuple[Store, Store]) -> None:
    one, two = stores
    await two.set_look(8, False, False)
    mine = _prefs(one)
    await mine.load()
    assert mine.of(8).pictures is False
    await two.set_hand_order(7, "melds")
    await two.set_look(8, True, False)
    assert mine.of(7).hand_order == "suit" and mine.of(8).pictures is False
    await mine.catch_up()
    assert mine.of(7) == MemberPrefs(7, "melds") and mine.of(8) == MemberPrefs(8)


async def test_a_read_older_than_a_save_here_does_not_undo_it(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process lays member 7's hand out by rank; while this one reads that change, the
    member chooses melds first here: memory keeps melds (saved last), and a later change
    elsewhere is read all the same."""
    one, two = stores
    mine = _prefs(one)
    await mine.load()
    await two.set_hand_order(7, "rank")
    read = one.prefs_changed_since

    async def saved_here_meanwhile(change: int) -> Any:
        rows = await read(change)
        await mine.set_hand_order(7, "melds")
        return rows

    monkeypatch.setattr(one, "prefs_changed_since", saved_here_meanwhile)
    await mine.catch_up()
    assert mine.of(7).hand_order == "melds"
    monkeypatch.setattr(one, "prefs_changed_since", read)
    await mine.catch_up()
    assert mine.of(7).hand_order == "melds"
    await two.set_hand_order(7, "suit")
    await mine.catch_up()
    assert mine.of(7) == MemberPrefs(7)


async def test_a_settings_read_older_than_an_admins_save_here_does_not_undo_it(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process changes a server's settings; while this one reads them, an admin's
    change of the same server's language and pictures is saved here: memory keeps it (saved
    last), and is read again next time, a later change elsewhere too."""
    one, two = stores
    mine = _prefs(one)
    await mine.load()
    await two.change_guild_settings(5, {"language": "en"})
    read = one.guild_looks

    async def saved_here_meanwhile(*args: Any) -> Any:
        rows = await read(*args)
        await one.change_guild_settings(5, {"language": "ru", "pictures": False})
        mine.set_guild_language(5, "ru")  # as the admins' command does, once saved
        mine.set_guild_pictures(5, False)
        return rows

    monkeypatch.setattr(one, "guild_looks", saved_here_meanwhile)
    await mine.catch_up()
    assert mine.guild_language(5) == "ru" and 5 in mine.plain_guilds
    monkeypatch.setattr(one, "guild_looks", read)
    await mine.catch_up()
    assert mine.guild_language(5) == "ru" and 5 in mine.plain_guilds
    await two.change_guild_settings(5, {"language": "", "pictures": True})
    await mine.catch_up()
    assert mine.guild_language(5) == "" and 5 not in mine.plain_guilds


async def test_a_servers_locale_seen_by_one_process_is_the_others_language_for_it(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that chose no language speaks its preferred locale: the process that hears
    from it knows it from Discord, another (whose shards do not receive it) from what the
    first saw and saved (migration 21), read when it needs it or at its start. The server's
    own choice still comes first; its settings are not touched."""
    one, two = stores
    seeing = Preferences(one, lambda guild_id: "ru" if guild_id == 5 else None)
    unseeing = _prefs(two)
    await seeing.load()
    await unseeing.load()
    assert not unseeing.language_known(5) and unseeing.guild_tr(5).lang == "en"
    await seeing.note_guild_locale(5, "ru")
    writes: list[tuple[int, str]] = []
    note = one.note_seen_language

    async def noted(guild_id: int, language: str) -> None:
        writes.append((guild_id, language))
        await note(guild_id, language)

    monkeypatch.setattr(one, "note_seen_language", noted)
    await seeing.note_guild_locale(5, "ru")  # unchanged: no write
    await seeing.note_guild_locale(5, "ru-RU")  # the same language
    assert writes == []
    await unseeing.learn_language(5)
    assert unseeing.language_known(5) and unseeing.guild_tr(5).lang == "ru"
    started = _prefs(two)
    await started.load()
    assert started.guild_tr(5).lang == "ru"
    assert await two.guild_settings(5) == GuildSettings(5)  # no settings of its own
    assert (await two.stamps()).settings is None  # nobody reads every server's again
    # The server's choice comes first; a locale the bot does not speak is English.
    await one.change_guild_settings(5, {"language": "en"})
    await unseeing.catch_up()
    assert unseeing.guild_tr(5).lang == "en"
    await seeing.note_guild_locale(6, "de")
    assert writes == [(6, "en")]
    await unseeing.learn_language(6)
    assert unseeing.language_known(6) and unseeing.guild_tr(6).lang == "en"
