"""With the match's channel lost, the DM panel carries the table with the hand: a move made
on it mid-turn keeps the table there (the melds a card may extend), not the hand alone until
the turn ends."""

from __future__ import annotations

from tests.discord_helpers import World, flush, play, start_match
from tests.test_faults_channel import _lose_thread
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_move_on_the_dm_panel_keeps_the_table_with_the_channel_lost(
        world: World) -> None:
    live = await start_match(world, variant="russian")
    _lose_thread(world, live)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost and not live.over
    seat = live.session.to_act
    actor = (world.alice, world.bob)[seat]
    dm = actor.user.dm_channel.last_message
    assert dm.id == live.dm_message_ids[seat] and len(dm.embeds) == 2
    move = GreedyPlayer().choose(live.session.view(seat))
    assert move.kind in (MoveKind.DRAW, MoveKind.TAKE)
    action = "draw" if move.kind is MoveKind.DRAW else "take"
    result = await actor.user.click(dm, custom_id=f"umtali:m:{live.id}:{live.version}:{action}")
    assert result.acknowledged and live.session.to_act == seat
    await flush(world)
    shown = next(m for m in actor.user.dm_channel.history()
                 if m.id == live.dm_message_ids[seat])
    # The table, then the hand after the draw.
    assert len(shown.embeds) == 2, [e.title for e in shown.embeds]
    assert (shown.embeds[0].title or "").startswith("Umtali")
    assert "Your turn: meld" in (shown.embeds[1].description or "")
