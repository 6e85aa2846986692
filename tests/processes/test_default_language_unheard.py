"""A Russian server chose ``language:ru``; another process, which does not hear from the server
(Discord gives it no locale there), holds one of its matches. An admin then sets the language
back to the server's default through the bot's own process: the other process reads the change
at its lease renewal and draws the match again, in the server's own language (Russian, as the
process that hears from the server saw it), not in English while the admin's answer says
"server default (Russian)" (review110)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
import simcord.interactions

from cogs.umtali.display import watch_guild_looks
from cogs.umtali.live import LiveMatch
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, manager, start_match, table_message
from tests.processes.helpers import main_of, row, settle
from tests.test_discord_command_languages import _russian_world
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


@pytest.fixture
def guild_locales(monkeypatch: pytest.MonkeyPatch) -> None:
    """An interaction on a server carries the server's preferred locale, as Discord's do
    (SimCord's say en-US on every server)."""
    real = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = real(backend, **kwargs)
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)



async def _renewed(world: World, *services: MatchService) -> None:
    world.clock.advance(RENEW_EVERY)
    for svc in services:
        await svc.check_timers()
    await settle(world, *services)


async def _turn_played_through(svc: MatchService, match_id: int) -> None:
    """The seat to act plays its turn through ``svc`` by its service, as a click in a DM
    (routed to that process by its shard, with no server locale) would: ``svc`` holds the
    match then."""
    while True:
        live = await svc.lookup(match_id)
        assert live is not None
        seat = live.session.to_act
        move = GreedyPlayer().choose(live.session.view(seat))
        assert (await svc.act(live, live.player_ids[seat], move)).ok
        await svc.flush()
        if move.kind is MoveKind.DISCARD:
            return


TITLE = "Умтали · dasha — egor"


async def _russian_match_held_elsewhere(world: World, other: MatchService,
                                        monkeypatch: pytest.MonkeyPatch) -> tuple[World, Any,
                                                                                  LiveMatch]:
    """A Russian server that chose ``language:ru``, read so by the other process, which does
    not hear from the server and holds one of its matches: the server, its admin, the match
    as the other process holds it."""
    ru = _russian_world(world)
    # The other process's shards do not have the server: Discord gives it no locale there.
    monkeypatch.setattr(other.prefs, "_guild_locale", lambda guild_id: None)
    watch_guild_looks(other)  # as its admin cog would
    main = main_of(world)
    boss = manager(ru)
    ok = await boss.slash(ru.channel, "umtali-admin settings", language="ru")
    assert ok.ephemeral and "- Language: Russian" in str(ok.response.content), ok.response.content
    await _renewed(world, main, other)  # the other process reads the choice
    assert other.prefs.guild_tr(ru.guild.id).lang == "ru"
    # Seen on the server by the bot's own process (saved for the others), after the other
    # process read what was seen at its start.
    assert await other.store.seen_language(ru.guild.id) == "ru"
    live = await start_match(ru)
    await settle(world, main)
    await _turn_played_through(other, live.id)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "p2"
    held = other.matches[live.id]
    assert (await table_message(ru, held)).embeds[0].title == TITLE
    return ru, boss, held


async def _set_back_to_default(ru: World, boss: Any) -> None:
    ok = await boss.slash(ru.channel, "umtali-admin settings", language="default")
    assert "- Language: server default (Russian)\n" in str(ok.response.content), ok.response.content


async def _table_title(world: World, ru: World, other: MatchService, held: LiveMatch) -> str:
    assert (await row(world, held.id))["owner"] == "p2" and other.matches[held.id] is held
    ru.tables.clear()  # the table read again, as it is now
    return str((await table_message(ru, held)).embeds[0].title)


async def test_a_server_set_back_to_its_default_stays_in_its_language_elsewhere(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        guild_locales: None) -> None:
    ru, boss, held = await _russian_match_held_elsewhere(world, other, monkeypatch)
    await _set_back_to_default(ru, boss)
    await _renewed(world, main_of(world), other)
    assert await _table_title(world, ru, other, held) == TITLE
    assert other.prefs.guild_tr(ru.guild.id).lang == "ru"


async def test_the_servers_locale_unread_at_the_renewal_is_read_at_the_next(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        guild_locales: None) -> None:
    """The read of the locale as seen fails at the renewal (a busy database): the match is
    not drawn in English meanwhile, and the next renewal reads it."""
    ru, boss, held = await _russian_match_held_elsewhere(world, other, monkeypatch)
    await _set_back_to_default(ru, boss)
    read = other.store.seen_language
    failed: list[int] = []

    async def busy(guild_id: int) -> str:
        if not failed:
            failed.append(guild_id)
            raise sqlite3.OperationalError("database is locked")
        return await read(guild_id)

    monkeypatch.setattr(other.store, "seen_language", busy)
    main = main_of(world)
    await _renewed(world, main, other)
    assert await _table_title(world, ru, other, held) == TITLE
    await _renewed(world, main, other)
    assert failed == [ru.guild.id], "the locale as seen was not read"
    assert await _table_title(world, ru, other, held) == TITLE
    assert other.prefs.guild_tr(ru.guild.id).lang == "ru"
