"""A move is judged by when it was made, not when it reached the bot (``cogs/umtali/clock.py``,
``made_in_time``): Discord stamps each interaction with its making (the snowflake's time). One
made after the turn's deadline that arrives before the clock acts on it is refused (a short
private answer, nothing changed) and the clock forfeits the turn as usual (``LATE`` after the
deadline: ``tests/test_clocks_late_arrival.py``); one made before it that arrives a little
after (network lag) is played, its reserve spent up to its making. The deadline is the one
the clock judges by: time owed to the turn, an outage under way.

On the loopback Discord, in real time: its snowflakes are made from the same clock as the bot's,
and a test stamps a click with the moment it chooses (``_stamped``). (SimCord stamps by a clock
of its own, months before the bot's: a move there is judged as if made in time.)"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock import gateway_back
from cogs.umtali.clock_state import LATE, Outage
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, play_out, start_match
from tests.loopback import payloads as p
from tests.loopback.driver import query, read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Interaction, LoopbackDiscord
from tests.test_clocks_connect import restarted_slowly
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

REFUSED = "Your time ran out"


@dataclass
class Table:
    server: LoopbackDiscord
    db: Path
    svc: MatchService
    live: LiveMatch


@asynccontextmanager
async def _table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                 **options: Any) -> AsyncIterator[Table]:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben, **options)
        assert bot.matches is not None
        yield Table(server, db, bot.matches, bot.matches.matches[saved.id])


async def _set_deadline(table: Table, deadline: float) -> None:
    live = table.live
    async with live.lock:
        assert await table.svc.store.set_deadline(live.id, live.version, deadline)
        live.deadline = deadline


def _stamped(server: LoopbackDiscord, at: float) -> None:
    """The next interaction's id says it was made at ``at`` (Unix time), as Discord's would:
    the snowflake's top bits are its milliseconds since Discord's epoch."""
    real = server.snowflake

    def once() -> int:
        server.snowflake = real
        return ((int(at * 1000) - p.EPOCH_MS) << 22) | (real() & 0x3FFFFF)

    server.snowflake = once  # type: ignore[assignment]


async def _play(table: Table, made: float | None = None) -> Interaction:
    """The seat to act plays its greedy move with ``/umtali play`` (made at ``made``)."""
    live = table.live
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    if made is not None:
        _stamped(table.server, made)
    return await table.server.slash(live.player_ids[seat], live.channel_id, "umtali play",
                                    {"move": str(move)})


def _saved_version(table: Table) -> int:
    saved = read_match(table.db, table.live.id)
    assert saved is not None
    return saved.version


async def _refused(table: Table, answer: Interaction, version: int) -> None:
    """Refused privately, nothing changed; the clock forfeits the turn once a move made in
    time can no longer be on its way (``LATE`` after its deadline, which has passed)."""
    assert answer.ephemeral and REFUSED in answer.text(), answer.text()
    live = table.live
    assert live.version == version == _saved_version(table) and not live.over
    seat = live.session.to_act
    await table.svc.check_timers(now=time.time() + LATE)
    assert live.over and live.session.how == "timed out" and live.session.winner == 1 - seat
    row = query(table.db, "SELECT status FROM matches WHERE id = ?", live.id)[0]
    assert row["status"] != "active"


async def test_a_move_made_after_the_deadline_is_refused_before_the_check(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _table(monkeypatch, tmp_path, turn_timer=30) as table:
        version = table.live.version
        # The deadline passed a moment ago; the clock has not checked since.
        await _set_deadline(table, time.time() - 0.2)
        answer = await _play(table)
        await _refused(table, answer, version)


async def test_a_move_made_in_time_that_arrives_late_is_played(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Blitz: made 0.3 s before the deadline, arriving 0.2 s after it (and up to ``LATE``);
    the reserve keeps the 0.3 s it had left when the move was made."""
    async with _table(monkeypatch, tmp_path, time_control="blitz") as table:
        live, seat = table.live, table.live.session.to_act
        # Up to the discard that ends the turn, played in time.
        while GreedyPlayer().choose(live.session.view(seat)).kind is not MoveKind.DISCARD:
            await _play(table)
        version = live.version
        deadline = time.time() - 0.2
        await _set_deadline(table, deadline)
        answer = await _play(table, made=deadline - 0.3)
        assert answer.ephemeral and REFUSED not in answer.text(), answer.text()
        assert live.version == version + 1 == _saved_version(table) and not live.over
        assert live.session.to_act == 1 - seat
        assert live.reserves[seat] == pytest.approx(0.3, abs=0.01)
        row = query(table.db, f"SELECT reserve{seat} AS r FROM matches WHERE id = ?", live.id)
        assert row[0]["r"] == pytest.approx(0.3, abs=0.01)
        await table.svc.check_timers()
        assert not live.over


