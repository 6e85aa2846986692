"""The coach keeps the latest hint of each practice match, so that two clicks think once; it
keeps a bounded number of them, since a match that went to another process, or whose end this
process never saw, is never forgotten otherwise."""

from __future__ import annotations

import dataclasses

import pytest

from cogs.umtali import coach as coach_module
from cogs.umtali.coach import coach_of
from tests.discord_helpers import World
from tests.test_discord_coach import _practice
from umtali.ai.coach import Hint
from umtali.i18n import Text
from umtali.session import Session


async def test_the_hints_kept_are_the_latest_few(world: World,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _practice(world)
    coach = coach_of(world.bot)
    thought: list[int] = []
    real = Hint(live.session.legal_moves()[0], Text.of("why"))

    async def advise(session: Session, seat: int) -> Hint:
        thought.append(len(session.moves))
        return real

    monkeypatch.setattr(coach, "_advise", advise)
    monkeypatch.setattr(coach_module, "HINTS_KEPT", 3)
    copies = [dataclasses.replace(live, id=live.id + i) for i in range(10)]
    for copy in copies:
        assert await coach.hint(copy, 0) == real
    assert len(thought) == 10
    # The latest three are kept: asked again, they are not thought again; the oldest is.
    for copy in copies[-3:]:
        assert await coach.hint(copy, 0) == real
    assert len(thought) == 10
    assert await coach.hint(copies[0], 0) == real
    assert len(thought) == 11
