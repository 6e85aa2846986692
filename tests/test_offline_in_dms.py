"""A match played in DMs (its channel lost) after the bot was offline a while: each player's DM
panel says so, as the channel's notice would (the turn's time given back, and when it ends)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import UmtaliBot
from tests.discord_helpers import World, flush, player
from tests.time_control_helpers import played_in_dms, restarted_after


def _panel_text(world: World, seat: int, panel: int | None) -> str:
    [message] = [m for m in player(world, seat).user.dm_channel.history() if m.id == panel]
    return " ".join([message.content, *(str(e.description) for e in message.embeds)])


@pytest.mark.parametrize(("offline", "said"), [(600, "I was offline for 10 minutes"),
                                                (10, None)])
async def test_a_match_played_in_dms_tells_both_players_the_bot_was_offline(
        world: World, make_bot: Callable[[], UmtaliBot], offline: float,
        said: str | None) -> None:
    """After 30 s or more offline; a quick restart says nothing."""
    live = await played_in_dms(world, turn_timer=60)
    svc, restored = await restarted_after(world, make_bot, live, offline=offline)
    await svc.flush()
    await flush(world)
    for seat in (0, 1):
        shown = _panel_text(world, seat, restored.dm_message_ids[seat])
        assert (said in shown) if said else ("offline" not in shown), shown
