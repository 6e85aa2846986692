"""review39: ``/umtali table`` looks whether the time-up question beside the table was deleted
(review38), after the table is posted and its move saved. Should forgetting the deleted
question fail (the database busy for a moment), the command was answered as failed: "The
database did not answer in time: try again in a moment", though the table it was asked for is
posted and saved, and trying again posts it once more. The question is asked again at a later
``/umtali table`` all the same. Over SimCord."""

from __future__ import annotations

import sqlite3

import pytest

from cogs.umtali.time_control import DAY
from tests.discord_helpers import World, flush
from tests.time_control_helpers import question_deleted


async def test_a_busy_database_as_the_deleted_question_is_forgotten_is_no_failed_command(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    # Deleted by a moderator (the bot hears nothing of it: no message intents).
    d = await question_deleted(world)
    svc, live, waiting, thread = d.svc, d.live, d.waiting, d.thread
    world.clock.advance(2 * DAY)
    leases = svc.owners.leases

    async def busy(*_: object, **__: object) -> bool:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(leases, "set_question", busy)
    old = live.table_message_id
    shown = await waiting.slash(thread, "umtali table")
    await flush(world)
    assert shown.acknowledged and not shown.ephemeral, shown.response.content
    said = " ".join(str(f.content) for f in shown.followups)
    assert "did not answer" not in said and "try again" not in said, said
    assert live.table_message_id not in (None, old)  # posted, and its move saved
    # Once the database answers again, the next /umtali table asks the question anew.
    monkeypatch.undo()
    again = await waiting.slash(thread, "umtali table")
    await flush(world)
    assert again.acknowledged and not again.followups
    assert live.question == ""
