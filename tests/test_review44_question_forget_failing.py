"""review44: the deleted time-up question forgotten by ``/umtali table``
(``time_out.ask_again_if_deleted``) while the database fails for a while: the forget's save
fails, and so does its read back (5ad67bf settles a lost answer so). The table is posted and
saved: the command did what it was asked, and the failure is logged, the next ``/umtali
table`` looking again, as before 5ad67bf. The read failing made it ``InDoubt``, which is not
"the database failing for now": it was raised, and the player who asked for the table was told
that something "may or may not have been saved". Over SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.discord_helpers import World, flush
from tests.time_control_helpers import question_deleted, table_again_asks_anew


async def test_a_deleted_question_not_forgotten_for_now_leaves_the_table_command_done(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    d = await question_deleted(world)
    svc, waiting, thread = d.svc, d.waiting, d.thread

    read = svc.store.match
    out: list[bool] = []

    async def failing(*args: Any, **kwargs: Any) -> Any:
        out.append(True)
        raise sqlite3.OperationalError("database is locked")

    async def reading(*args: Any, **kwargs: Any) -> Any:
        if out:
            raise sqlite3.OperationalError("database is locked")
        return await read(*args, **kwargs)

    # The database out of reach from the forget on: for it and for its read back alike.
    monkeypatch.setattr(svc.owners.leases, "set_question", failing)
    monkeypatch.setattr(svc.store, "match", reading)
    shown = await waiting.slash(thread, "umtali table")
    await flush(world)
    monkeypatch.undo()
    assert shown.acknowledged and not shown.ephemeral, shown.response.content
    assert out, "the deleted question was not forgotten"
    said = [m.content for m in (*thread.history(), *shown.followups)]
    assert not any("may or may not have been saved" in s for s in said), said


async def test_a_deleted_question_forgotten_unheard_and_unread_is_asked_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forget committed, its answer lost, and its read back failing too: memory kept the
    question, saved as forgotten. The next ``/umtali table``'s forget found it saved no more
    (``set_question``'s ``was``) and left memory so for good: no check asks a question that
    stands, and the waiting player had no button to claim the session with."""
    d = await question_deleted(world)
    svc, waiting, thread = d.svc, d.waiting, d.thread
    leases = svc.owners.leases
    saved, read = leases.set_question, svc.store.match
    out: list[bool] = []

    async def unheard(*args: Any, **kwargs: Any) -> bool:
        await saved(*args, **kwargs)
        out.append(True)
        raise sqlite3.OperationalError("disk I/O error")  # committed, its answer lost

    async def reading(*args: Any, **kwargs: Any) -> Any:
        if out:
            raise sqlite3.OperationalError("database is locked")
        return await read(*args, **kwargs)

    monkeypatch.setattr(leases, "set_question", unheard)
    monkeypatch.setattr(svc.store, "match", reading)
    shown = await waiting.slash(thread, "umtali table")
    await flush(world)
    monkeypatch.undo()
    assert out and shown.acknowledged and not shown.ephemeral
    # The database back: the waiting player tries /umtali table once more.
    await table_again_asks_anew(world, d)
