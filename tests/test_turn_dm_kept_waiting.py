"""By correspondence, the DM telling a player their turn has started, and the time-up
question, name the turn's time (``cogs.umtali.nonces``): after "keep waiting" the turn has time
anew, and is told anew (a new DM: it notifies) and asked about anew (a new question, with its
buttons), where the first one's nonce would have Discord give that one back. Over the loopback
Discord, which enforces nonces, the bot in this process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.clock_state import LATE
from tests.loopback.driver import custom_ids, until
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
        await until(lambda: len(told()) == 1 and len(waited()) == 1, "the turn told anew")
        assert not live.over and live.session.to_act == absent
        # Told as given by the waiting player, with the new end of the turn.
        assert f"<t:{int(live.deadline or 0)}:" in waited()[0], waited()


async def test_a_turn_run_out_again_after_keep_waiting_is_asked_about_by_a_new_question(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The second time-up question of one turn is a message of its own, with its buttons: the
    first one's nonce would have Discord give back the first question, answered already."""
    async with _in_play(monkeypatch, tmp_path, time_control="correspondence") as (
            server, _, _, svc, live):
        absent = live.session.to_act
        waiting_id = live.player_ids[1 - absent]

        def asked() -> list[dict[str, Any]]:
            return [m for m in server.channel_messages(live.channel_id)
                    if "time for this turn is up" in m["content"]]
        for _ in range(2):
            assert live.deadline is not None
            await svc.check_timers(now=live.deadline + LATE + 1)
            await svc.flush()
            question = asked()[-1]
            kept = await server.click(waiting_id, question, next(
                c for c in custom_ids(question) if c.endswith(":wait")))
            assert kept.callback_type is not None
            await svc.flush()
        assert len(asked()) == 2
        assert not live.over and live.session.to_act == absent and live.deadline is not None
