"""By correspondence, a process not holding a match that showed it as saved (a member's
``/umtali display`` through it, or a fresh copy's delivery after an overtaken one) ran the hand
listeners, the turn's DM among them: it told the turn too, beside its holder. Since such a
delivery frees what was kept for the match there (``Delivery._run``: a copy not held leaves
nothing kept), the turn told included, each showing in the turn's first ``FRESH`` minutes told
the player again that their turn had started, a DM that notifies (Discord's nonce holds one
back only within minutes of the first). The holder alone tells the turn."""

from __future__ import annotations

from cogs.umtali.hand_panels import refresh_dm
from cogs.umtali.reminders import TurnNotices
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, player, start_match
from tests.processes.helpers import main_of, settle
from tests.processes.test_queued_for_the_held_copy import a_turn

TOLD = "Your turn in the Umtali match"


async def test_a_turn_shown_again_through_a_process_not_holding_it_is_not_told_again(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    other.hand_listeners.append(TurnNotices(other))  # as the cog's load adds it
    live = await start_match(world, time_control="correspondence")
    await settle(world, main)
    held = await a_turn(other, live.id)  # the other process holds the match now
    await settle(world, main, other)
    assert await main.owners.fell_behind(live)  # dropped here
    seat = held.session.to_act
    dms = player(world, seat).user.dm_channel

    def told() -> int:
        return sum(TOLD in m.content for m in dms.history())

    assert told() == 1  # by its holder
    counts = []
    for _ in range(3):
        world.clock.advance(240)  # the turn's first minutes
        # The member's look changed through this process (``set_display``): their panel is
        # drawn again from a copy as saved.
        shown = await main.lookup(live.id)
        assert shown is not None and main.matches.get(live.id) is None
        shown.dm_shown[seat] = None  # (drawn again whatever it shows)
        refresh_dm(shown, seat, world.bot)
        await settle(world, main, other)
        counts.append(told())
    # Told by its holder alone (SimCord, as Discord past its nonce's minutes, doubles a DM
    # sent again).
    assert counts == [1, 1, 1], f"the turn told again and again: {counts}"
