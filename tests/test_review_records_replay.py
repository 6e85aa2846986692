"""Replay files reviewed: the header's result reads as every other result does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.umtali.history import replay_text
from data.store import Store
from tests.test_records import played
from umtali.i18n import tr_for


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_the_replay_header_gives_the_winners_games_first(store: Store) -> None:
    # Seed 2: greedy play gives the second seat the session, 2 games to 0.
    match_id, session = await played(store, 2, ((1, "Ada"), (2, "Ben")))
    assert session.winner == 1 and session.games_won == [0, 2]
    match, line = await store.match(match_id), await store.records.session(match_id)
    assert match is not None and line is not None
    moves = await store.moves(match_id)
    text = replay_text(match, line, moves)
    # As the session's own announcement and its final card say it: "Ben wins 2-0".
    assert "# Result: Ben wins 2-0 in games, played out" in text.splitlines()
    russian = replay_text(match, line, moves, tr_for("ru"))
    assert "# Итог: побеждает Ben, 2-0 по партиям, доигран до конца" in russian.splitlines()
