"""The Hint button through a process that does not hold the practice session (docs/processes.md):
it finds the match as the database has it, like every other button, instead of answering "This
match is over." because the match is not in that process's memory."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from cogs.umtali import coach_hint, in_time
from cogs.umtali.coach_work import seat_record
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush
from tests.processes.helpers import row, via
from tests.test_discord_coach import _dm_panel, _practice, _said
from umtali.i18n import EN
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.text import move_meaning

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
    # (in words alone: one of the seat's legal moves)
    assert any(f"the hard computer would {move_meaning(view, move, EN)}." in said
               for move in view.legal_moves), said
    # A hint changes nothing, and the match stays where it was held.
    saved = await row(world, live.id)
    assert saved["version"] == version and saved["owner"] == "main"


@pytest.mark.parametrize("meanwhile", ["resigned", "moved"])
async def test_a_hint_through_another_process_sees_the_match_end_or_move_on(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch,
        meanwhile: str) -> None:
    """The process answering the click reads its copy of the match from the database; while
    the hint is worked out, the process holding the match ends it (a resignation) or plays
    the player's turn on (a click that reached it): the copy read before does not change,
    so it is read again, and no hint is given for a position that is gone."""
    live = await _practice(world)
    await flush(world)
    main = world.bot.matches
    assert main is not None
    assert live.session.to_act == 0 and live.id not in other.matches
    thinking = other.computers.thinking
    await asyncio.gather(*(thinking.run(seat_record, Session(RuleSet.english(), 1), 0, (1, 1))
                           for _ in range(thinking.workers)))
    # The computer does not play: its turn, if it comes, lasts while the answer is read.
    monkeypatch.setattr(main.computers, "next", lambda live: None)
    real_defer = in_time.defer

    async def defer_as_the_match_changes(interaction: discord.Interaction, *args: Any,
                                         **kwargs: Any) -> None:
        if meanwhile == "resigned":
            assert await main.resign(live, 0)
        else:
            move = GreedyPlayer().choose(live.session.view(0))
            assert (await main.act(live, world.alice.id, move, live.version)).ok
        await real_defer(interaction, *args, **kwargs)

    monkeypatch.setattr(coach_hint, "defer", defer_as_the_match_changes)
    with via(world, other):
        answer = await world.alice.user.click(_dm_panel(world, live, 0),
                                              custom_id=f"umtali:m:{live.id}:hint")
    said = _said(answer)
    expected = "over" if meanwhile == "resigned" else "moved on"
    assert answer.ephemeral and "Hint:" not in said and expected in said, said
