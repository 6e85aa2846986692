"""The bot removed from a server, and stopped right after the removal's ending was saved, before
the panels were redrawn and the players told (DMs take time under Discord's limits; a deploy, a
crash). The ending is in the database, so the next READY's sweep finds nothing of the server,
and with its channel lost nothing of the match was left to post (``unsent``), so no start
brought it back: the players' DM panels kept showing the match in play, their moves offered,
the deals never revealed (README: "their hand panel shows the ending"). Not stopped, the same
removal does it (``stops=False``). The removal's DM itself is not owed so: a bot stopped before
sending it does not send it after (left: it would need its own mark in the database)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.removal import Removals
from tests.discord_helpers import World, custom_ids, dm_panel, flush, start_match


async def _removed_and_restarted(world: World, make_bot: Callable[[], UmtaliBot],
                                 monkeypatch: pytest.MonkeyPatch, stops: bool) -> tuple[
                                     LiveMatch, int]:
    """A match ended by the removal, the bot stopped (``stops``) once that was saved, then
    started again; the match, and the last message before the removal."""
    live = await start_match(world, turn_timer=0)
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    since = max(m for messages in world.env.backend.messages.values() for m in messages)

    async def stopped(self: Removals, live: Any, server: str | None) -> None:
        return None

    if stops:
        # The process stops once the ending is saved: neither the redraw nor the DMs go.
        monkeypatch.setattr(Removals, "_tell", stopped)
        monkeypatch.setattr(svc.delivery, "enqueue", lambda live, batch: None)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    assert live.over and live.abandoned
    monkeypatch.undo()
    await world.env.restart_bot(make_bot())
    await world.env.settle()
    await flush(world)
    return live, since


@pytest.mark.parametrize("stops", [True, False])
async def test_the_panels_of_a_match_ended_by_a_removal_show_it_after_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch, stops: bool) -> None:
    live, _ = await _removed_and_restarted(world, make_bot, monkeypatch, stops)
    for seat, member in enumerate((world.alice, world.bob)):
        panel = dm_panel(member, live, seat)
        shown = "\n".join(str(e.description) for e in panel.embeds)
        assert "This match was abandoned" in shown and "Deals revealed" in shown, shown
        assert not [c for c in custom_ids(panel) if c.startswith(f"umtali:m:{live.id}:")], \
            custom_ids(panel)
    svc = world.bot.matches
    assert svc is not None and not svc.tracked(live.id)
