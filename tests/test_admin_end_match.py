"""fix132: ``/umtali-admin end-match`` ends a member's match with no result, the way an
abandoned match ends (no rating, no winner), even one whose saved row no code can read: a
match that fails every bring-in would otherwise keep its players in it for ever. SimCord, a
real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import commands
from simcord import assert_error
from simcord.backend.errors import SetupError

from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from cogs.umtali.stray_panels import moves_of
from cogs.umtali.stuck import STUCK_AFTER
from cogs.umtali.translator import UmtaliTranslator
from tests.discord_helpers import (
    World,
    challenge,
    end_match_as,
    flush,
    manager,
    start_match,
    start_practice,
    thread_of,
)
from tests.processes.helpers import kill, main_of, process, via
from tests.test_faults_channel import _lose_thread

ENDED = "ended this match: no result"



def _db(db_path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as c:
        return c.execute(sql, params).fetchall()


def _said(world: World, live: LiveMatch, text: str) -> list[Any]:
    return [m for m in thread_of(world, live).history() if text in (m.content or "")]


async def _end(world: World, admin: Any, member: Any) -> str:
    """The command, its question's End it clicked: what the admin was told."""
    answer = await end_match_as(world, admin, member=member)
    assert answer.acknowledged and answer.response.ephemeral, answer
    await flush(world)
    return str(answer.response.content)


