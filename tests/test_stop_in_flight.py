"""A stop (SIGTERM: a deploy, ``docker stop``) lets the interactions under way finish, answers
new ones that the bot is restarting, and waits for a stuck one only so long."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot import Settings, make_bot
from cogs.umtali import clock_state, time_out
from cogs.umtali.startup import run_timers
from tests.loopback.driver import custom_ids, query, read_match, start_session, until
from tests.loopback.harness import (
    BotProcess,
    _no_wait,
    bot_in_process,
    bot_process,
    loopback_server,
)
from tests.loopback.launch import BACKOFF_VAR, DRAIN_VAR
from tests.loopback.records import Interaction
from tests.loopback.server import LoopbackDiscord, Member
from tests.test_fair_typed_cut_review import _shown_modal
from tests.test_stale_commands import CHOICES, autocomplete

#: An interaction's first answer (the callback), where the loopback can hold it.
CALLBACK = r"/interactions/[0-9]+/[^/]+/callback$"
#: discord.py's word before it sleeps out a reconnect's backoff.
BACKOFF = re.compile(r"Attempting a reconnect in ([0-9.]+)s")


class _Refused(web.WebSocketResponse):
    """The gateway in an outage: every connection refused (503), so discord.py backs off."""

    async def prepare(self, request: web.BaseRequest) -> None:  # type: ignore[override]
        raise web.HTTPServiceUnavailable()


async def _accept_under_way(
        server: LoopbackDiscord, bot: BotProcess, db: Path, alice: int, bob: int,
        held: str) -> tuple[asyncio.Task[Interaction], dict[str, Any]]:
    """Bob's Accept of Alice's challenge, its match made and its first answer held by the
    loopback (``delay``ed or ``hold``), then SIGTERM: the submit's task and the
    challenge's message."""
    modal = await _shown_modal(server, alice, bob)
    fault = server.delay("POST", CALLBACK) if held == "delay" else server.hold("POST", CALLBACK)
    submit = asyncio.create_task(server.submit(bob, modal, {"cut": ""}, timeout=60))
    await until(lambda: fault.held, "the accept's answer on its way")
    match = read_match(db)
    assert match is not None and match.status == "active" and match.table_message_id is None
    assert bot.proc is not None
    bot.proc.send_signal(signal.SIGTERM)
    # (The Accept's own click may still be winding up too: "waiting for 2".)
    await until(lambda: re.search(r"waiting for [12] interaction",
                                  bot.log.read_text(errors="replace")),
                "the stop waiting for the accept")
    message: dict[str, Any] = modal.payload["message"]
    return submit, message


