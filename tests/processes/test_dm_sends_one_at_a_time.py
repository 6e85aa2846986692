"""Every new message to a seat's DMs from one process goes out one at a time, whichever copy of
the match sends it and whatever it is (a hand's panel, a reminder, the time-up question, a
practice's review): one refused is saved and known before the next goes, which then sends
nothing (each refused request counts towards Discord's limit of invalid requests; review106:
only the panels took the lock). SimCord, the first answer held up as Discord's retries hold
it."""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.in_dms import send_hand
from cogs.umtali.reminders import _dm
from cogs.umtali.service import MatchService
from tests.discord_helpers import World
from tests.processes.helpers import first_held
from tests.processes.test_refused_dms_known_in_process import read_then_closed


@pytest.mark.parametrize("first", ["reminder", "panel"])
async def test_a_reminder_and_a_panel_at_once_to_closed_dms_are_refused_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    live, _, seat, copy, dm = await read_then_closed(world, other)
    second = await other.lookup(live.id)
    assert second is not None and second is not copy
    first_held(monkeypatch)
    before = len(world.env.http_requests)
    second.dm_shown[seat] = None
    reminder = _dm(other, copy, seat, "Your turn", "reminder")
    panel = send_hand(other, second, seat, new=True)
    if first == "reminder":
        sent = list(await asyncio.gather(reminder, panel))
    else:
        sent = list(await asyncio.gather(panel, reminder))[::-1]
    assert sent == [False, False]
    posts = [r.path for r in world.env.http_requests[before:]
             if r.method == "POST" and r.path.startswith(f"/channels/{dm}/")]
    assert len(posts) == 1, posts
    assert copy.dm_refused[seat] and second.dm_refused[seat]
