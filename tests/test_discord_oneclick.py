"""One-click play on the hand's panels: a meld in one click, a common turn in three."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, custom_ids, flush, play, player, start_match
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer
from umtali.session import Session


def greedy_turn(session: Session) -> list[Move]:
    """The moves the greedy player would make for the whole turn of the seat to act, played
    on a copy (the stock's order is fixed, so the copy draws what the match will draw)."""
    probe = session.copy()
    seat, hand = probe.to_act, probe.hand
    moves = []
    while not probe.over and probe.hand is hand and probe.to_act == seat:
        move = GreedyPlayer().choose(probe.view(seat))
        moves.append(move)
        probe.apply(move)
    return moves


async def play_until(world: World, live: Any, wanted: list[MoveKind], limit: int = 400) -> None:
    """Play greedy moves until the seat to act would play a turn of exactly ``wanted``."""
    for _ in range(limit):
        if [m.kind for m in greedy_turn(live.session)] == wanted:
            return
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    raise AssertionError(f"no turn of {wanted} in {limit} moves")


def dm_of(world: World, live: Any, seat: int) -> Any:
    return player(world, seat).user.dm_channel.last_message


async def lay(world: World, live: Any, seat: int, move: Move) -> Any:
    """Lay ``move`` the one-click way: its button, or its line in the lay menu."""
    prefix = f"umtali:m:{live.id}:{live.version}"
    dm = dm_of(world, live, seat)
    ids = custom_ids(dm)
    user = player(world, seat).user
    if f"{prefix}:lay:{move}" in ids:
        return await user.click(dm, custom_id=f"{prefix}:lay:{move}")
    assert f"{prefix}:lay" in ids, ids
    return await user.select(dm, [str(move)], custom_id=f"{prefix}:lay")


async def test_a_meld_is_laid_in_one_click_from_the_panel(world: World) -> None:
    live = await start_match(world, variant="russian")
    await play_until(world, live, [MoveKind.DRAW, MoveKind.MELD, MoveKind.DISCARD])
    seat = live.session.to_act
    await play(world, live, Move.draw())
    await flush(world)
    view = live.session.view(seat)
    melds = [m for m in view.legal_moves if m.kind is MoveKind.MELD]
    extensions = [m for m in view.legal_moves if m.kind is MoveKind.EXTEND]
    assert melds
    ids = custom_ids(dm_of(world, live, seat))
    prefix = f"umtali:m:{live.id}:{live.version}"
    if len(melds) + len(extensions) <= 5:
        # Every meld and extension the engine allows is a button of its own, and only those.
        buttons = sorted(i.removeprefix(f"{prefix}:lay:") for i in ids if ":lay:" in i)
        assert buttons == sorted(str(m) for m in melds + extensions)
    # The card menu stays, to pick a meld card by card.
    assert f"{prefix}:meld" in ids
    move = melds[0]
    version = live.version
    result = await lay(world, live, seat, move)
    assert result.acknowledged and live.version == version + 1
    laid = {c for p in live.session.view(seat).plays if p.player == seat for c in p.cards}
    assert set(move.card_list) <= laid
    # The panel clicked shows the hand without those cards.
    embed = dm_of(world, live, seat).embeds[0]
    hand_field = next(f for f in embed.fields if "cards" in (f.name or ""))
    assert not any(str(c) in hand_field.value.split() for c in move.card_list)


async def test_a_common_turn_takes_three_clicks(world: World) -> None:
    """Draw, one meld, discard: three clicks on the DM panel, and the turn is over."""
    live = await start_match(world, variant="russian")
    await play_until(world, live, [MoveKind.DRAW, MoveKind.MELD, MoveKind.DISCARD])
    seat = live.session.to_act
    user = player(world, seat).user
    hand = live.session.hand
    before = len(world.env.http_requests)
    await user.click(dm_of(world, live, seat), custom_id=f"umtali:m:{live.id}:{live.version}:draw")
    meld = next(m for m in live.session.view(seat).legal_moves if m.kind is MoveKind.MELD)
    await lay(world, live, seat, meld)
    discard = GreedyPlayer().choose(live.session.view(seat))
    assert discard.kind is MoveKind.DISCARD
    await user.select(dm_of(world, live, seat), [str(discard)],
                      custom_id=f"umtali:m:{live.id}:{live.version}:discard")
    await flush(world)
    clicks = [r for r in world.env.http_requests[before:]
              if r.path.startswith("/interactions/") and r.path.endswith("/callback")]
    assert len(clicks) == 3
    assert live.session.moves[-3:] == [Move.draw(), meld, discard]
    # The turn is over (the opponent's, or the next hand's if this discard ended the hand).
    assert live.session.hand is not hand or live.session.to_act == 1 - seat
