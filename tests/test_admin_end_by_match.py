"""fix137: ``/umtali-admin end-match match:<#id>`` ends a match chosen by its id, from the
server's matches in play offered as the admin types (its players may have left the server,
where the member picker no longer finds them); the ending is saved as an admin's, and history,
the deals file and the players' DM panels say so. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import commands

from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.admin_end import Ended, end_match
from cogs.umtali.service import MatchService
from cogs.umtali.translator import UmtaliTranslator
from tests.discord_helpers import World, end_match_as, flush, manager, start_match, thread_of
from tests.processes.helpers import kill, main_of, process, via

BY_ADMIN = "ended by a server admin"



def _db(db_path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute(sql, params).fetchall()


def _copies(db_path: Path, match_id: int, count: int, guild_id: int) -> list[int]:
    """``count`` copies of the match's row, in play on ``guild_id``: their ids."""
    with sqlite3.connect(db_path) as c:
        cols = [r[1] for r in c.execute("PRAGMA table_info(matches)") if r[1] != "id"]
        listed = ", ".join(cols)
        picked = ", ".join("?" if col == "guild_id" else col for col in cols)
        return [int(c.execute(f"INSERT INTO matches ({listed}) SELECT {picked} FROM matches "
                              "WHERE id = ?", (guild_id, match_id)).lastrowid or 0)
                for _ in range(count)]


