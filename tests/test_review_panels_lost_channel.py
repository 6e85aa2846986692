"""With the match's channel lost, the DM panel carries the table with the hand: a move made
on it mid-turn keeps the table there (the melds a card may extend), not the hand alone until
the turn ends."""

from __future__ import annotations

from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, custom_ids, flush, play, start_match
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


def old_panels(world: World, live: LiveMatch, seat: int) -> list[int]:
    """The seat's DM messages other than its DM panel that still offer moves (or the
    layout): each shows an earlier position."""
    user = (world.alice, world.bob)[seat].user
    return [m.id for m in user.dm_channel.history()
            if m.id != live.dm_message_ids[seat]
            and any(i.startswith(f"umtali:m:{live.id}:") for i in custom_ids(m))]


async def test_a_new_dm_panel_takes_the_old_ones_place(world: World) -> None:
    live = await start_match(world, variant="russian", turn_timer=5)
    _lose_thread(world, live)
    for _ in range(3):
        seat = live.session.to_act
        while live.session.to_act == seat:
            await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
        await flush(world)
    assert live.channel_lost and not live.over
    # Each turn's start came as a new message (it notifies): the one it replaced offers
    # nothing any more.
    for s in (0, 1):
        assert not old_panels(world, live, s), s
    # The turn timer's warning is a new message too, in the middle of the turn.
    seat = live.session.to_act
    await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    await svc.check_timers(now=live.deadline - 30)
    await flush(world)
    user = (world.alice, world.bob)[seat].user
    assert "seconds left" in (user.dm_channel.last_message.embeds[1].description or "")
    assert not old_panels(world, live, seat)
