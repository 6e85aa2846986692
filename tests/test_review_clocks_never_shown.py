"""A match whose table was never posted (the bot stopped between saving it and posting its
table) and a restart after a real outage: the bot does not post that it was offline and whose
turn it still is in a match nobody was shown (nor send its hands, which that notice would bring
with it), and the match is cancelled at the first check. SimCord, virtual time."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot import UmtaliBot
from cogs.umtali.timing import NEVER_SHOWN
from tests.discord_helpers import World, start_match
from tests.test_faults_opening import _cancelled_cleanly
from tests.time_control_helpers import restarted_after
from umtali.i18n import EN


def _said(world: World) -> list[str]:
    return [m.content for t in [world.channel, *world.channel.threads] for m in t.history()]


async def test_a_restart_says_nothing_of_a_match_never_shown_and_cancels_it(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world, turn_timer=5)
    assert live.deadline is not None and world.bot.matches is not None
    # As saved by a process stopped before it posted the table.
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE matches SET table_message_id = NULL WHERE id = ?", (live.id,))
    world.clock.now = live.deadline - 100
    dms = [len(p.user.dm_channel.history()) for p in (world.alice, world.bob)]
    _, restored = await restarted_after(world, make_bot, live, 3600)
    assert restored.never_shown
    assert not [t for t in _said(world) if "offline" in t]
    assert [len(p.user.dm_channel.history()) for p in (world.alice, world.bob)] == dms
    # Cancelled at the first check, not at its deadline (days away by correspondence).
    assert restored.abandoned
    _cancelled_cleanly(db_path)
    mentions = f"<@{world.alice.user.id}> <@{world.bob.user.id}>"
    assert EN(NEVER_SHOWN, mentions=mentions) in _said(world)
