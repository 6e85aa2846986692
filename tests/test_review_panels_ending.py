"""A player's open "My hand" panel when the session ends under it (the opponent resigns, or
plays the session's last move): it is edited to the ending, not left offering moves of a
match that is over."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali import hand_panels
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    player,
    start_match,
    table_message,
)


def moves_offered(message: Any, match_id: int) -> list[str]:
    """The panel's move components (a version in the id), not its layout menu."""
    return [i for i in custom_ids(message)
            if i.startswith(f"umtali:m:{match_id}:") and i.split(":")[3].isdigit()]


@pytest.fixture(autouse=True)
def lasting_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord's virtual time leaps to its next timer (hours) while the bot waits on a
    thread: an interaction's token is taken to last, as it does for the minutes in play."""
    monkeypatch.setattr(hand_panels, "TOKEN_LIFE", 10.0**9)


async def test_an_open_panel_shows_the_end_when_the_opponent_resigns(world: World) -> None:
    live = await start_match(world, variant="russian")
    seat = live.session.to_act
    actor = player(world, seat)
    table = await table_message(world, live)
    panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral and panel.response is not None
    assert moves_offered(panel.response, live.id)
    svc = world.bot.matches
    assert svc is not None
    assert await svc.resign(live, 1 - seat)
    await flush(world)
    assert live.over
    shown = panel.response
    assert shown is not None
    # The panel says the session is over, and offers no move any more.
    assert "Session over" in (shown.embeds[0].description or ""), shown.embeds[0].description
    assert not moves_offered(shown, live.id), custom_ids(shown)
    # Nothing is kept for a match that is over.
    assert (live.id, seat) not in hand_panels.panes(world.bot).panes
