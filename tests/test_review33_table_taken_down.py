"""A match's table posted and its id saved, the database's answer lost (the COMMIT went
through), and cancelling failing too (the database still down): the bot took the opening and
the table down and told the accepting member to look again. At the first deadline the timer
found the table's id saved, took it for a table posted late, and played the match on from it:
the player to act then lost the session on time, rated, in a match whose table was gone."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from cogs.umtali.clock_state import LATE
from cogs.umtali.timing import NEVER_SHOWN
from tests.discord_helpers import World, flush
from tests.test_faults_opening import (
    _accept,
    _cancelled_cleanly,
    _db,
    _told_to_look_again,
)
from umtali.i18n import EN


async def test_a_table_taken_down_is_not_played_from_though_its_id_was_saved(
        world: World, db_path: Path, monkeypatch: Any) -> None:
    svc = world.bot.matches
    assert svc is not None
    save, abandon = svc.store.set_table_message, svc.store.abandon_match
    calls: list[str] = []

    async def saved_unheard(match_id: int, message_id: int) -> None:
        await save(match_id, message_id)
        raise sqlite3.OperationalError("disk I/O error")  # after the COMMIT: answer lost

    async def fails_once(match_id: int, how: str, now: float | None = None,
                         **holder: Any) -> list[str] | None:
        calls.append(how)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return await abandon(match_id, how, now, **holder)

    monkeypatch.setattr(svc.store, "set_table_message", saved_unheard)
    monkeypatch.setattr(svc.store, "abandon_match", fails_once)
    _, answer = await _accept(world, turn_timer=60)
    await flush(world)
    assert _told_to_look_again(answer)
    live = svc.matches[1]
    table_id = _db(db_path, "SELECT table_message_id FROM matches")[0][0]
    assert table_id is not None  # saved, though the bot was told it failed
    shown = [m for c in (world.channel, *world.channel.threads) for m in c.history()]
    # The opening and the table were taken down: nobody was shown the match.
    assert table_id not in [m.id for m in shown]
    assert live.deadline is not None
    for at in (live.deadline + LATE + 1, live.deadline + 2 * LATE + 2,
               live.deadline + 60 + 3 * LATE):
        await svc.check_timers(now=at)
        await flush(world)
    said = [str(m.content) for c in (world.channel, *world.channel.threads)
            for m in c.history()]
    # Nobody loses on time a session they were never shown, and nothing is recorded.
    assert not [t for t in said if "timed out" in t]
    _cancelled_cleanly(db_path)
    mentions = f"<@{world.alice.user.id}> <@{world.bob.user.id}>"
    assert EN(NEVER_SHOWN, mentions=mentions) in said