async def test_a_move_stamped_in_time_but_arriving_long_after_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Discord fails an interaction not answered within 3 s: a move arriving more than
    ``LATE`` after the deadline was not made in time as the bot's clock tells (the stamp of a
    clock that disagrees with the bot's is not trusted that far)."""
    async with _table(monkeypatch, tmp_path, turn_timer=30) as table:
        version = table.live.version
        deadline = time.time() - LATE - 1
        await _set_deadline(table, deadline)
        answer = await _play(table, made=deadline - 0.5)
        await _refused(table, answer, version)


async def test_a_move_arriving_in_time_is_played_whatever_its_stamp(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Discord's clock ahead of the bot's: a move that arrives before the deadline is in
    time, even stamped after it."""
    async with _table(monkeypatch, tmp_path, turn_timer=30) as table:
        version = table.live.version
        deadline = time.time() + 20
        await _set_deadline(table, deadline)
        answer = await _play(table, made=deadline + 5)
        assert REFUSED not in answer.text() and _saved_version(table) == version + 1


@pytest.mark.parametrize("late", [False, True], ids=["in time", "late"])
@pytest.mark.parametrize("how", ["outage under way", "time owed"])
async def test_the_deadline_judged_is_the_clocks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str, late: bool) -> None:
    """While the gateway is down (a shard's: this guild's is still connected) the clocks
    stand still; after it, time whose save failed is owed to the turn. A move made past the
    saved deadline is in time if the clock's deadline is still to come, and is refused if
    that has passed too."""
    async with _table(monkeypatch, tmp_path, turn_timer=30) as table:
        svc, live = table.svc, table.live
        version = live.version
        now = time.time()
        # The connection dropped 10 s ago: with 5 s of the turn left, or 5 s after its end.
        deadline = now - 15 if late else now - 5
        await _set_deadline(table, deadline)
        if how == "outage under way":
            svc.clock_state.outage = outage = Outage(now - 10, {None})
            outage.note([live], now - 10)
        else:
            svc.clock_state.owed[live.id] = (deadline, 10.0)  # its save failed
        answer = await _play(table)
        if not late:
            assert REFUSED not in answer.text(), answer.text()
            assert live.version == version + 1 == _saved_version(table)
            await svc.check_timers()
            assert not live.over
            return
        if how == "outage under way":
            assert answer.ephemeral and REFUSED in answer.text(), answer.text()
            await gateway_back(svc, None)
            # Given the outage back all the same, the turn has 5 s less than nothing.
        await _refused(table, answer, version)


async def test_a_move_before_the_first_check_after_a_slow_start_is_in_time(
        world: World, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The time spent connecting after a start is given back at the first check: a move made
    before it, past the deadline as brought back, is in time (SimCord, virtual time)."""
    live = await start_match(world, turn_timer=5)
    # 100 s of the turn left; connected 150 s after the match was brought back.
    svc, restored = await restarted_slowly(world, make_bot, monkeypatch, live, 100, 3600)
    assert restored.deadline is not None and world.clock.now > restored.deadline
    version = restored.version
    await play_out(world, restored, moves=1)
    assert restored.version == version + 1 and not restored.over
    await svc.check_timers()
    assert not restored.over
