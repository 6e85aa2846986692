"""A message Discord posted whose answer never reached the bot (given up after ``REST_TIMEOUT``,
or a 5xx that discord.py tried again): sent again, its nonce names it (``cogs.umtali.nonces``),
and Discord gives the first back instead of posting a second. Over the loopback Discord, which
enforces nonces as Discord does, the bot in this process."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp
import pytest

from cogs.umtali import rest_timeout, retries, time_out
from cogs.umtali.clock import warn_before
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.nonces import nonce_of
from cogs.umtali.question import Question
from cogs.umtali.service import MatchService
from tests.loopback.driver import play_move, play_out, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from tests.test_ending_panel_warn_race import _channel_lost
from tests.test_faults_rest_hang import _in_play

#: Turns' DMs and time-up questions of a session by correspondence.
CORRESPONDENCE = {"time_control": "correspondence"}


@pytest.fixture(autouse=True)
def short_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rest_timeout, "REST_TIMEOUT", aiohttp.ClientTimeout(total=1.0))


def test_nonces_name_their_message() -> None:
    assert nonce_of("turn", 7, 1, 2, 3, 0) == nonce_of("turn", 7, 1, 2, 3, 0)
    assert nonce_of("turn", 7, 1, 2, 3, 0) != nonce_of("turn", 7, 1, 2, 4, 0)
    assert nonce_of("turn", 7, 1) != nonce_of("turn", 71)
    assert len(nonce_of("a" * 100, 10**20)) <= 25


async def test_a_time_up_question_posted_with_its_answer_lost_is_asked_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _in_play(monkeypatch, tmp_path, **CORRESPONDENCE) as (server, _, _, svc, live):
        deadline = live.deadline
        assert deadline is not None
        lost = server.lose_answer("POST", rf"^/channels/{live.channel_id}/messages$")
        waiting = live.player_ids[1 - live.session.to_act]
        await svc.check_timers(now=deadline + LATE + 1)
        await svc.flush()
        # Posted, its answer never came: given up, the clock runs on, and the next check asks
        # again.
        assert lost.held and live.deadline == deadline and not live.question
        await svc.check_timers(now=deadline + LATE + 2)
        await svc.flush()
        assert live.question
        asked = [m for m in server.channel_messages(live.channel_id)
                 if "time for this turn is up" in m["content"]]
        assert len(asked) == 1, [m["content"] for m in asked]
        question = Question.loads(live.question)
        assert question is not None and str(question.message_id) == asked[0]["id"]
        # Not asked in the DMs meanwhile either (a second question, both answerable).
        assert not [m for m in server.dm_messages(waiting)
                    if "time for this turn is up" in json.dumps(m)]
        server.release()


async def test_a_turns_dm_sent_with_its_answer_lost_is_sent_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _in_play(monkeypatch, tmp_path, **CORRESPONDENCE) as (
            server, db, saved, svc, live):
        mover = live.session.to_act
        dm = live.dm_channel_ids[1 - mover]
        assert dm is not None
        before = len(server.channel_messages(dm))
        # The next turn's DM is posted, its answer lost: kept to send again at the next check.
        lost = server.lose_answer("POST", rf"^/channels/{dm}/messages$")
        while live.session.to_act == mover:
            await play_out(server, db, saved.id, moves=1)
        await until(lambda: lost.held, "the turn's DM on its way")
        await svc.flush()
        assert live.deadline is not None
        await svc.check_timers(now=live.deadline - 3600)
        await svc.flush()
        told = [m["content"] for m in server.channel_messages(dm)[before:]
                if m["content"].startswith("Your turn")]
        assert len(told) == 1, told
        server.release()
        await asyncio.sleep(0)


async def _warned_twice(server: LoopbackDiscord, svc: MatchService, live: LiveMatch,
                        channel_id: int | None) -> None:
    """The turn's warning posted in ``channel_id`` with its answer lost, given up, and warned
    again at the next check."""
    lost = server.lose_answer("POST", rf"^/channels/{channel_id}/messages$")
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline - warn_before(live) + 1)
    await svc.flush()
    # Given up: the warning is still to come, at the next check.
    assert lost.held and not live.warned
    await svc.check_timers(now=live.deadline - warn_before(live) + 2)
    await svc.flush()
    assert live.warned


async def test_a_warning_posted_with_its_answer_lost_is_posted_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _in_play(monkeypatch, tmp_path) as (server, _, _, svc, live):
        assert live.deadline is not None
        await _warned_twice(server, svc, live, live.channel_id)
        warned = [m["content"] for m in server.channel_messages(live.channel_id)
                  if "left for your turn" in m["content"]]
        assert len(warned) == 1, warned
        server.release()


async def test_a_turns_new_dm_panel_sent_with_its_answer_lost_is_sent_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The match's channel lost, a turn's start sends its player a new DM panel (it notifies):
    its answer lost, the delivery tries it again."""
    monkeypatch.setattr(retries, "RETRY_FIRST", 0.5)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        mover = live.session.to_act
        user = live.player_ids[1 - mover]
        dm = live.dm_channel_ids[1 - mover]
        before = len(server.dm_messages(user))
        lost = server.lose_answer("POST", rf"^/channels/{dm}/messages$")
        while live.session.to_act == mover:
            await play_move(server, db, saved.id)
        await until(lambda: lost.held, "the turn's new panel on its way")
        # Given up after a second, and sent again by the delivery's next try.
        await until(lambda: str(live.dm_message_ids[1 - mover]) in {
            m["id"] for m in server.dm_messages(user)[before:]}, "the new panel saved")
        await svc.flush()
        new = server.dm_messages(user)[before:]
        assert [m["id"] for m in new] == [str(live.dm_message_ids[1 - mover])]
        server.release()


