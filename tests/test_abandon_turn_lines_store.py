"""fix150: a match ended with no result (``Store.abandon_match``, ``turn``) announces the
lines of the turn in progress as saved (``matches.pending``, held back until the turn ends)
before what the ending says, as a resignation does; on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from data.store import Store

SNOWFLAKE = 1_300_000_000_000_000_000
LINES = "ada draws from the stock.\nada melds 9♥ 9♦ 9♣, a group, +3."


async def _match(store: Store, pending: str, lost: bool = False) -> int:
    match_id = await store.create_match(
        guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1,
        players=((SNOWFLAKE + 2, "Ada"), (SNOWFLAKE + 3, "Ben")), variant="english",
        turn_timer=300, state="{}", deadline=None, owner="here")
    # As a move within the turn saves it (``record_move``'s ``pending``).
    async with store.db.transaction() as c:
        await c.execute("UPDATE matches SET pending = ?, channel_lost = ? WHERE id = ?",
                        (pending, 1 if lost else 0, match_id))
    return match_id


@pytest.mark.parametrize(("pending", "turn", "announce", "lost", "unsent"), [
    (LINES, True, ["notice", "reveal"], False, [LINES, "notice", "reveal"]),
    (LINES, True, None, False, [LINES]),
    (LINES, False, ["notice", "reveal"], False, ["notice", "reveal"]),
    ("", True, ["notice", "reveal"], False, ["notice", "reveal"]),
    ("", True, None, False, []),
    (LINES, True, ["notice", "reveal"], True, []),
], ids=["lines first", "lines alone", "not asked", "no lines", "nothing", "channel lost"])
async def test_an_ending_announces_the_turns_lines_as_saved_first(
        store_target: str | Path, pending: str, turn: bool, announce: list[str] | None,
        lost: bool, unsent: list[str]) -> None:
    store = await Store.open(store_target)
    try:
        match_id = await _match(store, pending, lost)
        said = await store.abandon_match(match_id, "abandoned", announce=announce,
                                         owner="here", lease_until=1e12, turn=turn)
        assert said == unsent
        row = await store.match(match_id)
        assert row is not None and row.status == "finished" and json.loads(row.unsent) == unsent
        # Ended once: a second ending finds it over, and adds nothing.
        assert await store.abandon_match(match_id, "abandoned", announce=["again"],
                                         owner="here", turn=True) is None
    finally:
        await store.close()
