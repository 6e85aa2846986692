"""By correspondence, the DM telling a player their turn has started is named by the turn
(``cogs.umtali.nonces``): told again after a crash, Discord gives the first one back; after
"keep waiting" the turn has time anew, and is told anew by a DM named by the deadline that
gave it (a new DM: it notifies), where the start's nonce would have Discord give that one
back. The time-up question is named by the turn and its version: asked again after a restart,
Discord gives the first one back. Over the loopback Discord, which enforces nonces."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.question import Question
from tests.loopback.driver import (
    custom_ids,
    play_out,
    query,
    read_match,
    start_session,
    until,
)
from tests.loopback.harness import bot_in_process, bot_process, loopback_server
from tests.test_faults_rest_hang import _in_play

TOLD = "Your turn in the Umtali match"


async def test_a_turn_given_time_anew_is_told_by_a_new_dm(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _in_play(monkeypatch, tmp_path, time_control="correspondence") as (
            server, _, _, svc, live):
        absent = live.session.to_act
        absent_id, waiting_id = live.player_ids[absent], live.player_ids[1 - absent]

        def told() -> list[str]:
            return [m["content"] for m in server.dm_messages(absent_id)
                    if m["content"].startswith(TOLD)]

        def waited() -> list[str]:
            return [m["content"] for m in server.dm_messages(absent_id)
                    if "keeps waiting for your move" in m["content"]]
        assert len(told()) == 1
        assert live.deadline is not None
        await svc.check_timers(now=live.deadline + LATE + 1)
        await svc.flush()
        question = next(m for m in server.channel_messages(live.channel_id)
                        if "time for this turn is up" in m["content"])
        kept = await server.click(waiting_id, question, next(
            c for c in custom_ids(question) if c.endswith(":wait")))
        assert kept.callback_type is not None
        await svc.flush()
        # The new DM replaces the turn's first (one stands at most: fix164).
        await until(lambda: len(told()) == 0 and len(waited()) == 1, "the turn told anew")
        assert not live.over and live.session.to_act == absent
        # Told as given by the waiting player, with the new end of the turn.
        assert f"<t:{int(live.deadline or 0)}:" in waited()[0], waited()



async def test_a_turn_told_before_a_crash_is_not_told_twice_after_the_restart(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The turn's DM went out, and the bot was killed before the turn's announcement was
    posted: brought back, the match delivers it all again, the turn's DM with it, under the
    same name (``nonces``), so Discord gives the first one back. Named by the deadline as
    told, it was a second DM: the turn, given back the time the bot was down, ends later."""
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob, time_control="correspondence")
        first = saved.session.to_act

        def told(seat: int) -> list[str]:
            return [m["content"] for m in server.dm_messages(saved.player_ids[seat])
                    if m["content"].startswith(TOLD)]
        await until(lambda: told(first), "the first turn told")
        # The next announcement in the channel never gets an answer: the bot dies waiting,
        # the turn's DM (sent before it) out. Played up to the first turn's end and no
        # further: a move after it would start a turn not told yet (its delivery waits).
        held = server.hold("POST", rf"^/channels/{saved.channel_id}/messages$")
        while (now := read_match(db, saved.id)) is not None and now.session.to_act == first:
            await play_out(server, db, saved.id, moves=1)
        await until(lambda: bool(held.held), "an announcement on its way")
        before = told(1 - first)
        assert len(before) == 1
        bot.kill()
        server.release()
        # Down a while: the turn is given that time back (its deadline moves on).
        await asyncio.sleep(1.5)
        await bot.start()

        def posted() -> bool:
            return [r["unsent"] for r in query(db, "SELECT unsent FROM matches WHERE id = ?",
                                               saved.id)] == ["[]"]
        # (the announcement goes after the hands, and the turn's DM with them)
        await until(posted, "the announcement posted after the restart")
        assert told(1 - first) == before


async def test_a_time_up_question_on_its_way_as_the_bot_stops_is_asked_once_it_is_back(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The question was posted, its answer never came, and the bot stopped: back, the clock
    stopped with nobody asked runs out anew and the question is asked again, under the same
    name (the turn and its version, not the deadline run out, which the restart moves on), so
    Discord gives the first one back: one question, the one saved."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db) as bot:
            saved = await start_session(server, db, server.add_member("ada"),
                                        server.add_member("ben"),
                                        time_control="correspondence")
            svc = bot.matches
            assert svc is not None
            await svc.flush()
            live = svc.matches[saved.id]
            assert live.deadline is not None
            ran_out = live.deadline + LATE + 1
            lost = server.lose_answer("POST", rf"^/channels/{live.channel_id}/messages$")
            await svc.check_timers(now=ran_out)
            await until(lambda: lost.held, "the question on its way")
        server.release()
        async with bot_in_process(server, db) as bot:
            svc = bot.matches
            assert svc is not None
            live = svc.matches[saved.id]
            assert not live.question and live.deadline is None
            for later in (1, 2):
                await svc.check_timers(now=ran_out + later)
                await svc.beside.idle()
            await svc.flush()
            asked = [m for m in server.channel_messages(live.channel_id)
                     if "time for this turn is up" in m["content"]]
            assert len(asked) == 1, [m["content"] for m in asked]
            question = Question.loads(live.question)
            assert question is not None and str(question.message_id) == asked[0]["id"]
