"""A call to Discord that never answers: given up after ``REST_TIMEOUT`` and tried again, so
that the match's announcements, table and panels go on (they waited five minutes, aiohttp's
own limit, the players' clocks running). Over the loopback Discord, the bot in this process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from cogs.umtali import rest_timeout
from cogs.umtali.clock import warn_before
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.loopback.driver import (
    YOUR_TURN,
    SavedMatch,
    play_out,
    play_until_held,
    query,
    start_session,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord


@asynccontextmanager
async def _in_play(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **options: Any
                   ) -> AsyncIterator[tuple[LoopbackDiscord, Path, SavedMatch, MatchService,
                                            LiveMatch]]:
    """A session just begun between two members, the bot in this process (its table and
    panels sent): the server, the database, the match as saved, the service and its copy."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved = await start_session(server, db, server.add_member("ada"),
                                    server.add_member("ben"), **options)
        svc = bot.matches
        assert svc is not None
        await svc.flush()
        yield server, db, saved, svc, svc.matches[saved.id]


async def test_an_announcement_whose_call_never_answers_is_posted_all_the_same(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(rest_timeout, "REST_TIMEOUT", aiohttp.ClientTimeout(total=1.0))
    async with _in_play(monkeypatch, tmp_path) as (server, db, saved, _, _):
        await play_out(server, db, saved.id, moves=4)
        # The next announcement's call is never answered (until the test ends).
        held = server.hold("POST", rf"^/channels/{saved.channel_id}/messages$")
        await play_until_held(server, db, saved.id, held, "an announcement on its way")
        lost = YOUR_TURN.sub("", held.held[0].body["content"]).strip()

        def posted() -> bool:
            return any(lost in YOUR_TURN.sub("", m["content"])
                       for m in server.channel_messages(saved.channel_id))
        # Given up after a second, and posted by the delivery's next try (5 s later), the
        # first call still unanswered.
        await until(posted, "the announcement posted by a later try")
        server.release()


async def test_a_hand_panel_edit_that_never_answers_holds_up_no_announcement(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The edit of a player's open hand panel (an ephemeral message, edited through the
    interaction's webhook, not ``HTTPClient.request``) never answered: the match's delivery
    awaits it before the turn's announcement, which waited aiohttp's five minutes."""
    monkeypatch.setattr(rest_timeout, "REST_TIMEOUT", aiohttp.ClientTimeout(total=1.0))
    async with _in_play(monkeypatch, tmp_path) as (server, db, saved, _, _):
        # Each ``/umtali play`` answers with the mover's hand panel, edited as the match moves.
        await play_out(server, db, saved.id, moves=4)
        # The next edit of a hand panel (the one whose position the next move makes stale) is
        # never answered (until the test ends).
        held = server.hold("PATCH", r"^/webhooks/[0-9]+/[^/]+/messages/@original$")
        await play_until_held(server, db, saved.id, held, "a hand panel's edit on its way")
        # The announcement of the last move, posted though the edit is still unanswered.
        def announced() -> bool:
            return bool(query(db, "SELECT unsent FROM matches WHERE id = ?",
                              saved.id)[0]["unsent"] == "[]")
        await until(announced, "the announcements posted")
        server.release()


async def test_a_warning_whose_call_hangs_holds_up_no_check_of_the_clock(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The timer tick renews this process's leases every few seconds, and judges every turn:
    a turn's warning it waited for, Discord not answering (up to ``REST_TIMEOUT`` a try, and
    discord.py tries again), held it up, long enough for the leases to lapse and other
    processes to take the matches. It is sent beside the tick."""
    async with _in_play(monkeypatch, tmp_path) as (server, _, _, svc, live):
        assert live.deadline is not None
        held = server.hold("POST", rf"^/channels/{live.channel_id}/messages$")
        # Within a second or two, whatever the warning's call does.
        await asyncio.wait_for(svc.check_timers(now=live.deadline - warn_before(live) + 1), 5)
        assert live.warned
        await until(lambda: held.held, "the warning on its way")
        server.release()


async def test_a_time_up_question_whose_call_hangs_holds_up_no_check_of_the_clock(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """By correspondence, a turn run out asks the waiting player: a question the tick waited
    for, Discord not answering, held it up as a warning did (the leases unrenewed)."""
    async with _in_play(monkeypatch, tmp_path, time_control="correspondence") as (
            server, _, _, svc, live):
        assert live.deadline is not None
        held = server.hold("POST", rf"^/channels/{live.channel_id}/messages$")
        await asyncio.wait_for(svc.check_timers(now=live.deadline + LATE + 1), 5)
        assert live.deadline is None  # its clock stopped, the question on its way
        await until(lambda: held.held, "the question on its way")
        server.release()


async def test_a_turn_dm_sent_again_whose_call_hangs_holds_up_no_check_of_the_clock(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """By correspondence, a turn's DM that failed for now is sent again at the clock's next
    check: one the tick waited for held it up as a warning did."""
    async with _in_play(monkeypatch, tmp_path, time_control="correspondence") as (
            server, db, saved, svc, live):
        mover = live.session.to_act
        dm = live.dm_channel_ids[1 - mover]
        assert dm is not None
        # The next turn's DM fails for now (a 503): kept to send again at the next check.
        server.fail("POST", rf"^/channels/{dm}/messages$", status=503)
        while live.session.to_act == mover:
            await play_out(server, db, saved.id, moves=1)
        await svc.flush()
        held = server.hold("POST", rf"^/channels/{dm}/messages$")
        assert live.deadline is not None
        await asyncio.wait_for(svc.check_timers(now=live.deadline - 3600), 5)
        await until(lambda: held.held, "the turn's DM sent again")
        server.release()