async def test_a_warnings_new_dm_panel_sent_with_its_answer_lost_is_sent_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The match's channel lost, a turn's warning is a new DM panel saying the seconds left:
    its answer lost, the next check warns again, a second later, with a second less left. It
    is the same message all the same, and Discord gives the first back."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        _, svc, live = await _channel_lost(server, db, bot)
        seat = live.session.to_act
        user, dm = live.player_ids[seat], live.dm_channel_ids[seat]
        assert live.deadline is not None
        before = len(server.dm_messages(user))
        await _warned_twice(server, svc, live, dm)
        new = server.dm_messages(user)[before:]
        assert [m["id"] for m in new] == [str(live.dm_message_ids[seat])], [
            m["embeds"] for m in new]
        server.release()


async def test_a_move_whose_answer_discord_took_with_its_reply_lost_is_played_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``/umtali play``: the answer to the interaction (its "thinking") carried out, its reply
    lost and then a 503; discord.py tries it again by itself, and Discord says the interaction
    was answered already (40060). That was the first answer's success, not an error: the move
    stands, the player gets their panel, nothing is logged at ERROR (the conftest fails the
    test on one) and the bot answered the interaction once (the loopback's protocol check)."""
    async with _in_play(monkeypatch, tmp_path) as (server, db, saved, svc, live):
        version = live.version
        lost = server.lose_answer("POST", r"^/interactions/[0-9]+/[^/]+/callback$")

        async def let_go() -> None:
            await until(lambda: lost.held, "the answer on its way")
            server.release()
        releasing = asyncio.create_task(let_go())
        answer = await play_move(server, db, saved.id)
        await releasing
        await until(lambda: answer.callbacks == 2, "the answer tried again")
        await svc.flush()
        assert live.version == version + 1
        await until(lambda: (answer.response or {}).get("embeds"), "the player's panel")
        assert "went wrong" not in json.dumps(answer.response) + answer.text()


async def test_a_time_up_question_whose_channel_keeps_failing_is_asked_in_the_dms(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Not in the DMs at the first failure for now (it may have been posted: above), but once
    the channel has failed ``CHANNEL_TRIES`` times for it: the waiting player is not kept
    waiting on a channel that does not answer."""
    async with _in_play(monkeypatch, tmp_path, **CORRESPONDENCE) as (server, _, _, svc, live):
        deadline = live.deadline
        assert deadline is not None
        waiting = live.player_ids[1 - live.session.to_act]
        server.fail("POST", rf"^/channels/{live.channel_id}/messages$", times=10, status=503)
        for n in range(1, time_out.CHANNEL_TRIES + 1):
            assert not live.question, f"asked after {n - 1} failure(s)"
            await svc.check_timers(now=deadline + LATE + n)
            await svc.flush()
        question = Question.loads(live.question)
        assert question is not None and question.in_dm
        assert [m for m in server.dm_messages(waiting)
                if "time for this turn is up" in json.dumps(m)]
