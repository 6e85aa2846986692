"""The clock acts on a deadline only once a move made before it can no longer be on its way
(``cogs/umtali/clock_state.py``, ``LATE``): a move made in time is played if it reaches the bot
up to ``LATE`` seconds after the deadline, so a timer check meanwhile neither forfeits the turn,
nor asks the waiting player by correspondence, nor says that the reserve runs.

The race: the player clicks a moment before the deadline, the timer check (every second) lands
a moment after it, and the click reaches the bot after the check. On the loopback Discord, in
real time, each click stamped with the moment it was made (``_stamped``, as in
``tests/test_clocks_late_moves.py``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cogs.umtali.clock_state import LATE
from tests.loopback.driver import query
from tests.test_clocks_late_moves import REFUSED, _saved_version, _set_deadline, _stamped, _table
from umtali.players import GreedyPlayer


@pytest.mark.parametrize("control", [{"turn_timer": 30}, {"time_control": "blitz"}],
                         ids=["turn timer", "blitz"])
async def test_a_check_before_a_move_made_in_time_arrives_does_not_forfeit(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, control: dict[str, object]) -> None:
    async with _table(monkeypatch, tmp_path, **control) as table:
        svc, live = table.svc, table.live
        version, seat = live.version, live.session.to_act
        # The deadline passed 0.2 s ago; the move, made 0.3 s before it, is still on its way
        # when the clock checks.
        deadline = time.time() - 0.2
        await _set_deadline(table, deadline)
        move = GreedyPlayer().choose(live.session.view(seat))
        await svc.check_timers()
        _stamped(table.server, deadline - 0.3)
        answer = await table.server.slash(live.player_ids[seat], live.channel_id,
                                          "umtali play", {"move": str(move)})
        assert REFUSED not in answer.text() and "not playing" not in answer.text(), \
            answer.text()
        assert live.version == version + 1 == _saved_version(table) and not live.over
        row = query(table.db, "SELECT status FROM matches WHERE id = ?", live.id)[0]
        assert row["status"] == "active"
        if live.session.to_act == seat and live.deadline == deadline:
            # The turn goes on (a draw): its time is up once a move made in time can no
            # longer be arriving.
            await svc.check_timers(now=deadline + LATE)
            assert live.over and live.session.how == "timed out"
            assert live.session.winner == 1 - seat


async def test_the_turn_is_forfeited_once_a_move_made_in_time_cannot_be_arriving(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _table(monkeypatch, tmp_path, turn_timer=30) as table:
        svc, live = table.svc, table.live
        seat = live.session.to_act
        deadline = time.time() + 60  # the checks below are told the time
        await _set_deadline(table, deadline)
        await svc.check_timers(now=deadline + LATE - 0.01)
        assert not live.over
        await svc.check_timers(now=deadline + LATE)
        assert live.over and live.session.how == "timed out"
        assert live.session.winner == 1 - seat
        row = query(table.db, "SELECT status, how FROM matches WHERE id = ?", live.id)[0]
        assert row["status"] != "active" and row["how"] == "timed out"


async def test_by_correspondence_the_waiting_player_is_asked_only_after_the_late_window(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The question would be void at once if a move made in time was still arriving."""
    async with _table(monkeypatch, tmp_path, time_control="correspondence") as table:
        svc, live = table.svc, table.live
        deadline = time.time() + 3600
        await _set_deadline(table, deadline)
        await svc.check_timers(now=deadline + LATE - 0.01)
        assert live.deadline == deadline and not live.question
        await svc.check_timers(now=deadline + LATE)
        await svc.flush()  # (asked beside the tick)
        assert live.deadline is None and not live.over and live.question


async def test_the_reserve_is_said_to_run_only_after_the_late_window(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Blitz: a move made in the turn's own time may still be arriving for ``LATE`` seconds
    after it ends; the table says the reserve runs once it cannot be."""
    async with _table(monkeypatch, tmp_path, time_control="blitz") as table:
        svc, live = table.svc, table.live
        reserve = live.reserves[live.session.to_act]
        own_end = time.time() + 60
        deadline = own_end + reserve
        await _set_deadline(table, deadline)
        await svc.check_timers(now=own_end + LATE - 0.01)
        assert live.reserve_running != deadline
        await svc.check_timers(now=own_end + LATE)
        assert live.reserve_running == deadline and not live.over
