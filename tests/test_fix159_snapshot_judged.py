"""fix159: a private snapshot of the table (``/umtali table`` asked by someone outside the
match, or by a player elsewhere) says when the turn ends as the live table does: by the
deadline the clock judges it by (``judged.judged_deadline``), with time owed to the turn (an
outage's give-back whose save failed) or the clocks standing still (an outage under way).
Before, it said the deadline as saved: the turn ending earlier than the live table said, and
than it would. SimCord, the real discord.py path, SQLite file."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_gateway_outage_faults import failing

#: How long the gateway is down (the clocks stand still).
OUTAGE = 40.0


def _text(message: Any) -> str:
    return "\n".join(e.description or "" for e in message.embeds)


@pytest.mark.parametrize("how", ["owed", "outage"])
async def test_a_snapshot_says_the_turn_ends_when_the_live_table_says(
        world: World, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    live = await start_match(world, turn_timer=2)
    svc = world.bot.matches
    assert svc is not None
    deadline = live.deadline
    assert deadline is not None
    gateway_lost(svc, None if how == "owed" else 1)
    world.clock.advance(OUTAGE)
    if how == "owed":
        failing(monkeypatch, svc.store, 1)  # the give-back's save fails: owed, in memory
        await gateway_back(svc, None)
        owed = svc.clock_state.owed.get(live.id)
        assert owed is not None and owed[0] == deadline and owed[1] == pytest.approx(OUTAGE)
    await flush(world)
    assert live.deadline == deadline
    judged = f"<t:{int(deadline + OUTAGE)}:R>"
    saved = f"<t:{int(deadline)}:R>"
    # The live table, drawn now, says the judged deadline.
    table = svc.table_embed(live).description or ""
    assert judged in table and saved not in table, table
    # Asked by someone outside the match, and by a player in another channel: privately.
    for who, where in ((world.carol, thread_of(world, live)), (world.alice, world.channel)):
        peek = await who.slash(where, "umtali table")
        assert peek.ephemeral
        said = _text(peek.response)
        assert "snapshot" in said, said
        assert judged in said and saved not in said, said
