"""review63: DMs that refused the bot, opened since, are tried again once a hand. That try
failing for now (Discord's 5xx, after discord.py's own tries) was dropped: the delivery's retry
found the hand claimed and the seat still taken for closed, so the panel came a hand later,
and one the 5xx had in fact delivered (its answer lost) offered the moves of a position long
gone for the rest of the hand, never edited nor stripped."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.reminders import turn_of
from tests.discord_helpers import World, custom_ids, flush, play_out, start_match
from tests.slow_retries import (
    RETRY,
    slow_retries,  # noqa: F401 (an autouse fixture)
)
from tests.test_dms_again import _close_dms, _next_hand, _notices, _open_dms, refused_from_the_start
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)


async def saves_again_within_the_hand(world: World, db_path: Path, live: LiveMatch,
                                      trigger: str) -> None:
    """The ``trigger`` failing the saves dropped, the retries' wait gone by, and two moves
    played within the same hand."""
    with sqlite3.connect(db_path) as db:
        db.execute(f"DROP TRIGGER {trigger}")
    hand = turn_of(live)[:2]
    await world.env.advance_time(RETRY + 1)
    await flush(world)
    await play_out(world, live, moves=2)
    await flush(world)
    assert not live.over and turn_of(live)[:2] == hand


@pytest.mark.usefixtures("server_errors")
async def test_a_try_again_failing_for_now_is_tried_again_in_the_hand(world: World) -> None:
    live, bob = await refused_from_the_start(world)
    _open_dms(world)
    world.env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages",
                           status=500, times=1)
    await _next_hand(world, live)  # the hand's try, failed for now
    hand = turn_of(live)[:2]
    await world.env.advance_time(RETRY + 1)
    await flush(world)
    assert turn_of(live)[:2] == hand
    # Made again at the seat's next delivery (the retry), in the same hand.
    assert not live.dm_refused[bob]
    panel = world.bob.user.dm_channel.last_message
    assert live.dm_message_ids[bob] == panel.id
    assert "I can send you direct messages again" in "".join(
        e.description or "" for e in panel.embeds)


async def test_two_sends_at_once_to_dms_closed_since_tell_the_channel_once(
        world: World) -> None:
    # A delivery's panel and a warning's (``reminders``) both on their way as Bob closes his
    # DMs: the second waited on the seat's lock while the first found them closed, then was
    # sent all the same, refused, and told the channel a second time.
    live = await start_match(world)
    bob = live.seat_of(world.bob.id)
    svc = world.bot.matches
    assert bob is not None and svc is not None and not live.dm_refused[bob]
    _close_dms(world)
    world.env.inject_error("PATCH", f"/channels/{world.bob.user.dm_channel.id}/messages/*",
                           status=403, code=50007, message="Cannot send messages to this user",
                           times=None)
    await asyncio.gather(svc.delivery.send_hand(live, bob, new=True, note="one"),
                         svc.delivery.send_hand(live, bob, new=True, note="two"))
    await flush(world)
    assert live.dm_refused[bob]
    assert _notices(world, live) == 1


async def test_a_try_again_whose_panel_is_not_saved_is_made_again_in_the_hand(
        world: World, db_path: Path) -> None:
    # The panel tried again reached the DMs, and the save of its id failed (the database busy):
    # the hand's claim spent and the seat taken for closed, nothing tried it again, and that
    # panel, unsaved, offered the moves of a position gone for the rest of the hand. Made
    # again, it is saved, and the one panel offering moves is the seat's, kept up to date.
    live, bob = await refused_from_the_start(world)
    _open_dms(world)
    dm = world.bob.user.dm_channel
    with sqlite3.connect(db_path) as db:
        db.execute(
            f"CREATE TRIGGER save_fails BEFORE UPDATE OF dm{bob}_message_id ON matches "
            f"WHEN NEW.dm{bob}_message_id IS NOT OLD.dm{bob}_message_id "
            "BEGIN SELECT RAISE(ABORT, 'database is locked'); END")
    await _next_hand(world, live)
    assert dm.history() and live.dm_refused[bob]  # the try: sent, its id not saved
    await saves_again_within_the_hand(world, db_path, live, "save_fails")
    assert not live.dm_refused[bob]
    offering = [m.id for m in dm.history()
                if any(c.startswith(f"umtali:m:{live.id}:") for c in custom_ids(m))]
    assert offering == [live.dm_message_ids[bob]]
    assert live.dm_shown[bob] == live.version
