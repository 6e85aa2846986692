"""fix161: the line the challenge message ends with once its match has ended (how it ended,
and a link to the final card: ``session_end``) was a courtesy tried once, after the final
table's edit: its edit failing for now (Discord's 5xx), or the bot stopping there, lost it for
good, the match no longer in play. It is now saved as owed with the match's end
(``matches.resend``), tried again as the delivery's other parts are, and told by the bot once
back after a restart; cleared once told. SimCord, on a real SQLite file."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.session_end
from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, start_match
from tests.slow_retries import slow_retries  # noqa: F401 (an autouse fixture)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import db_row
from tests.test_records_discord import resign

#: The challenge message's last line once ada resigned to ben.
RESIGNED = "**Session over: ben wins (ada resigned).** [The final card]("


def _challenge_message_id(db_path: Path, match_id: int) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT message_id FROM challenges WHERE match_id = ?",
                             (match_id,)).fetchone()[0])


def _last_line(world: World, message_id: int) -> str:
    message = next(m for m in world.channel.history() if m.id == message_id)
    return str(message.embeds[0].description).splitlines()[-1]


def _owed(db_path: Path, match_id: int) -> bool:
    resend = db_row(db_path, match_id)["resend"]
    return bool(resend) and json.loads(resend).get("ended") is True


@pytest.mark.usefixtures("server_errors")
async def test_an_end_line_failed_for_now_is_told_by_the_bot_once_back(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    """The end line's edit fails (a 503), its retry a minute away, and the bot restarts
    first: the end line, saved as owed with the end, is told once it is back."""
    live = await start_match(world)
    message_id = _challenge_message_id(db_path, live.id)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{message_id}",
                           status=503, times=1)
    await resign(world, world.alice, live)
    await flush(world)
    assert not _last_line(world, message_id).startswith(RESIGNED)
    assert db_row(db_path, live.id)["status"] == "finished"
    assert db_row(db_path, live.id)["unsent"] == "[]"  # (the end announced: nothing else)
    owed = _owed(db_path, live.id)
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    assert _last_line(world, message_id).startswith(RESIGNED), _last_line(world, message_id)
    assert owed, "the end line was not saved as owed"
    assert db_row(db_path, live.id)["resend"] == ""
    assert again.matches is not None and not again.matches.tracked(live.id)


async def test_a_stop_between_the_final_table_and_its_end_line(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stops just after the final table's edit, as the end line is on its way: the
    bot back tells it (and clears it), once."""
    live = await start_match(world)
    message_id = _challenge_message_id(db_path, live.id)
    told = cogs.umtali.session_end._challenge_told
    reached = asyncio.Event()

    async def stopped_here(svc: Any, live: LiveMatch) -> Exception | None:
        reached.set()
        # (held until the stop cancels it)
        await world.env.external_wait(asyncio.Event().wait(), reason="the bot stops here")
        return None

    monkeypatch.setattr(cogs.umtali.session_end, "_challenge_told", stopped_here)
    ask = await world.alice.slash(world.channel, "umtali resign")
    await world.alice.click(ask.response,
                            custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    await world.env.settle()
    assert reached.is_set()
    owed = _owed(db_path, live.id)
    monkeypatch.setattr(cogs.umtali.session_end, "_challenge_told", told)
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    said = next(m for m in world.channel.history() if m.id == message_id)
    lines = str(said.embeds[0].description).splitlines()
    assert lines[-1].startswith(RESIGNED), lines
    assert sum(x.startswith("**Session over") for x in lines) == 1, lines
    assert owed, "the end line was not saved as owed"
    assert db_row(db_path, live.id)["resend"] == ""


@pytest.mark.usefixtures("server_errors")
async def test_an_end_line_failed_for_now_is_tried_again(
        world: World, db_path: Path) -> None:
    """No restart: the delivery tries it again, as it does the table, and clears it."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world)
    message_id = _challenge_message_id(db_path, live.id)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{message_id}",
                           status=503, times=1)
    await resign(world, world.alice, live)
    await flush(world)
    owed = _owed(db_path, live.id)
    svc.delivery.retry_now()
    await flush(world)
    assert _last_line(world, message_id).startswith(RESIGNED), _last_line(world, message_id)
    assert owed, "the end line was not saved as owed"
    assert db_row(db_path, live.id)["resend"] == ""
    assert not svc.tracked(live.id)


async def test_a_challenge_message_gone_owes_nothing(world: World, db_path: Path) -> None:
    """Its message deleted (a moderator): nothing to tell, nothing kept owed."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world)
    message_id = _challenge_message_id(db_path, live.id)
    world.env.inject_error("GET", f"/channels/{world.channel.id}/messages/{message_id}",
                           status=404, code=10008, times=None)
    await resign(world, world.alice, live)
    await flush(world)
    assert db_row(db_path, live.id)["resend"] == ""
    assert not svc.delivery.retrying(live.id) and not svc.tracked(live.id)
