"""A match saved but whose table could not be posted, because something between the save and
the post failed (the database read of the server's settings, here): it is cancelled at once,
clock or not (nothing recorded, both players free, the challenge's message says so); should the
cancelling fail too, the timer cancels it; and a restart that finds one with no clock cancels
it. Without this, a match with no clock stayed on for good: both players "already playing" until
one resigned, a loss recorded for a match never shown. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.timing import NEVER_SHOWN
from data.models import GuildSettings
from tests.discord_helpers import World, challenge, custom_ids, cut, flush, start_match
from tests.test_faults_opening import (
    _apologies,
    _cancelled_cleanly,
    _challenge_text,
    _db,
    _dms,
    _told_to_look_again,
)
from umtali.i18n import EN


def settings_fail_once(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next read of the server's settings fails as a busy SQLite file fails it."""
    svc = world.bot.matches
    assert svc is not None
    read = svc.store.guild_settings
    failed: list[int] = []

    async def locked_once(guild_id: int) -> GuildSettings:
        if not failed:
            failed.append(guild_id)
            raise sqlite3.OperationalError("database is locked")
        return await read(guild_id)

    monkeypatch.setattr(svc.store, "guild_settings", locked_once)


def _said(world: World) -> list[str]:
    return [str(m.content) for t in [world.channel, *world.channel.threads] for m in t.history()]


async def _free(world: World) -> None:
    """Neither is held by the match: ben may challenge ada."""
    again = await challenge(world, world.bob, world.alice)
    assert not again.ephemeral


@pytest.mark.parametrize("timer", [0, 5])
async def test_a_failure_before_the_table_is_posted_cancels_the_match(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, timer: int) -> None:
    svc = world.bot.matches
    assert svc is not None
    offered = await challenge(world, world.alice, world.bob, turn_timer=timer)
    settings_fail_once(world, monkeypatch)
    button = next(c for c in custom_ids(offered.response) if c.endswith(":accept"))
    answer = await world.bob.submit_modal(
        await world.bob.click(offered.response, custom_id=button), {"cut": ""})
    await flush(world)
    assert answer.acknowledged and not _apologies(answer)
    assert "could not start" in _challenge_text(world, offered)
    _cancelled_cleanly(db_path)
    assert svc.matches == {}
    assert not _dms(world)
    await _free(world)


async def test_a_practice_whose_table_could_not_be_posted_is_cancelled(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc = world.bot.matches
    assert svc is not None
    offered = await world.alice.slash(world.channel, "umtali practice", turn_timer=0)
    settings_fail_once(world, monkeypatch)
    result = await cut(world, offered)
    await flush(world)
    assert result.acknowledged and not _apologies(result)
    _cancelled_cleanly(db_path)
    assert svc.matches == {}
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert not again.ephemeral, again.response.content


async def test_with_no_clock_a_failed_cancel_is_tried_again_by_the_timer(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    svc = world.bot.matches
    assert svc is not None
    abandon = svc.store.abandon_match
    calls: list[str] = []

    async def fails_once(match_id: int, how: str, now: float | None = None,
                         **holder: Any) -> list[str] | None:
        calls.append(how)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return await abandon(match_id, how, now, **holder)

    monkeypatch.setattr(svc.store, "abandon_match", fails_once)
    offered = await challenge(world, world.alice, world.bob, turn_timer=0)
    settings_fail_once(world, monkeypatch)
    button = next(c for c in custom_ids(offered.response) if c.endswith(":accept"))
    answer = await world.bob.submit_modal(
        await world.bob.click(offered.response, custom_id=button), {"cut": ""})
    await flush(world)
    # The database failing is no bug: a warning, and the member told to look again.
    assert _told_to_look_again(answer) and not _apologies(answer)
    assert _db(db_path, "SELECT status, table_message_id FROM matches") == [("active", None)]
    await svc.check_timers()
    await flush(world)
    _cancelled_cleanly(db_path)
    mentions = f"<@{world.alice.user.id}> <@{world.bob.user.id}>"
    assert EN(NEVER_SHOWN, mentions=mentions) in _said(world)
    assert not [r for r in caplog.records
                if r.levelno >= logging.ERROR and "unhandled" not in r.getMessage()]
    await _free(world)


async def test_a_restart_cancels_a_match_never_shown_that_has_no_clock(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, turn_timer=0)
    assert live.deadline is None
    # As saved by a process stopped before it posted the table.
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE matches SET table_message_id = NULL WHERE id = ?", (live.id,))
    again = make_bot()
    await world.env.restart_bot(again)
    svc = again.matches
    assert svc is not None
    assert svc.matches[live.id].never_shown
    await svc.check_timers()
    await flush(world)
    _cancelled_cleanly(db_path)
    mentions = f"<@{world.alice.user.id}> <@{world.bob.user.id}>"
    assert EN(NEVER_SHOWN, mentions=mentions) in _said(world)
    assert not [t for t in _said(world) if "offline" in t]


async def test_a_failed_edit_of_the_challenge_cancels_the_match(
        world: World, db_path: Path) -> None:
    """Discord refuses the accept's edit of the challenge (the first thing after the save)."""
    svc = world.bot.matches
    assert svc is not None
    offered = await challenge(world, world.alice, world.bob, turn_timer=0)
    button = next(c for c in custom_ids(offered.response) if c.endswith(":accept"))
    clicked = await world.bob.click(offered.response, custom_id=button)
    world.env.inject_error("POST", "/interactions/*/callback", status=403, code=50013,
                           message="Missing Permissions", times=1)
    await world.bob.submit_modal(clicked, {"cut": ""})
    await flush(world)
    _cancelled_cleanly(db_path)
    assert svc.matches == {}
    assert "could not start" in _challenge_text(world, offered)
    await _free(world)


async def test_an_accept_expired_before_its_edit_still_opens_the_match(
        world: World, db_path: Path) -> None:
    """The accept's interaction expired before its answer (the bot held up: 10062): the
    challenge's message is edited by the bot's own call, and the match opens (fix163; it was
    cancelled, the challenge's buttons left on a challenge no longer open)."""
    svc = world.bot.matches
    assert svc is not None
    offered = await challenge(world, world.alice, world.bob, turn_timer=0)
    button = next(c for c in custom_ids(offered.response) if c.endswith(":accept"))
    clicked = await world.bob.click(offered.response, custom_id=button)
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                           message="Unknown interaction", times=1)
    await world.bob.submit_modal(clicked, {"cut": ""})
    await flush(world)
    [live] = svc.matches.values()
    assert not live.over and live.table_message_id is not None
    assert "accepted" in _challenge_text(world, offered)
