"""A table or DM panel edit Discord failed for now, its retry a minute away, and the bot
restarting first (a quick restart: no time to give back, which would have redrawn the table):
what was owed is saved with the failure (``matches.resend``), and sent once the bot is back,
or by the process that takes the match over. Before, the retry lived in memory alone: the
table (or the panel) showed the turn before until the next move. SimCord."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.delivery
from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, dm_panel, flush, play, player, start_match, thread_of
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import db_row
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

RETRY = 60.0


@pytest.fixture(autouse=True)
def slow_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cogs.umtali.delivery, "RETRY_FIRST", RETRY)


def _shown(world: World, live: LiveMatch, where: str, seat: int) -> Any:
    """What the table (``where`` "table") or the seat's DM panel ("panel") shows."""
    if where == "table":
        message = next(m for m in thread_of(world, live).history()
                       if m.id == live.table_message_id)
    else:
        message = dm_panel(player(world, seat), live, seat)
    return [(e.description, [(f.name, f.value) for f in e.fields]) for e in message.embeds]


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("where", ["table", "panel"])
async def test_an_edit_failed_for_now_before_a_quick_restart_is_made_once_the_bot_is_back(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot], where: str) -> None:
    """The turn's end edits the table and the other player's panel; the last edit fails. (The
    table's failing, its announcement waits with it, and was sent again before: ``unsent``.
    A table edit with no announcement, the clock stopping: tests/test_clock_soak_found.py.)"""
    live = await start_match(world)
    seat = live.session.to_act
    other = 1 - seat  # whose panel the turn's end edits
    if where == "table":
        path = f"/channels/{live.channel_id}/messages/{live.table_message_id}"
    else:
        path = f"/channels/{player(world, other).user.dm_channel.id}/messages/" \
               f"{live.dm_message_ids[other]}"
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        if move.kind is MoveKind.DISCARD:  # the turn's last edit fails
            await flush(world)
            world.env.inject_error("PATCH", path, status=503, times=1)
        await play(world, live, move)
    await flush(world)
    stale = _shown(world, live, where, other)
    assert db_row(db_path, live.id)["resend"], "the edit owed was not saved"
    # The bot stops and starts again at once, before the retry.
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    svc = again.matches
    assert svc is not None
    restored = svc.matches[live.id]
    shown = _shown(world, restored, where, other)
    assert shown != stale, "the edit owed was never made"
    assert db_row(db_path, live.id)["resend"] == ""
    # And it is the match as it is: drawn again, nothing changes.
    restored.dm_shown = [None, None]
    svc.delivery.enqueue(restored, Batch(table=True, hands={0, 1}))
    await flush(world)
    assert _shown(world, restored, where, other) == shown

