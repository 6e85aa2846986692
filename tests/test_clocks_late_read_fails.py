"""A move made after its turn's deadline as the copy has it is judged on the clock as saved
first (``Playing._clock_moved``: time given back by the holder since the copy was read). That
read failing (the database busy or out of reach) failed the move with the database's error:
the member was told to try again, that their move might have been saved, and a WARNING said
the database failed. It is judged as the copy has it: refused as made after the deadline,
nothing saved, and the clock forfeits the turn as usual."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest

from cogs.umtali.clock_state import LATE
from cogs.umtali.errors import BUSY
from tests.discord_helpers import World, custom_ids, dm_panel, flush, player, start_match
from tests.test_clocks_late_moves import REFUSED


async def test_a_late_move_whose_clock_as_saved_cannot_be_read_is_judged_as_the_copy_has_it(
        world: World, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, turn_timer=60)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    panel = dm_panel(actor, live, seat)
    move = next(c for c in custom_ids(panel) if c.startswith(f"umtali:m:{live.id}:{version}:lay:"))
    world.clock.now = live.deadline + LATE + 1
    real, failed = svc.store.match, list[bool]()

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(True)
            raise sqlite3.OperationalError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(svc.store, "match", failing)
    caplog.set_level(logging.INFO)
    answer = await actor.user.click(panel, custom_id=move)
    await flush(world)
    assert failed, "the clock as saved was not read"
    text = answer.response.content if answer.response is not None else ""
    assert BUSY[:30] not in text, "the move failed with the database's error"
    assert answer.ephemeral and REFUSED in text, text
    assert live.version == version
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING
                and r.name.startswith(("cogs", "bot"))]
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.over, "the turn run out was not forfeited"
