"""A channel failing during a gateway outage is not given up (``cogs/umtali/delivery.py``): the
network or Discord is down, not the channel; moving every match to DMs for an outage would
drop what they had to post and leave them there for good."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.clock import gateway_back, gateway_lost
from tests.discord_helpers import World, flush, play, start_match, thread_of
from tests.test_faults_delivery_lasting import _cut_off, _hours, network_errors, slow_retries
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
