"""A match played in DMs (its channel lost) after the bot was offline a while: each player's DM
panel says so, as the channel's notice would (the turn's time given back, and when it ends)."""

from __future__ import annotations

from collections.abc import Callable

from bot import UmtaliBot
from tests.discord_helpers import World, flush, player
from tests.time_control_helpers import played_in_dms, restarted_after


def _panel_text(world: World, seat: int, panel: int | None) -> str:
    [message] = [m for m in player(world, seat).user.dm_channel.history() if m.id == panel]
    return " ".join([message.content, *(str(e.description) for e in message.embeds)])


async def test_a_match_played_in_dms_tells_both_players_the_bot_was_offline(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await played_in_dms(world, turn_timer=60)
    svc, restored = await restarted_after(world, make_bot, live, offline=600)
    await svc.flush()
    await flush(world)
    for seat in (0, 1):
        shown = _panel_text(world, seat, restored.dm_message_ids[seat])
        assert "I was offline for 10 minutes" in shown, shown


async def test_a_short_restart_of_a_match_played_in_dms_says_nothing(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await played_in_dms(world, turn_timer=60)
    svc, restored = await restarted_after(world, make_bot, live, offline=10)
    await svc.flush()
    await flush(world)
    for seat in (0, 1):
        assert "offline" not in _panel_text(world, seat, restored.dm_message_ids[seat])
