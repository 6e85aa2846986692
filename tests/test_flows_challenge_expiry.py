"""Expired challenges' messages are edited beside the timer tick, not in it: many expiring at
once, with Discord slow to answer the edits, the tick goes on checking every match's turn
timer; the edits finish once Discord answers, and are cancelled cleanly on shutdown. On the
loopback Discord, in real time."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.startup import run_timers
from tests.loopback.driver import custom_ids, query, until, write
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member

#: Seconds between the timer loop's ticks in these tests (a second in the bot).
EVERY = 0.02


async def _challenges(server: LoopbackDiscord, db: Path, pairs: int) -> list[dict[str, Any]]:
    """``pairs`` open challenges (a challenger each: the limits are per member), then all
    made due, as if their ten minutes had passed."""
    posted = []
    for i in range(pairs):
        one, other = server.add_member(f"a{i}"), server.add_member(f"b{i}")
        answer = await server.slash(one, server.channel_id, "umtali challenge",
                                    {"opponent": Member(other)})
        assert answer.response is not None and not answer.ephemeral, answer.text()
        posted.append(answer.response)
    await until(lambda: len(query(db, "SELECT id FROM challenges WHERE message_id IS NOT NULL"))
                == pairs or None, "the challenges' messages saved")
    await write(db, "UPDATE challenges SET expires_at = 0")
    return posted


def _expired(server: LoopbackDiscord, message: dict[str, Any]) -> bool:
    now = server.messages[int(message["id"])]
    return "expired" in str(now["embeds"][0]["description"]) and not custom_ids(now)


async def test_slow_expiry_edits_do_not_hold_up_the_turn_timers(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        posted = await _challenges(server, db, 3)
        svc = bot.matches
        assert svc is not None
        checks = 0
        check_timers = svc.check_timers

        async def counted(now: float | None = None) -> None:
            nonlocal checks
            checks += 1
            await check_timers(now)

        monkeypatch.setattr(svc, "check_timers", counted)
        # Discord answers no edit of a message until released.
        server.delay("PATCH", r"/channels/\d+/messages/\d+", times=len(posted))
        timers = asyncio.create_task(run_timers(bot, every=EVERY))
        try:
            await until(lambda: [r["status"] for r in query(db, "SELECT status FROM "
                                                                "challenges")]
                        == ["expired"] * len(posted) or None, "the challenges closed")
            seen = checks
            # The ticks go on while the edits wait (before: stuck in the first edit).
            await until(lambda: checks >= seen + 20 or None, "the timers checked on", 5.0)
            assert not any(_expired(server, m) for m in posted)
            server.release()
            for message in posted:
                await until(lambda m=message: _expired(server, m) or None,  # type: ignore[misc]
                            "the message edited")
        finally:
            timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timers


def _edits_pending() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks()
            if t.get_name().startswith("umtali-challenge-expiry-") and not t.done()]


async def test_expiry_edits_still_waiting_are_cancelled_on_shutdown(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        posted = await _challenges(server, db, 2)
        server.hold("PATCH", r"/channels/\d+/messages/\d+", times=len(posted))
        timers = asyncio.create_task(run_timers(bot, every=EVERY))
        await until(lambda: len(_edits_pending()) == len(posted) or None, "the edits waiting")
        # The bot stops (Bot.close cancels the timer loop): the edits go with it.
        timers.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(timers, 2.0)
        assert timers.done() and not _edits_pending()
        server.release()