async def test_a_stop_lets_an_accept_under_way_post_its_table(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        carol = server.add_member("cy")
        server.locales[carol] = "ru"
        submit, offer = await _accept_under_way(server, bot, db, alice, bob, "delay")
        # Meanwhile a command, a click and an autocomplete are turned away: answered
        # privately (in the member's language), nothing done.
        turned = await server.slash(carol, server.channel_id, "umtali challenge",
                                    {"opponent": Member(alice)})
        assert turned.ephemeral and "Бот перезапускается" in turned.text(), turned.text()
        button = next(c for c in custom_ids(offer) if c.endswith(":accept"))
        clicked = await server.click(alice, offer, button)
        assert clicked.ephemeral and "The bot is restarting" in clicked.text(), clicked.text()
        choices = await autocomplete(server, carol, "umtali leaderboard", [
            {"name": "season", "type": 3, "value": "", "focused": True}])
        assert choices.callback_type == CHOICES and choices.callback["choices"] == []
        server.release()
        accepted = await submit
        assert accepted.callback_type == 7, accepted.text()
        assert bot.proc is not None
        status = await asyncio.to_thread(bot.proc.wait, 30)
    assert status == 0
    log = bot.log.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert "Closed: every move is saved and the database closed." in log, log[-3000:]
    # The match the accept made is shown: its table posted, its hands in the DMs.
    match = read_match(db)
    assert match is not None and match.status == "active", match
    assert match.table_message_id is not None
    assert match.table_message_id in server.messages
    for member in (alice, bob):
        assert server.dm_messages(member), "the hand never reached a player"
    # Carol's challenge was never made.
    assert query(db, "SELECT count(*) AS n FROM challenges")[0]["n"] == 1


async def test_a_stuck_interaction_holds_a_stop_only_so_long(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The stop's wait (DRAIN, 6 s) shorter here: the accept is held for good all the same.
    monkeypatch.setenv(DRAIN_VAR, "1")
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        submit, _ = await _accept_under_way(server, bot, db, alice, bob, "hold")
        assert bot.proc is not None
        # DRAIN, then the close as ever.
        status = await asyncio.to_thread(bot.proc.wait, 30)
        server.release()
        submit.cancel()
    assert status == 0
    log = bot.log.read_text(errors="replace")
    assert "1 interaction(s) still under way after 1 s are cut short" in log, log[-3000:]
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert "Closed: every move is saved and the database closed." in log, log[-3000:]


async def test_a_stop_while_starting_ends_the_start(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Nothing is under way before the bot serves: the start is cut short at once, as before.
    async with loopback_server(monkeypatch) as server:
        synced = server.hold("PUT", r"/applications/[0-9]+/commands$")
        bot = BotProcess(server, tmp_path / "umtali.sqlite3", tmp_path)
        try:
            await bot.start(wait=False)
            await until(lambda: synced.held, "the command sync under way")
            assert bot.proc is not None
            bot.proc.send_signal(signal.SIGTERM)
            status = await asyncio.to_thread(bot.proc.wait, 30)
        finally:
            await bot.stop()
            server.release()
    assert status == 0
    log = bot.log.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert "Stopping:" not in log and "Ready to play" not in log, log[-3000:]


async def test_a_close_as_the_bot_connects_leaves_its_ready_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    # Closed while discord.py waits out its guilds before READY: that READY, coming after
    # the close, and its start-up chores are left to the next start (discord.py's close
    # unsets the loop READY is dispatched on: "Task exception was never retrieved").
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server:
        bot = make_bot(Settings(token="loopback-token", db_path=tmp_path / "umtali.sqlite3"),
                       timers=False, computer_pause=0)
        bot._connection.guild_ready_timeout = 0.5
        bot.before_identify_hook = _no_wait  # type: ignore[method-assign]
        modules = {k: v for k, v in sys.modules.items() if k.startswith("cogs.umtali")}
        task = asyncio.create_task(bot.start("loopback-token"))
        try:
            await server.wait_connected(1)
            await bot.close()
            await asyncio.wait_for(task, 20)
            await asyncio.sleep(0.8)  # READY's wait over
        finally:
            sys.modules.update(modules)
        del task
        gc.collect()
    assert not bot._frozen  # the start-up chore not run
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_gateway_hiccup_after_the_database_closed_is_not_heard(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    # The close shuts the database before discord.py's own close shuts the gateway: a drop and
    # its RESUME in between, heard, would stop and restart the clocks into the closed database
    # (two WARNINGs at a stop in a hiccup: a heartbeat, time given back). Once stopping, the
    # bot dispatches nothing but interactions (``UmtaliBot.dispatch``): not heard (review70).
    caplog.set_level(logging.INFO)
    db = tmp_path / "umtali.sqlite3"
    resumed: list[int] = []
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        await start_session(server, db, alice, bob)
        store = bot.store
        assert store is not None
        closing = store.close

        async def close_then_hiccup() -> None:
            await closing()
            before = server.gateway.resumes
            await server.drop_gateway()
            await until(lambda: server.gateway.resumes > before and server.gateway.live(),
                        "the session resumed")
            await asyncio.sleep(0.3)  # its events handled
            resumed.append(server.gateway.resumes - before)

        monkeypatch.setattr(store, "close", close_then_hiccup)
    assert resumed == [1]
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING
              and r.name.startswith(("cogs.", "data.", "bot"))]
    assert warned == []


async def test_a_stop_during_a_reconnects_backoff_ends_the_process_at_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # In an outage discord.py sleeps between tries, longer each time (up to 17 min): the close
    # done, the process must not wait that sleep out (docker stop kills it after 10 s).
    # Here each sleep is 10 s from the first, not a random one growing (waited out for one
    # of 5 s or more: 3 to 10 s).
    monkeypatch.setenv(BACKOFF_VAR, "10")
    async with bot_process(monkeypatch, tmp_path) as (server, bot, _, _, _):
        # (aiohttp's, as the loopback's gateway finds it: its REST makes no websocket)
        monkeypatch.setattr(web, "WebSocketResponse", _Refused)
        await server.drop_gateway()

        def backing_off() -> bool:
            tries = BACKOFF.findall(bot.log.read_text(errors="replace"))
            return any(float(s) >= 5 for s in tries)
        await until(backing_off, "a backoff of 5 s or more", timeout=120)
        assert bot.proc is not None
        began = time.monotonic()
        bot.proc.send_signal(signal.SIGTERM)
        status = await asyncio.to_thread(bot.proc.wait, 1100)
        took = time.monotonic() - began
    assert status == 0
    assert took < 3, f"{took:.1f} s after SIGTERM"
    log = bot.log.read_text(errors="replace")
    assert "Closed: every move is saved and the database closed." in log, log[-3000:]


async def test_a_turn_whose_time_runs_out_during_a_stop_is_not_forfeited(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Once stopping, a move is turned away ("restarting... try again"): its player's clock
    # must stand still from then on, as it did when the stop cancelled the timers at once,
    # and the next start gives the turn back its time (at least a minute).
    db = tmp_path / "umtali.sqlite3"
    # A move's lateness allowed (LATE, 3 s) and the clocks' tick (1 s) shorter here: the stop's
    # drain (6 s) still waits well past the deadline they give the turn. LATE is patched where
    # a turn's running out reads it (clock_state, time_out); the other readers of LATE judge
    # moves, and no move comes in this test's wait.
    late, tick = 0.5, 0.25
    monkeypatch.setattr(clock_state, "LATE", late)
    monkeypatch.setattr(time_out, "LATE", late)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        saved = await start_session(server, db, ada, ben, turn_timer=5)
        svc = bot.matches
        assert svc is not None
        live = svc.matches[saved.id]
        async with live.lock:
            deadline = time.time() + 0.2
            assert await svc.store.set_deadline(live.id, live.version, deadline)
            live.deadline = deadline
        bot._timers = asyncio.create_task(run_timers(bot, tick))  # as setup_hook starts them
        # A command under way (its answer held) holds the stop in its drain.
        server.delay("POST", CALLBACK)
        command = asyncio.create_task(server.slash(cy, server.channel_id, "umtali challenge",
                                                   {"opponent": Member(ada)}, timeout=60))
        await until(lambda: bot.in_flight.under_way or None, "the command under way")
        closing = asyncio.create_task(bot.close())
        await until(lambda: bot.in_flight.stopping or None, "the stop begun")
        # Past the deadline, its LATE and a tick, the drain (6 s) still waiting.
        await asyncio.sleep(0.2 + late + tick + 0.8)
        assert not closing.done()
        assert not live.over, "forfeited while the bot turned moves away"
        server.release()
        await closing
        command.cancel()
    row = query(db, "SELECT status FROM matches WHERE id = ?", saved.id)[0]
    assert row["status"] == "active", row
