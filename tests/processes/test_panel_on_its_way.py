"""A click on a DM panel whose process, holding the match, has sent it and not yet saved its id
(``dm_sending`` saved, the id on its way), reaching another process: that panel is the seat's
panel, played on, not answered as one replaced (docs/processes.md). A member clicking a panel
the moment it arrives, while the database is slow to save its id, met that answer."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from cogs.umtali.in_dms import owe_at_bring_in
from cogs.umtali.live import LiveMatch, told_text
from cogs.umtali.reminders import turn_of
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, player
from tests.processes.helpers import main_of, panel_saved_slowly, row, settle, via
from tests.processes.test_lost_told_elsewhere import notices
from tests.test_faults_channel import _lose_thread
from tests.test_left_orphan_panel import _drawing
from tests.time_control_helpers import end_turn, played_in_dms


async def test_a_click_on_a_panel_whose_id_is_on_its_way_elsewhere_is_played(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    old = live.dm_message_ids[seat]
    assert old is not None
    saving, sending = await panel_saved_slowly(monkeypatch, main, live, seat)
    saved = await row(world, live.id)
    assert saved[f"dm{seat}_sending"] and saved[f"dm{seat}_message_id"] == old
    panel = actor.user.dm_channel.last_message
    assert panel.id > old
    # Clicked at once, and the click reaches the other process.
    with via(world, other):
        r = await actor.user.click(panel, custom_id=f"umtali:m:{live.id}:{version}:draw")
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
    saved = await row(world, live.id)
    assert saved["version"] == version + 1 and saved["owner"] == "p2"
    saving.set()
    await sending
    await settle(world, main, other)
    # One panel offers the moves: the one clicked, saved as the seat's panel, showing the
    # draw made (no panel sent again, the one clicked not stripped).
    prefix = f"umtali:m:{live.id}:"
    offering = [m for m in actor.user.dm_channel.history()
                if any(c.startswith(prefix) for c in custom_ids(m))]
    assert [m.id for m in offering] == [panel.id]
    assert any(c.startswith(f"{prefix}{version + 1}:") for c in custom_ids(offering[0]))
    saved = await row(world, live.id)
    assert saved[f"dm{seat}_message_id"] == panel.id and not saved[f"dm{seat}_sending"]


async def test_a_turns_panel_taken_elsewhere_saves_the_turn_it_told(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played in DMs, the process holding the match sends the turn's new panel (it notifies)
    and stops before saving its id; the player clicks it at once, reaching another process,
    which takes it as the seat's panel: it saves the turn it told too, or a bring-in of the
    match later in that turn would notify the player again, for a turn they are playing."""
    live = await played_in_dms(world)
    main = main_of(world)
    await end_turn(world, live)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    # As if the turn's panel so far had not been saved as telling it (the holder stopped).
    async with main.store.db.transaction() as c:
        await c.execute(f"UPDATE matches SET dm{seat}_told = '' WHERE id = ?", (live.id,))
    live.dm_told[seat] = None
    sent, never = asyncio.Event(), asyncio.Event()

    async def stuck(*args: int, **kwargs: Any) -> bool:
        sent.set()
        await never.wait()  # the holder stopped: its id never saved
        return False

    monkeypatch.setattr(main.store, "set_dm_message", stuck)
    sending = asyncio.create_task(main.delivery.send_hand(live, seat, new=True))
    await asyncio.wait_for(sent.wait(), 10)
    panel = actor.user.dm_channel.last_message
    with via(world, other):
        r = await actor.user.click(panel, custom_id=f"umtali:m:{live.id}:{version}:draw")
    assert r.acknowledged and not r.ephemeral
    sending.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sending
    saved = await row(world, live.id)
    assert saved[f"dm{seat}_message_id"] == panel.id and saved["version"] == version + 1
    assert saved[f"dm{seat}_told"] == told_text(turn_of(live)), "the turn told was not saved"
    fresh = await other.store.match(live.id)
    assert fresh is not None and seat not in owe_at_bring_in(LiveMatch.from_row(fresh))


async def test_a_lost_channels_notice_taken_elsewhere_is_not_sent_again(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's channel lost, the holder sends the seat its notice (a new panel saying so)
    and stops before saving its id; the player clicks it at once, reaching another process,
    which takes it as the seat's panel: the seat was told, as saved with the take. Else that
    process (and any after it) sent the notice again."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main, other)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    sent, never = asyncio.Event(), asyncio.Event()
    save = main.store.set_dm_message

    async def stuck(match_id: int, at: int, *args: int, **kwargs: Any) -> bool:
        if at != seat or not kwargs.get("lost_told"):
            return await save(match_id, at, *args, **kwargs)
        sent.set()
        await never.wait()  # the holder stopped: its id never saved
        return False

    monkeypatch.setattr(main.store, "set_dm_message", stuck)
    since = len(world.env.http_requests)
    _lose_thread(world, live)
    assert await main.lose_channel(live) and seat in live.lost_untold
    losing = asyncio.create_task(main.delivery._hand(live, seat))
    await asyncio.wait_for(sent.wait(), 10)
    assert notices(world, seat, since) == 1
    panel = actor.user.dm_channel.last_message
    with via(world, other):
        r = await actor.user.click(panel, custom_id=f"umtali:m:{live.id}:{version}:draw")
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
    losing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await losing
    await settle(world, other)
    saved = await row(world, live.id)
    assert saved[f"dm{seat}_message_id"] == panel.id and saved["version"] == version + 1
    assert not saved[f"dm{seat}_lost_untold"], "the notice taken is still owed"
    assert notices(world, seat, since) == 1, "told twice"
    fresh = await other.store.match(live.id)
    assert fresh is not None and seat not in owe_at_bring_in(LiveMatch.from_row(fresh))


async def test_a_click_on_a_panel_the_holder_never_saw_sent_is_played(
        world: World, other: MatchService) -> None:
    """The two-process soak's seed 1061: the process not holding the match sends a seat a new
    panel (showing the match again as saved after a delivery overtaken) and saves it; the
    player clicks it at once, reaching the holder, whose copy knew neither that panel nor its
    mark (read before): it answered "That panel was replaced by a newer one", and the move
    was not made, on the very panel saved as the seat's."""
    live = await _drawing(world)
    main = main_of(world)
    await settle(world, main)
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    await other.delivery.send_hand(copy, seat, new=True)
    await settle(world, other)
    panel = actor.user.dm_channel.last_message
    saved = await row(world, live.id)
    assert saved[f"dm{seat}_message_id"] == panel.id != live.dm_message_ids[seat]
    assert saved["owner"] != "p2"
    r = await actor.user.click(panel, custom_id=f"umtali:m:{live.id}:{version}:draw")
    said = " ".join(m.content or "" for m in [r.response, *r.followups] if m is not None)
    assert r.acknowledged and not r.ephemeral, said
    assert (await row(world, live.id))["version"] == version + 1