async def test_an_unreadable_match_is_ended_and_its_players_play_again(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Its state no longer reads (a hand-edited row): the restart's bring-in fails, and fails
    at every claim; the admin's command ends it by its id, and the players are free."""
    boss = manager(world)
    live = await start_match(world)
    main = main_of(world)
    await kill(main)
    _db(db_path, "UPDATE matches SET state = '{\"broken' WHERE id = ?", live.id)
    async with process(world, db_path, main.owners.name) as again:
        with via(world, again):
            assert live.id not in again.matches  # its bring-in failed
            said = await _end(world, boss, world.alice)
            assert "no result" in said, said
            assert _db(db_path, "SELECT status, how, winner_seat FROM matches WHERE id = ?",
                       live.id) == [("finished", "abandoned", None)]
            assert _db(db_path, "SELECT COUNT(*) FROM session_results") == [(0,)]
            assert _db(db_path, "SELECT COUNT(*) FROM active_players") == [(0,)]
            assert _said(world, live, ENDED), "the channel was not told"
            # Each player's DM panel says so, its buttons gone.
            for seat, member in enumerate((world.alice, world.bob)):
                panel = next(m for m in member.user.dm_channel.history()
                             if m.id == live.dm_message_ids[seat])
                assert ENDED in (panel.content or "") and not moves_of(panel, live.id)
            # The claims pass it by now; the players can challenge again.
            world.clock.advance(30)
            await again.check_timers()
            assert not again.tracked(live.id)
            await challenge(world, world.alice, world.bob)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_practice_match_held_here_is_torn_down(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_practice(world)
    svc = main_of(world)
    said = await _end(world, boss, world.alice)
    assert "no result" in said, said
    assert live.over and live.abandoned
    assert _db(db_path, "SELECT status, how FROM matches WHERE id = ?",
               live.id) == [("finished", "abandoned")]
    assert _db(db_path, "SELECT COUNT(*) FROM session_results") == [(0,)]
    assert not svc.tracked(live.id), "something is still kept for the match"
    assert _said(world, live, ENDED)
    panel = world.alice.user.dm_channel.history()
    assert not any(moves_of(m, live.id) for m in panel), "a DM panel still offers moves"


async def test_a_member_with_no_match_is_told_so(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    said = await _end(world, boss, world.carol)
    assert "no match" in said, said
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]
    assert not live.over


async def test_a_failed_save_changes_nothing(world: World, db_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    boss = manager(world)
    live = await start_match(world)
    svc = main_of(world)

    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(svc.store, "abandon_match", failing)
    said = await _end(world, boss, world.alice)
    assert "could not" in said.lower() and "nothing changed" in said.lower(), said
    assert not live.over and svc.matches.get(live.id) is live
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]
    assert not _said(world, live, ENDED)
    monkeypatch.undo()
    assert "no result" in await _end(world, boss, world.alice)


async def test_a_save_of_unknown_outcome_is_said_so(world: World, db_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The save fails and so does the read that would tell whether it went through: the admin
    is told that, not that nothing changed; the command run again tells."""
    boss = manager(world)
    live = await start_match(world)
    svc = main_of(world)

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(svc.store, "abandon_match", locked)
    monkeypatch.setattr(svc.owners.leases, "ended_as", locked)
    said = await _end(world, boss, world.alice)
    assert "could not be read" in said and "again" in said, said
    assert not live.over
    monkeypatch.undo()
    assert "no result" in await _end(world, boss, world.alice)
    assert live.over


async def test_a_resignation_saved_first_wins_the_race(
        world: World, db_path: Path, other: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player resigns through another process as the admin's end is on its way: whoever
    saves first wins, and the admin is told plainly."""
    boss = manager(world)
    live = await start_match(world)
    svc = main_of(world)
    real = svc.store.abandon_match

    async def resigned_first(*args: Any, **kwargs: Any) -> Any:
        theirs = await other.lookup(live.id)
        assert theirs is not None and await other.resign(theirs, 0)
        return await real(*args, **kwargs)

    monkeypatch.setattr(svc.store, "abandon_match", resigned_first)
    said = await _end(world, boss, world.alice)
    assert "already over" in said, said
    assert _db(db_path, "SELECT how, winner_seat FROM matches") == [("resigned", 1)]
    assert not _said(world, live, ENDED)


async def test_a_move_after_the_end_is_refused_plainly(world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world)
    await _end(world, boss, world.alice)
    player = (world.alice, world.bob)[live.session.to_act]
    answer = await player.slash(thread_of(world, live), "umtali resign")
    text = str(answer.response.content)
    assert answer.ephemeral and "Sorry" not in text, text
    assert _db(db_path, "SELECT how FROM matches") == [("abandoned",)]


async def test_a_member_without_manage_server_is_refused(world: World, db_path: Path) -> None:
    await start_match(world)
    with pytest.raises(SetupError, match="not visible"):
        await world.alice.slash(world.channel, "umtali-admin end-match", member=world.bob)
    [admin] = [c for c in await world.bot.tree.fetch_commands() if c.name == "umtali-admin"]
    world.guild.set_command_permissions(admin, {world.alice: True})
    refused = await world.alice.slash(world.channel, "umtali-admin end-match",
                                      member=world.bob)
    assert refused.ephemeral and "Manage Server" in str(refused.response.content)
    assert_error(world.env, contains="Manage")
    assert _db(db_path, "SELECT status FROM matches") == [("active",)]


async def test_in_russian(world: World, db_path: Path, locales: dict[int, str]) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    group = UmtaliAdminCog(bot).app_command
    assert group is not None
    payload = await group.get_translated_payload(bot.tree, UmtaliTranslator())
    end = next(o for o in payload["options"] if o["name"] == "end-match")
    assert end["name_localizations"]["ru"] == "завершить-матч"
    assert "ru" in end["description_localizations"]
    assert end["options"][0]["name_localizations"]["ru"] == "участник"
    boss = manager(world)
    locales[boss.user.id] = "ru"
    live = await start_match(world)
    said = await _end(world, boss, world.alice)
    assert "без результата" in said, said
    assert not _db(db_path, "SELECT 1 FROM active_players")
    assert live.over


async def test_a_match_that_never_comes_in_is_said_once_at_error(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A bring-in failing at every check for a reason other than the database (a bug, a row
    no code reads) is a warning at first, then, once it has failed ``STUCK_AFTER`` times in a
    row, one ERROR naming the way out; the admin's command ends it."""
    boss = manager(world)
    live = await start_match(world)
    main = main_of(world)
    await kill(main)
    _db(db_path, "UPDATE matches SET state = '{\"broken' WHERE id = ?", live.id)

    def stuck() -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.levelno >= logging.ERROR]

    async with process(world, db_path, main.owners.name) as again:
        for _ in range(STUCK_AFTER + 5):
            world.clock.advance(1)
            await again.check_timers()
        [told] = stuck()
        told.expected = True  # (the conftest's mark)
        assert f"match {live.id}" in told.getMessage()
        assert "/umtali-admin end-match" in told.getMessage()
        with via(world, again):
            assert "no result" in await _end(world, boss, world.alice)
        for _ in range(3):
            world.clock.advance(1)
            await again.check_timers()
        assert len(stuck()) == 1 and not again.tracked(live.id)


async def test_a_channel_gone_is_no_error(world: World, db_path: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    boss = manager(world)
    live = await start_match(world)
    _lose_thread(world, live)
    assert "no result" in await _end(world, boss, world.alice)
    assert _db(db_path, "SELECT status, how FROM matches") == [("finished", "abandoned")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not main_of(world).tracked(live.id)
