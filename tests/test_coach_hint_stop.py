"""A stop (SIGTERM, ``docker stop``) does not wait for a hint still being worked out: the
search is the coach's, not a move to save, so the hint is given up at once and its player told
the bot is restarting (the interaction can still be answered then), quietly, and the stop's
drain has no hint to wait for. An unload of the extension gives its coach's hints up too."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from cogs.umtali.coach import coach_of
from tests.held_work import until_released
from tests.loopback.driver import custom_ids, read_match, start_practice, until
from tests.loopback.harness import bot_in_process, loopback_server


@pytest.mark.parametrize("how", ["stop", "unload"])
async def test_a_stop_gives_up_a_hint_under_way_and_says_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, how: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    caplog.set_level(logging.INFO)
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        saved = await start_practice(server, db, ada)
        seat = saved.player_ids.index(ada)
        await until(lambda: (m := read_match(db, saved.id)) and m.session.to_act == seat,
                    "ada's turn")
        hint_id = f"umtali:m:{saved.id}:hint"
        panel = await until(lambda: next((m for m in reversed(server.dm_messages(ada))
                                          if hint_id in custom_ids(m)), None), "ada's panel")
        svc = bot.matches
        assert svc is not None
        thinking = svc.computers.thinking
        # Every worker busy (other matches' searches, a review) till the test releases them:
        # the hint waits its turn in the pool.
        release = tmp_path / "release"
        busy = [asyncio.ensure_future(thinking.run(until_released, str(release)))
                for _ in range(thinking.workers)]
        await until(lambda: thinking._pool is not None and len(thinking._pool.taken) ==
                    thinking.workers and all(t.done() for t in thinking._pool.taken.values()),
                    "every worker busy")
        clicked = await server.click(ada, panel, hint_id, timeout=30)
        assert clicked.callback_type == 5  # deferred: the hint is being worked out
        coach = coach_of(bot)
        await until(lambda: coach._hints, "the hint under way")
        # The bot stopping; or the extension unloaded (a reload's first half), the bot running on.
        closing = asyncio.create_task(
            bot.close() if how == "stop" else bot.unload_extension("cogs.umtali"))
        try:
            # Answered while the workers are still busy: the hint's search is not waited for.
            said = await until(lambda: (clicked.response or {}).get("content"),
                               "the hint's answer while the workers are busy", timeout=10)
            held = [b.done() for b in busy]
        finally:
            release.touch()
        await closing
        await asyncio.gather(*busy, return_exceptions=True)
    assert "Hint:" not in said and "restarting" in said, said
    assert not any(held), "the hint was answered only once the workers were free"
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not loud, [r.getMessage() for r in loud]
