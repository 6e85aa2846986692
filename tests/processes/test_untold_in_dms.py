"""A match played in DMs (its channel lost) whose save went through as the bot was cut off from
its database, on SQLite and PostgreSQL: the player to act is told by a new DM panel all the
same (it notifies; an edit does not), once the save is known: "keep waiting" (its new time)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from bot import UmtaliBot
from cogs.umtali.clock_state import LATE
from data.db import Database, Tx
from tests.discord_helpers import World, flush, player
from tests.test_dm_turn_ping import _ids
from tests.time_control_helpers import button, played_in_dms
from tests.unheard import _Watched, lost


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
    live = await played_in_dms(world, time_control="correspondence")
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    absent, ran_out = live.session.to_act, live.deadline
    await svc.check_timers(now=ran_out + LATE + 1)
    await flush(world)
    question = next(m for m in reversed(player(world, 1 - absent).user.dm_channel.history())
                    if "time for this turn is up" in m.content)
    before = _ids(world, absent)
    await svc.delivery.close()  # the panel never sent
    _database_lost_after(monkeypatch, svc.store.db, lambda sql: "SET deadline = ?" in sql
                         and "lease_until = ?" in sql)
    kept = await player(world, 1 - absent).user.click(question,
                                                      custom_id=button(question, "wait"))
    assert kept.acknowledged
    assert _ids(world, absent) == before
    again = make_bot()
    await world.env.restart_bot(again)
    assert again.matches is not None
    await flush(world)
    restored = again.matches.matches[live.id]
    assert restored.deadline is not None  # kept waiting: its clock runs
    new = [i for i in _ids(world, absent) if i not in before]
    assert new == [restored.dm_message_ids[absent]], "no new panel: the new time never told"

