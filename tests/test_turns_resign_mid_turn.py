"""A turn ended by a resignation (or the clock) part-way: what the player laid in it is
announced with the ending, as every turn's moves are when it ends. Kept back until the turn's
end, those lines were dropped, and the thread never said what was laid."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, custom_ids, flush, play, start_match, thread_of
from umtali.players import GreedyPlayer


async def test_a_resignation_mid_turn_announces_what_the_turn_laid(world: World) -> None:
    live = await start_match(world)
    # On to a turn of ada's (seat 0) part-played: something laid and not yet announced.
    while not (live.session.to_act == 0 and any("meld" in line for line in live.pending)):
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    laid = list(live.pending)
    thread = thread_of(world, live)
    ask: Any = await world.alice.slash(thread, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    done = await world.alice.click(ask.response, custom_id=yes)
    assert "You resigned" in str(done.response.content), done.response.content
    await flush(world)
    assert live.over and live.session.how == "resigned"
    said = "\n".join(str(m.content) for m in thread.history()[-3:])
    assert "resigned" in said
    for line in laid:
        assert line in said, (line, said)
