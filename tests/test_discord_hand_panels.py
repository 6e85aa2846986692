"""A player's private panels: one ephemeral panel for /umtali play, kept in step with the DM
panel, and the hand's layout remembered for the member."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import UmtaliBot
from tests.discord_helpers import (
    World,
    custom_ids,
    flush,
    play,
    player,
    start_match,
    start_practice,
    table_message,
    thread_of,
)
from umtali.cards import Card
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


def hand_field(message: Any) -> tuple[str, str]:
    embed = message.embeds[0]
    field = next(f for f in embed.fields if " cards" in (f.name or ""))
    return field.name or "", field.value or ""


def dm_of(world: World, seat: int) -> Any:
    return player(world, seat).user.dm_channel.last_message


async def test_umtali_play_edits_one_panel_while_it_shows_the_position(world: World) -> None:
    live = await start_match(world, variant="russian")
    seat = live.session.to_act
    actor, thread = player(world, seat), thread_of(world, live)
    first = await actor.slash(thread, "umtali play", move="draw")
    assert first.ephemeral and first.response is not None
    # The rest of the turn with /umtali play: each answer edits that first panel, and the
    # answer's own placeholder is removed.
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        later = await actor.slash(thread, "umtali play", move=str(move))
        assert later.acknowledged and later.ephemeral
        assert later.response is None  # nothing left behind
        panel = first.response
        assert panel is not None
        name, _ = hand_field(panel)
        assert name.startswith(f"{len(live.session.view(seat).hand)} cards")
    assert "Waiting for" in (first.response.embeds[0].description or "")
    # After the opponent's turn the old panel is far up the channel: the next /umtali play
    # sends a new one where the player is looking, and the old one goes.
    while live.session.to_act != seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    move = GreedyPlayer().choose(live.session.view(seat))
    again = await actor.slash(thread, "umtali play", move=str(move))
    assert again.ephemeral and again.response is not None
    assert first.response is None


async def test_the_dm_panel_is_fresh_after_acting_on_my_hand(world: World) -> None:
    live = await start_match(world, variant="russian")
    seat = live.session.to_act
    actor = player(world, seat)
    table = await table_message(world, live)
    panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral and panel.response is not None
    await flush(world)
    before = len(world.env.http_requests)
    drew = await actor.click(panel.response, custom_id=f"umtali:m:{live.id}:0:draw")
    assert drew.acknowledged and live.version == 1
    await flush(world)
    # The DM panel shows the card drawn, and offers this version's moves, not a stale draw.
    dm = dm_of(world, seat)
    assert hand_field(dm)[0].startswith(f"{len(live.session.view(seat).hand)} cards")
    assert any(i.startswith(f"umtali:m:{live.id}:1:") for i in custom_ids(dm))
    assert f"umtali:m:{live.id}:0:draw" not in custom_ids(dm)
    # Its cost: one edit of the DM panel, besides the answer.
    calls = [(r.method, r.path) for r in world.env.http_requests[before:]
             if not r.path.startswith(("/interactions", "/webhooks"))]
    assert calls == [("PATCH", f"/channels/{dm.channel.id}/messages/{dm.id}")]

    # And the other way: a move on the DM panel brings the ephemeral panel up to date.
    move = GreedyPlayer().choose(live.session.view(seat))
    action = {MoveKind.MELD: "meld", MoveKind.EXTEND: "extend"}.get(move.kind, "discard")
    values = [c.code for c in move.card_list] if action == "meld" else [str(move)]
    done = await actor.user.select(dm, values, custom_id=f"umtali:m:{live.id}:1:{action}")
    assert done.acknowledged and live.version == 2
    await flush(world)
    shown = panel.response
    assert shown is not None
    assert hand_field(shown)[0].startswith(f"{len(live.session.view(seat).hand)} cards")
    assert hand_field(shown)[1] == hand_field(dm_of(world, seat))[1]


def ranks_in_order(text: str) -> bool:
    # Groups parted by "; " (fix158); a card just taken marked "(new)".
    ranks = [Card.parse(word).rank for word in text.replace(";", " ").split()
             if not word.startswith("(")]
    return ranks == sorted(ranks)


async def test_the_hand_order_is_remembered_across_sessions_and_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    live = await start_match(world)
    seat = live.seat_of(world.alice.id)
    assert seat is not None
    dm = dm_of(world, seat)
    assert hand_field(dm)[0].endswith("by suit")
    chose = await world.alice.user.select(dm, ["rank"], custom_id=f"umtali:m:{live.id}:order")
    assert chose.acknowledged
    name, text = hand_field(dm_of(world, seat))
    assert name.endswith("by rank") and ranks_in_order(text)
    # Bob's panel is his own.
    assert hand_field(dm_of(world, 1 - seat))[0].endswith("by suit")

    # A new session: Alice's hand comes laid out by rank from its first message.
    svc = world.bot.matches
    assert svc is not None
    assert await svc.resign(live, 1 - seat)
    await flush(world)
    live = await start_match(world)
    seat = live.seat_of(world.alice.id)
    assert seat is not None
    name, text = hand_field(dm_of(world, seat))
    assert name.endswith("by rank") and ranks_in_order(text)

    # A restart: a new process knows only what the store kept.
    new = make_bot()
    await world.env.restart_bot(new)
    restored = new.matches.matches[live.id] if new.matches else None
    assert restored is not None
    table = await table_message(world, restored)
    panel = await world.alice.click(table, custom_id=f"umtali:m:{restored.id}:hand")
    assert panel.response is not None
    name, text = hand_field(panel.response)
    assert name.endswith("by rank") and ranks_in_order(text)
    # Melds first is a choice too, and the menu says which one is chosen.
    again = await world.alice.select(panel.response, ["melds"],
                                     custom_id=f"umtali:m:{restored.id}:order")
    assert again.acknowledged
    assert hand_field(panel.response)[0].endswith("melds first")
    prefs = await new.matches.store.member_prefs([world.alice.id]) if new.matches else {}
    assert prefs[world.alice.id].hand_order == "melds"


async def test_an_open_panel_follows_the_computers_turn(world: World) -> None:
    live = await start_practice(world)
    svc = world.bot.matches
    assert svc is not None
    assert live.session.to_act == 0
    table = await table_message(world, live)
    panel = await world.alice.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert panel.ephemeral and panel.response is not None
    # ada plays her turn on that panel; the computer then plays its own.
    while True:
        move = GreedyPlayer().choose(live.session.view(0))
        await world.alice.slash(thread_of(world, live), "umtali play", move=str(move))
        if move.kind is MoveKind.DISCARD:
            break
    await svc.computer_idle()
    await flush(world)
    assert live.session.to_act == 0 and not live.over, (live.session.how, live.version)
    assert live.version > 2
    # The panel she left open shows her turn again, without her asking.
    assert "Your turn" in (panel.response.embeds[0].description or "")
    name, _ = hand_field(panel.response)
    assert name.startswith(f"{len(live.session.view(0).hand)} cards")
