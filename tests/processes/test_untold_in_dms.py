"""A match played in DMs (its channel lost) whose save went through unheard, or as the bot was
cut off from its database, on SQLite and PostgreSQL: the player to act is told their turn by a
new DM panel all the same (it notifies; an edit does not), once the save is known, "keep
waiting" (its new time) as a turn's end (the next player's turn); and both players are told
that the channel was lost, that loss saved as the bot was cut off from its database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from bot import UmtaliBot
from cogs.umtali.outbox import Batch
from data.db import Database, Tx
from tests.discord_helpers import World, dm_panel, flush, player, start_match
from tests.test_channel_lost_told import told_lost
from tests.test_faults_channel import _lose_thread
from tests.test_faults_timers import to_turn_end
from tests.time_control_helpers import (
    button,
    dm_ids,
    played_in_dms,
    restarted_telling,
    time_up_in_dms,
)
from tests.unheard import _Watched, lose_answer, lost
from umtali.players import GreedyPlayer


def _database_lost_after(monkeypatch: pytest.MonkeyPatch, db: Database,
                         wrote: Callable[[str], bool]) -> None:
    """Once a transaction of ``db`` with a statement ``wrote`` picks out has committed, every
    later one fails as it begins (the process cut off from its database, until a restart)."""
    real = db._begin
    gone: list[bool] = []

    @asynccontextmanager
    async def begin() -> AsyncIterator[Tx]:
        if gone:
            raise lost(db)
        said: list[str] = []
        async with real() as tx:
            yield _Watched(tx, said)
        if any(wrote(sql) for sql in said):
            gone.append(True)

    monkeypatch.setattr(db, "_begin", begin)


async def test_keep_waiting_saved_as_the_bot_stops_is_told_once_it_is_back(
        world: World, make_bot: Callable[[], UmtaliBot], monkeypatch: pytest.MonkeyPatch) -> None:
    """Played in DMs, "keep waiting" saved, and nothing more (the bot cut off from its
    database, then stopped): brought back, the absent player is told the new time by a new
    panel. The turn to tell anew saved apart from the answer, after it, was never saved."""
    live, absent, question = await time_up_in_dms(world)
    svc = world.bot.matches
    assert svc is not None
    before = dm_ids(world, absent)
    await svc.delivery.close()  # the panel never sent
    _database_lost_after(monkeypatch, svc.store.db, lambda sql: "SET deadline = ?" in sql
                         and "lease_until = ?" in sql)
    kept = await player(world, 1 - absent).user.click(question,
                                                      custom_id=button(question, "wait"))
    assert kept.acknowledged
    assert dm_ids(world, absent) == before
    restored = await restarted_telling(world, make_bot, live, absent, before)
    assert restored.deadline is not None  # kept waiting: its clock runs


async def test_keep_waiting_saved_unheard_and_unread_is_told_after_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played in DMs, "keep waiting" saved, its answer lost and the read back failing too (the
    player told it may have been saved): the next check finds it saved, and the absent player
    is told the new time by a new panel, as after a restart."""
    live, absent, question = await time_up_in_dms(world)
    svc = world.bot.matches
    assert svc is not None
    before = dm_ids(world, absent)
    # (the answer's save: the first of the deadline's from now on)
    lost = lose_answer(monkeypatch, svc.store.db, "SET deadline = ?, warned = 0", reads_fail=1)
    await player(world, 1 - absent).user.click(question, custom_id=button(question, "wait"))
    await flush(world)
    assert lost.answers == 1 and lost.reads == 1
    assert live.deadline is None and dm_ids(world, absent) == before  # not known to be saved
    await svc.check_timers(now=world.clock.now + 1)
    await flush(world)
    assert live.deadline is not None  # read back: kept waiting
    new = [i for i in dm_ids(world, absent) if i not in before]
    assert new == [live.dm_message_ids[absent]], "no new panel: the new time never told"


async def test_a_turn_saved_unheard_and_unread_is_told_after_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played in DMs, a turn's last move saved, its answer lost and the read back failing too:
    the next check finds it played, and the next player is told their turn by a new panel."""
    live = await played_in_dms(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    await to_turn_end(world, live)
    version = live.version
    before = dm_ids(world, 1 - seat)
    lost = lose_answer(monkeypatch, svc.store.db, "INSERT INTO moves", reads_fail=1)
    move = GreedyPlayer().choose(live.session.view(seat))
    await player(world, seat).user.select(
        dm_panel(player(world, seat), live, seat), [str(move)],
        custom_id=f"umtali:m:{live.id}:{version}:discard")
    await flush(world)
    assert lost.answers == 1 and lost.reads == 1
    assert live.version == version and dm_ids(world, 1 - seat) == before  # not known to be saved
    await svc.check_timers(now=world.clock.now + 1)
    await flush(world)
    assert live.version == version + 1 and live.session.to_act == 1 - seat
    new = [i for i in dm_ids(world, 1 - seat) if i not in before]
    assert new == [live.dm_message_ids[1 - seat]], "no new panel: the turn never told"


async def test_a_lost_channel_saved_as_the_bot_is_cut_off_is_told_to_both_once_it_is_back(
        world: World, make_bot: Callable[[], UmtaliBot], monkeypatch: pytest.MonkeyPatch) -> None:
    """The channel's loss saved, and nothing more (the bot cut off from its database, so no
    notice could go out, then stopped): brought back, both players are told where the match
    went, once."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    before = {seat: dm_ids(world, seat) for seat in (0, 1)}
    _database_lost_after(monkeypatch, svc.store.db, lambda sql: "channel_lost = 1" in sql)
    _lose_thread(world, live)
    svc.delivery.enqueue(live, Batch(table=True))
    await flush(world)
    assert live.channel_lost
    assert {seat: dm_ids(world, seat) for seat in (0, 1)} == before
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    for seat in (0, 1):
        assert told_lost(world, seat, before[seat]), f"seat {seat} never told"
    now = {seat: dm_ids(world, seat) for seat in (0, 1)}
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    assert {seat: dm_ids(world, seat) for seat in (0, 1)} == now
