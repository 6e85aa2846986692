"""review125: a player whose DMs refuse the bot, gone from the server, is owed the channel's
notice to use My hand (not posted while they cannot read it: fix140). Their match is taken
over by another process before they come back: the new holder asks too, and tells them once
they are back. It had nothing to ask about (the seats to ask about were in the memory of the
process that stopped), and the returning player, on their turn in a match with no clock, was
never told how to play."""

from __future__ import annotations

from cogs.umtali.claims import LEASE
from cogs.umtali.out_of_reach import ASK_AGAIN
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, play
from tests.processes.helpers import kill, main_of, row, settle
from tests.test_refused_dms_departed import _notices, _refused_after_leaving
from umtali.players import GreedyPlayer

TOLD = "I can't send you direct messages: use the **My hand** button"


async def test_a_player_back_after_a_take_over_is_told(world: World,
                                                       other: MatchService) -> None:
    live = await _refused_after_leaving(world, turn_timer=0)
    bob = live.seat_of(world.bob.id)
    main = main_of(world)
    for _ in range(6):
        if live.session.to_act == bob:
            break
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    assert live.session.to_act == bob and not live.over
    assert _notices(world, live) == []
    world.bob = world.guild.add_member(world.bob.user)
    await world.env.settle()
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == "p2"
    world.clock.advance(ASK_AGAIN + 1)
    await other.check_timers()
    await settle(world, other)
    told = [n for n in _notices(world, live) if TOLD in n]
    assert len(told) == 1, _notices(world, live)