async def _end(world: World, admin: Any, **options: Any) -> str:
    """The command, its question's End it clicked: what the admin was told."""
    answer = await end_match_as(world, admin, **options)
    assert answer.acknowledged and answer.response.ephemeral, answer
    await flush(world)
    return str(answer.response.content)


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_match_of_players_who_left_is_offered_and_ended(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    boss = manager(world)
    live = await start_match(world)
    world.clock.advance(3 * 3600 + 60)
    world.guild.remove_member(world.alice)
    world.guild.remove_member(world.bob)
    await flush(world)
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert [c["value"] for c in offered] == [str(live.id)], offered
    name = offered[0]["name"]
    assert f"#{live.id}" in name and "ada" in name and "ben" in name and "3 h" in name, name
    said = await _end(world, boss, match=offered[0]["value"])
    assert "no result" in said and f"#{live.id}" in said, said
    assert _db(db_path, "SELECT status, how, winner_seat, ended_by FROM matches") == [
        ("finished", "abandoned", None, boss.user.id)]
    assert _db(db_path, "SELECT COUNT(*) FROM active_players") == [(0,)]
    assert live.over
    # Who ended it is in the log.
    assert any(f"match {live.id}" in r.getMessage() and str(boss.user.id) in r.getMessage()
               for r in caplog.records if r.levelno == logging.INFO)
    assert not _errors(caplog)


async def test_history_the_deals_file_and_the_panels_say_an_admin_ended_it(
        world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    await _end(world, boss, match=f"#{live.id}")
    history = await world.alice.slash(world.channel, "umtali history")
    text = history.response.embeds[0].description or ""
    assert BY_ADMIN + ", no result" in text and "abandoned" not in text, text
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    assert BY_ADMIN in str(chosen.response.content), chosen.response.content
    for seat, member in enumerate((world.alice, world.bob)):
        panel = next(m for m in member.user.dm_channel.history()
                     if m.id == live.dm_message_ids[seat])
        shown = " ".join(f"{e.title} {e.description} {e.footer.text}" for e in panel.embeds)
        assert "server admin" in shown and "left the server" not in shown, shown


async def test_a_match_of_another_server_is_refused(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    [elsewhere] = _copies(db_path, live.id, 1, world.guild.id + 1)
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert str(elsewhere) not in [c["value"] for c in offered]
    said = await _end(world, boss, match=str(elsewhere))
    assert f"no match #{elsewhere} in play on this server" in said, said
    assert _db(db_path, "SELECT status FROM matches WHERE id = ?", elsewhere) == [("active",)]


@pytest.mark.parametrize("typed", ["abc", "99999999999999999999999999", "-5", "#", "1.5",
                                   "   "])
async def test_hostile_input_is_answered_plainly(world: World, db_path: Path,
                                                 caplog: pytest.LogCaptureFixture,
                                                 typed: str) -> None:
    boss = manager(world)
    live = await start_match(world)
    said = await _end(world, boss, match=typed)
    assert "nothing changed" in said.lower(), said
    assert "Sorry" not in said, said
    assert not live.over
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", typed)
    assert isinstance(offered, list)
    assert not _errors(caplog)


@pytest.mark.parametrize("options", ["neither", "both"])
async def test_exactly_one_of_member_and_match(world: World, db_path: Path,
                                               options: str) -> None:
    boss = manager(world)
    live = await start_match(world)
    given = {} if options == "neither" else {"member": world.alice, "match": str(live.id)}
    said = await _end(world, boss, **given)
    assert "member" in said and "match" in said and "nothing changed" in said, said
    assert not live.over


async def test_many_matches_offer_25_newest_first_and_filter(world: World,
                                                             db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    ids = _copies(db_path, live.id, 40, world.guild.id)
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert [c["value"] for c in offered] == [str(i) for i in sorted(ids, reverse=True)[:25]]
    assert all(len(c["name"]) <= 100 for c in offered)
    typed = str(ids[0])
    narrowed = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", typed)
    assert typed in [c["value"] for c in narrowed]
    assert all(c["value"].startswith(typed) for c in narrowed), narrowed
    by_name = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "BEN")
    assert len(by_name) == 25
    assert await boss.autocomplete(world.channel, "umtali-admin end-match", "match",
                                   "nobody") == []


async def test_a_match_over_since_it_was_offered_is_said_so(world: World,
                                                            db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert await main_of(world).resign(live, 0)
    await flush(world)
    said = await _end(world, boss, match=offered[0]["value"])
    assert "already over" in said and "nothing changed" in said, said
    assert _db(db_path, "SELECT how, ended_by FROM matches") == [("resigned", None)]


async def test_two_admins_at_once_one_ends_it(world: World, db_path: Path,
                                              other: MatchService,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Another admin's end, through another process, saved as this one's is on its way:
    one ends it, the other is told it was over already; the channel told once."""
    boss, chief = manager(world), manager(world, "chief")
    live = await start_match(world)
    svc = main_of(world)
    real = svc.store.abandon_match
    theirs: list[object] = []

    async def ended_first(*args: Any, **kwargs: Any) -> Any:
        ended = await end_match(other, world.guild.id, chief.user.id, match_id=live.id)
        assert isinstance(ended, Ended)
        theirs.append(ended)
        return await real(*args, **kwargs)

    monkeypatch.setattr(svc.store, "abandon_match", ended_first)
    said = await _end(world, boss, match=str(live.id))
    assert "already over" in said and "nothing changed" in said, said
    assert theirs, "the other admin's end did not run"
    assert _db(db_path, "SELECT how, ended_by FROM matches") == [("abandoned", chief.user.id)]
    assert not [m for m in thread_of(world, live).history()
                if "ended this match: no result" in (m.content or "")]


async def test_after_a_restart_the_match_is_ended_by_its_id(world: World,
                                                            db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    main = main_of(world)
    # Offered by the bot before its restart, chosen after.
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    assert [c["value"] for c in offered] == [str(live.id)]
    await kill(main)
    async with process(world, db_path, main.owners.name) as again:
        with via(world, again):
            said = await _end(world, boss, match=offered[0]["value"])
            assert "no result" in said, said
    assert _db(db_path, "SELECT status, ended_by FROM matches") == [("finished", boss.user.id)]


async def test_in_russian(world: World, db_path: Path, locales: dict[int, str]) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    group = UmtaliAdminCog(bot).app_command
    assert group is not None
    payload = await group.get_translated_payload(bot.tree, UmtaliTranslator())
    end = next(o for o in payload["options"] if o["name"] == "end-match")
    match = next(o for o in end["options"] if o["name"] == "match")
    assert match["name_localizations"]["ru"] == "матч" and match["autocomplete"]
    assert "ru" in match["description_localizations"]
    boss = manager(world)
    locales[boss.user.id] = "ru"
    locales[world.alice.user.id] = "ru"
    live = await start_match(world)
    said = await _end(world, boss, match="абв")
    assert "ничего не изменилось" in said.lower(), said
    said = await _end(world, boss)
    assert "ничего не изменилось" in said.lower(), said
    said = await _end(world, boss, match=str(live.id))
    assert "без результата" in said, said
    history = await world.alice.slash(world.channel, "umtali history")
    text = history.response.embeds[0].description or ""
    assert "администратор" in text, text




async def test_an_unreadable_match_chosen_by_its_number_is_ended(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    boss = manager(world)
    live = await start_match(world)
    main = main_of(world)
    await kill(main)
    _db(db_path, "UPDATE matches SET state = '{\"broken' WHERE id = ?", live.id)
    async with process(world, db_path, main.owners.name) as again:
        with via(world, again):
            offered = await boss.autocomplete(world.channel, "umtali-admin end-match",
                                              "match", "")
            assert [c["value"] for c in offered] == [str(live.id)]
            said = await _end(world, boss, match=str(live.id))
            assert "no result" in said and "could not be read" in said, said
            history = await world.bob.slash(world.channel, "umtali history")
    assert _db(db_path, "SELECT status, ended_by FROM matches") == [("finished", boss.user.id)]
    assert BY_ADMIN in (history.response.embeds[0].description or "")
    assert not _errors(caplog)


async def test_only_a_manager_is_offered_the_matches(world: World, db_path: Path) -> None:
    """A member given the command by the server's integration settings, without Manage
    Server, is refused it: nor are the matches in play listed to them."""
    await start_match(world)
    [admin] = [c for c in await world.bot.tree.fetch_commands() if c.name == "umtali-admin"]
    world.guild.set_command_permissions(admin, {world.carol: True})
    assert await world.carol.autocomplete(world.channel, "umtali-admin end-match", "match",
                                          "") == []


async def test_the_database_failing_offers_nothing_with_no_error(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    boss = manager(world)
    await start_match(world)

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(main_of(world).store, "in_play_in", locked)
    assert await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "") == []
    assert not _errors(caplog)


async def test_a_members_match_ended_is_saved_as_the_admins_too(world: World,
                                                                db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    assert "no result" in await _end(world, boss, member=world.bob)
    assert _db(db_path, "SELECT how, ended_by FROM matches") == [("abandoned", boss.user.id)]
    assert live.ended_by == boss.user.id
