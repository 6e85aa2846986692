"""The Hint button through a process that does not hold the practice session (docs/processes.md):
it finds the match as the database has it, like every other button, instead of answering "This
match is over." because the match is not in that process's memory."""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.coach_work import seat_record
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush
from tests.processes.helpers import row, via
from tests.test_discord_coach import _dm_panel, _practice, _said
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.session import Session

# The hard computer thinks in real worker processes (as in tests/test_discord_coach.py).
pytestmark = pytest.mark.simcord(settle_timeout=30)


async def test_a_hint_through_another_process_finds_the_match(
        world: World, other: MatchService) -> None:
    live = await _practice(world)
    await flush(world)
    assert live.session.to_act == 0 and live.id not in other.matches
    # Its thinking workers started and the game imported: a first hint would wait for them.
    thinking = other.computers.thinking
    await asyncio.gather(*(thinking.run(seat_record, Session(RuleSet.english(), 1), 0, (1, 1))
                           for _ in range(thinking.workers)))
    view, version = live.session.view(0), live.version
    with via(world, other):
        answer = await world.alice.user.click(_dm_panel(world, live, 0),
                                              custom_id=f"umtali:m:{live.id}:hint")
    said = _said(answer)
    assert answer.ephemeral and "Hint:" in said and "over" not in said, said
    shown = said.split("`")[1]
    assert Move.parse(shown) in view.legal_moves
    # A hint changes nothing, and the match stays where it was held.
    saved = await row(world, live.id)
    assert saved["version"] == version and saved["owner"] == "main"
