"""A DM panel sent just before the bot stopped, its id never saved: once the bot is back, it
loses its buttons (the panel on its way is saved first, ``dm0_sending``), and a click on a DM
panel that is not the seat's panel is answered and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, custom_ids, flush, play, player, start_match
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


class Stopped(Exception):
    """The bot stopped here."""


def _panels(actor: Any, live: LiveMatch) -> list[Any]:
    """The messages of ``actor``'s DM that offer the match's moves."""
    prefix = f"umtali:m:{live.id}:"
    return [m for m in actor.user.dm_channel.history()
            if any(c.startswith(prefix) for c in custom_ids(m))]


async def _drawing(world: World) -> LiveMatch:
    """A match played on to a turn that starts with a draw."""
    live = await start_match(world)
    while not any(m.kind is MoveKind.DRAW
                  for m in live.session.view(live.session.to_act).legal_moves):
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    return live


async def test_a_panel_sent_as_the_bot_stopped_loses_its_buttons_when_it_is_back(
        world: World, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _drawing(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    actor = player(world, seat)
    [panel] = _panels(actor, live)

    async def stop(*args: object, **kwargs: object) -> None:
        raise Stopped

    # A new panel (a reminder's, say) sent; the bot stops before its id is saved.
    monkeypatch.setattr(svc.store, "set_dm_message", stop)
    with pytest.raises(Stopped):
        await svc.delivery.send_hand(live, seat, new=True)
    assert len(_panels(actor, live)) == 2
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    await flush(world)
    restored = new.matches.matches[live.id]
    # One panel offers the moves: the one saved.
    assert [m.id for m in _panels(actor, live)] == [restored.dm_message_ids[seat]] == [panel.id]
    row = await new.matches.store.match(live.id)
    assert row is not None and not any(row.dm_sending)


@pytest.mark.parametrize("older", [True, False], ids=["older", "newer"])
async def test_a_click_on_a_panel_that_is_not_the_seats_changes_nothing(
        world: World, older: bool) -> None:
    live = await _drawing(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    actor = player(world, seat)
    # A panel in the seat's DM whose id was never saved (sent as the bot stopped, no mark
    # left: a bot from before the mark), older or newer than the panel.
    shown = await svc.dm_panel(live, seat).drawn()
    user = await world.bot.fetch_user(live.player_ids[seat])
    stray = await user.send(**shown.send())
    if older:
        await svc.delivery.send_hand(live, seat, new=True)
        await flush(world)
    assert stray.id != live.dm_message_ids[seat]
    assert (stray.id < (live.dm_message_ids[seat] or 0)) == older
    [orphan] = [m for m in _panels(actor, live) if m.id == stray.id]
    shown_at = live.version
    if older:
        # A move made first: the stray shows an earlier position (one offering the match as
        # it is is played: the last test).
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
        await flush(world)
        assert live.session.to_act == seat and not live.over
    version = live.version
    r = await actor.user.click(orphan, custom_id=f"umtali:m:{live.id}:{shown_at}:draw")
    await flush(world)
    assert r.acknowledged
    said = " ".join(m.content for m in [r.response, *r.followups] if m is not None)
    # Where the panel in play is: below the one clicked, or (this one never saved) above.
    assert ("replaced by a newer one" if older else "the one above it") in said, said
    assert r.ephemeral
    assert live.version == version
    row = await svc.store.match(live.id)
    assert row is not None and row.version == version
    # Taken off once the panel it is not was saved after it; one newer is left to the look
    # through the DM after a restart.
    assert (stray.id in [m.id for m in _panels(actor, live)]) != older


async def test_a_panel_read_back_as_its_save_returns_takes_the_buttons_off_the_older(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new panel's id saved, and read back by a delivery before the save returns (on
    PostgreSQL the connection is given back to its pool after the commit, another read going
    first): ``Owners.fell_behind`` takes it as the seat's panel, and the send took it for the
    one it replaced. The older one kept its buttons and the seat's mark was cleared."""
    live = await _drawing(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    actor = player(world, seat)
    [older] = _panels(actor, live)
    save = svc.store.set_dm_message

    async def read_back(*args: Any, **kwargs: Any) -> bool:
        saved = await save(*args, **kwargs)
        # Committed: a delivery (the other seat's hand, say) reads the panels meanwhile.
        svc.delivery.enqueue(live, Batch(hands={1 - seat}))
        await svc.delivery.flush(live.id)
        return saved

    monkeypatch.setattr(svc.store, "set_dm_message", read_back)
    await svc.delivery.send_hand(live, seat, new=True)
    monkeypatch.undo()
    await flush(world)
    newer = actor.user.dm_channel.last_message
    assert newer.id > older.id and live.dm_message_ids[seat] == newer.id
    assert [m.id for m in _panels(actor, live)] == [newer.id]


async def _replaced_offering(world: World) -> tuple[LiveMatch, Any, Any]:
    """A seat's panel replaced by a newer one, its buttons then put back (as a click's late
    answer puts them): the match, the seat's player and the replaced panel."""
    live = await _drawing(world)
    svc = world.bot.matches
    assert svc is not None
    seat = live.session.to_act
    actor = player(world, seat)
    [older] = _panels(actor, live)
    await svc.delivery.send_hand(live, seat, new=True)
    await flush(world)
    assert live.dm_message_ids[seat] not in (None, older.id)
    shown = await svc.dm_panel(live, seat).drawn()
    await older.edit(**shown.edit())
    [replaced] = [m for m in _panels(actor, live) if m.id == older.id]
    return live, actor, replaced


async def test_a_click_on_a_replaced_panel_offering_the_match_as_it_is_is_played(
        world: World) -> None:
    """A panel replaced by a newer one whose buttons are still those of the match as it is
    (put back by a click's answer from a process that did not know of the newer panel: the
    two-process soak's seed 1077): the member pressed what was shown, the turn's move as it
    is. It was answered "That panel was replaced by a newer one", nothing played; now it is
    played there, its buttons then taken off, the newer panel offering the rest."""
    live, actor, clicked = await _replaced_offering(world)
    seat, version = live.session.to_act, live.version
    r = await actor.user.click(clicked, custom_id=f"umtali:m:{live.id}:{version}:draw")
    await flush(world)
    said = " ".join(m.content for m in [r.response, *r.followups] if m is not None)
    assert "replaced" not in said, said
    assert live.version == version + 1 and live.session.moves[-1].kind is MoveKind.DRAW
    assert [m.id for m in _panels(actor, live)] == [live.dm_message_ids[seat]]


async def test_a_click_on_a_replaced_panel_of_a_match_ended_at_that_version_takes_it_off(
        world: World) -> None:
    """As the last test, but the match abandoned before the click: an ending keeps the
    version, so the replaced panel's buttons still read as the match as it is. Nothing is
    played, and the click takes them off, as on any replaced panel (it used to be answered
    "This match is over." and left offering the moves, the newer panel showing the end)."""
    live, actor, clicked = await _replaced_offering(world)
    svc = world.bot.matches
    assert svc is not None
    version = live.version
    assert await svc.abandon(live)
    await flush(world)
    assert live.over and live.version == version
    r = await actor.user.click(clicked, custom_id=f"umtali:m:{live.id}:{version}:draw")
    await flush(world)
    assert r.acknowledged and live.version == version
    assert _panels(actor, live) == [], "the replaced panel still offers the moves"
