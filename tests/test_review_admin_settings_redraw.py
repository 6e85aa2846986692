"""``/umtali-admin settings`` that change how a server's matches look (pictures, language) show
at once on their open tables and DM panels, not at their next move: in the process that saved
them, and in another process holding a match once it reads them at its lease renewal."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import discord
import pytest

from cogs.umtali.display import watch_guild_looks
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, dm_panel, flush, start_match, table_message, thread_of
from tests.processes.helpers import greedy_via, main_of, row, settle
from tests.time_control_helpers import played_in_dms
from umtali.moves import MoveKind


def _admin(world: World) -> Any:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss"), roles=[role])


def _table(world: World, live: Any) -> Any:
    return next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)


async def test_open_table_and_dm_panels_show_new_look_at_once(world: World) -> None:
    boss = _admin(world)
    live = await start_match(world)
    table: Any = await table_message(world, live)
    assert [a.filename for a in table.attachments] == ["table.png"]
    assert dm_panel(world.alice, live, 0).attachments
    version, edits = live.version, table.edited_at
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False,
                          language="ru")
    assert ok.ephemeral and "- Pictures: off" in str(ok.response.content), ok.response.content
    # The answer does not call the look a default for new matches: the match in play takes it.
    said = str(ok.response.content)
    assert said.index("matches in play too") < said.index("- Pictures: off"), said
    await flush(world)
    assert live.version == version  # nobody moved
    table = _table(world, live)
    assert table.edited_at != edits  # what the test below relies on
    assert table.attachments == [] and table.embeds[0].fields
    assert "нажмите «Мои карты»" in str(table.embeds[0].footer.text), table.embeds[0].footer
    for seat, actor in enumerate((world.alice, world.bob)):
        assert dm_panel(actor, live, seat).attachments == [], seat


async def test_a_setting_that_changes_no_look_redraws_nothing(world: World) -> None:
    boss = _admin(world)
    live = await start_match(world)
    edits = _table(world, live).edited_at
    await boss.slash(world.channel, "umtali-admin settings", threads=False)
    await flush(world)
    assert _table(world, live).edited_at == edits


async def _to_turn_end_via(world: World, svc: MatchService, match_id: int) -> None:
    while (await greedy_via(world, svc, match_id)).kind is not MoveKind.DISCARD:
        await settle(world, main_of(world), svc)
    await settle(world, main_of(world), svc)


async def test_a_match_held_elsewhere_shows_new_look_at_its_renewal(
        world: World, other: MatchService) -> None:
    # The admin cog of the other process would watch its own service so.
    watch_guild_looks(other)
    boss = _admin(world)
    live = await start_match(world)
    main = main_of(world)
    await _to_turn_end_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    held = other.matches[live.id]
    assert [a.filename for a in _table(world, held).attachments] == ["table.png"]
    version = held.version
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False,
                          language="ru")
    assert ok.ephemeral, ok.response.content
    world.clock.advance(RENEW_EVERY)
    await main.check_timers()
    await other.check_timers()
    await settle(world, main, other)
    assert held.version == version and (await row(world, live.id))["owner"] == "p2"
    table = _table(world, held)
    assert table.attachments == [] and table.embeds[0].fields
    assert "нажмите «Мои карты»" in str(table.embeds[0].footer.text), table.embeds[0].footer


async def test_a_failed_save_redraws_nothing_and_tells_the_admin(
        world: World, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    boss = _admin(world)
    live = await start_match(world)
    svc = main_of(world)
    edits = _table(world, live).edited_at

    async def locked(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "change_guild_settings", locked)
    failed = await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    await flush(world)
    assert [type(e.original) for e in world.env.errors  # type: ignore[attr-defined]
            ] == [sqlite3.OperationalError]
    for record in caplog.records:
        if record.levelno >= logging.ERROR and "interaction" in record.getMessage():
            record.expected = True  # the database failing, as meant
    assert failed.ephemeral and "- Pictures: off" not in str(failed.response.content)
    assert failed.response.content, failed
    assert world.guild.id not in svc.prefs.plain_guilds
    table = _table(world, live)
    assert table.edited_at == edits and [a.filename for a in table.attachments] == ["table.png"]


async def test_with_the_channel_lost_the_dm_panels_show_new_look_at_once(world: World) -> None:
    boss = _admin(world)
    live = await played_in_dms(world)
    assert all(dm_panel(actor, live, seat).attachments
               for seat, actor in enumerate((world.alice, world.bob)))
    version = live.version
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    assert ok.ephemeral and "- Pictures: off" in str(ok.response.content), ok.response.content
    await flush(world)
    assert live.version == version and live.channel_lost and not live.over
    for seat, actor in enumerate((world.alice, world.bob)):
        panel = dm_panel(actor, live, seat)
        assert panel.attachments == [] and panel.embeds, seat
