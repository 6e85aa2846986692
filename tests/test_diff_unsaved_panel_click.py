"""A DM panel sent as its process stopped, its id never saved (``dm0_sending`` left set), in a
match brought back without a restart of this process (another process taking it over, or a
delivery that failed on the save): it shows the match as it is, so a click on it plays, and
it is the seat's panel from then on (the one saved before, older, loses its buttons at the
seat's next delivery). Before, the member was told to play on the one above it: sent again,
the panel's nonce brings that very message back, and the one above then lost its buttons
(the fault soak, seed 120)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_helpers import World, custom_ids, flush, player
from tests.test_left_orphan_panel import Stopped, _drawing


async def test_a_click_on_an_unsaved_newer_panel_of_the_match_as_it_is_plays(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _drawing(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    actor = player(world, seat)
    saved = live.dm_message_ids[seat]
    assert saved is not None

    async def stop(*args: object, **kwargs: object) -> None:
        raise Stopped

    with monkeypatch.context() as m:
        m.setattr(svc.store, "set_dm_message", stop)
        with pytest.raises(Stopped):
            await svc.delivery.send_hand(live, seat, new=True)
    row = await svc.store.match(live.id)
    assert row is not None and row.dm_sending[seat] and live.dm_sending[seat]
    prefix = f"umtali:m:{live.id}:"

    def panels() -> list[Any]:
        return [msg for msg in actor.user.dm_channel.history()
                if any(c.startswith(prefix) for c in custom_ids(msg))]

    [unsaved] = [msg for msg in panels() if msg.id != saved]
    assert unsaved.id > saved
    version = live.version
    r = await actor.user.click(unsaved, custom_id=f"umtali:m:{live.id}:{version}:draw")
    await flush(world)
    assert not r.ephemeral and live.version == version + 1, "the draw played on it"
    row = await svc.store.match(live.id)
    assert row is not None and row.dm_message_ids[seat] == unsaved.id == live.dm_message_ids[seat]
    # One panel offers the moves, the move's delivery having looked through the DM: the one
    # played on; the mark is cleared.
    assert [msg.id for msg in panels()] == [unsaved.id]
    row = await svc.store.match(live.id)
    assert row is not None and not any(row.dm_sending)
