"""A channel or a player's DMs failing during a gateway outage are not given up
(``cogs/umtali/delivery.py``): the network or Discord is down, not the place. Given up, every
match went to DMs for an outage (what it had to post dropped), and a player's DMs waited for
the next move (with the channel lost, the player to act was never told of their turn)."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, flush, play, start_match, thread_of
from tests.slow_retries import slow_retries
from tests.test_faults_delivery_lasting import _cut_off, _hours, network_errors
from umtali.players import GreedyPlayer

__all__ = ["network_errors", "slow_retries"]  # the fixtures, used here too


@pytest.mark.usefixtures("network_errors")
async def test_a_channel_failing_through_a_gateway_outage_is_not_given_up(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="cogs.umtali.delivery")
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    seat = live.session.to_act
    _cut_off(world, thread.id)
    gateway_lost(svc, None)
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert not live.channel_lost and live.unsent
    # Two hours of outage, the channel failing all along: still tried, not given up.
    await _hours(world, lambda: live.channel_lost, hours=2)
    assert not live.channel_lost and live.unsent and svc.delivery._retrying
    # The network and the gateway come back: what waited is posted in the channel.
    world.env.backend.faults.clear()
    await gateway_back(svc, None)
    await _hours(world, lambda: not live.unsent, hours=0.2)
    assert not live.channel_lost and live.unsent == []
    assert any(m.content for m in thread.history())


@pytest.mark.usefixtures("network_errors")
async def test_dms_failing_through_a_gateway_outage_are_tried_until_it_ends(
        world: World) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    waiting = 1 - live.session.to_act
    dm = (world.alice, world.bob)[waiting].user.dm_channel.id
    _cut_off(world, dm)
    gateway_lost(svc, None)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    # Two hours of outage, that player's DMs failing all along: still tried.
    await _hours(world, lambda: not svc.delivery._retrying, hours=2)
    assert svc.delivery._retrying and live.dm_shown[waiting] != live.version
    # The network and the gateway come back: their panel shows their turn, unasked.
    world.env.backend.faults.clear()
    await gateway_back(svc, None)
    await _hours(world, lambda: live.dm_shown[waiting] == live.version, hours=0.2)
    assert live.dm_shown[waiting] == live.version and live.session.to_act == waiting
    assert live.dm_refused == [False, False] and not live.channel_lost


@pytest.mark.usefixtures("network_errors")
async def test_what_waited_through_an_outage_goes_out_as_it_ends_not_at_the_next_retry(
        world: World) -> None:
    """After a long outage the retries are two minutes apart: what waited (the turn's
    announcement, the next player's DM panel) goes out once the gateway is back, not up to
    two minutes later, the turn's clock running again meanwhile."""
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    thread = thread_of(world, live)
    seat = live.session.to_act
    waiting = 1 - seat
    dm = (world.alice, world.bob)[waiting].user.dm_channel.id
    _cut_off(world, thread.id)
    _cut_off(world, dm)
    gateway_lost(svc, None)
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    await _hours(world, lambda: False, hours=0.5)
    assert live.unsent and svc.delivery._retrying
    world.env.backend.faults.clear()
    await gateway_back(svc, None)
    await world.env.advance_time(5)
    await flush(world)
    assert live.unsent == [], "the announcement waits for the next retry"
    assert live.dm_shown[waiting] == live.version, "the next player's panel waits too"
    assert not live.channel_lost and any(m.content for m in thread.history())
