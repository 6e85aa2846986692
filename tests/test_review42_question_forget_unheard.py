"""Review 42: the deleted time-up question forgotten by ``/umtali table``
(``time_out.ask_again_if_deleted``), the database's answer lost after its COMMIT (a
connection cut then): the question is forgotten as saved, still kept here. No check asks it
(it stands, as this process has it), and the next ``/umtali table`` forgets it again only if
it is still saved (``set_question``'s ``was``): it is not, so nothing is ever asked, and the
waiting player has no button to claim the session with while this process runs. Over
SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.discord_helpers import World, flush
from tests.time_control_helpers import question_deleted, table_again_asks_anew


async def test_a_deleted_question_forgotten_unheard_is_asked_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    # Deleted by a moderator (the bot hears nothing of it: no message intents).
    d = await question_deleted(world)
    svc, waiting, thread = d.svc, d.waiting, d.thread
    leases = svc.owners.leases
    saved = leases.set_question

    async def unheard(*args: Any, **kwargs: Any) -> bool:
        await saved(*args, **kwargs)
        raise sqlite3.OperationalError("disk I/O error")  # committed, its answer lost

    monkeypatch.setattr(leases, "set_question", unheard)
    shown = await waiting.slash(thread, "umtali table")
    await flush(world)
    assert shown.acknowledged and not shown.ephemeral, shown.response.content
    monkeypatch.undo()
    for _ in range(2):
        world.clock.advance(1)
        await svc.check_timers(now=world.clock.now)
        await flush(world)
    # The waiting player tries /umtali table once more, as the bot's answer to review38 says.
    await table_again_asks_anew(world, d)
