"""fix169: the challenge message's end line, owed with the match's end (fix161), cost every
session's end a write of its own once told (``resend`` cleared in a transaction of its own),
beside a read and a write in the end's save. Told with the final table, before the
announcements, it is now paid in the write that clears the posted announcements, and owed in
the end's save by one write: a session's end commits its save and its posts, nothing more. A
failure for now still clears it by a write of its own (tests/test_fix161_end_line_owed.py).
The statements counted on a real SQLite file."""

from __future__ import annotations

from tests.discord_helpers import World, flush, start_match
from tests.test_records_discord import resign

WRITES = ("INSERT", "UPDATE", "DELETE")


async def _end_traced(world: World) -> list[list[str]]:
    """ada resigns: the statements run until all is sent, by transaction."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    await flush(world)
    statements: list[str] = []
    await svc.store.db.conn.set_trace_callback(statements.append)
    try:
        await resign(world, world.alice, live)
        await flush(world)
    finally:
        await svc.store.db.conn.set_trace_callback(None)  # type: ignore[arg-type]
    found: list[list[str]] = []
    for s in statements:
        s = " ".join(s.split())
        if s.startswith("BEGIN"):
            found.append([])
        elif found and not s.startswith(("COMMIT", "ROLLBACK")):
            found[-1].append(s)
    row = await svc.store.db.fetchone("SELECT resend FROM matches WHERE id = ?", (live.id,))
    assert row is not None and row["resend"] == "", "the end line left owed"
    return found


async def test_a_session_end_commits_its_save_and_its_posts_alone(world: World) -> None:
    writing = [t for t in await _end_traced(world) if any(s.startswith(WRITES) for s in t)]
    assert len(writing) == 2, [t[0][:60] for t in writing]
    owing = [s for s in writing[0] if s.startswith(WRITES) and "resend" in s]
    assert len(owing) == 1, owing  # (not a read and a write)
