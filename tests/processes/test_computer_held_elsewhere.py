"""The computer's turn under way in a process that loses the match meanwhile (a player brought
the table back through another process): the computer plays where the match is held, never
from the copy left behind, which still had the replaced table (docs/processes.md)."""

from __future__ import annotations

from typing import Any

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, custom_ids, start_practice, thread_of
from tests.processes.helpers import main_of, row, settle, via
from tests.test_faults_timers import to_turn_end
from umtali.players import GreedyPlayer

#: Seconds the computer waits before its turn (in real time), here: both processes'
#: computers are waiting when the table moves, the first process's to play first.
PAUSE = 0.5


def _live_tables(match_id: int, channel: Any) -> list[Any]:
    return [m for m in channel.history() if f"umtali:m:{match_id}:hand" in custom_ids(m)]


async def test_the_computers_turn_is_played_where_the_match_is_held_now(
        world: World, other: MatchService) -> None:
    live = await start_practice(world)
    main = main_of(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    assert live.computer_seat is not None and live.session.to_act != live.computer_seat
    await to_turn_end(world, live)
    # The first process's computer plays first.
    main.computers.pause, other.computers.pause = PAUSE, 2 * PAUSE
    seat = live.session.to_act
    assert (await main.act(live, live.player_ids[seat],
                           GreedyPlayer().choose(live.session.view(seat)))).ok
    assert live.session.to_act == live.computer_seat
    await main.flush()  # the turn's end shown (not an edit in flight as the table moves)
    # While the computer waits to play, the member brings the table back through the other
    # process, which holds the match from then on.
    with via(world, other):
        r = await world.alice.slash(thread, "umtali table")
    assert not r.ephemeral and r.response is not None
    assert (await row(world, live.id))["owner"] == "p2"
    await settle(world, main)
    await settle(world, main, other)
    saved = await row(world, live.id)
    assert saved["version"] > live.version - 1 and saved["table_message_id"] == r.response.id
    # The computer's turn was played, and shown on the live table: the one replaced stays so.
    [table] = _live_tables(live.id, thread)
    assert table.id == r.response.id
    [replaced] = [m for m in thread.history() if m.id == old]
    assert "moved" in (replaced.embeds[0].description or "")
