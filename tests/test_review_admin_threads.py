"""A match's thread that cannot be made because the network failed for a moment: the match is
played in the channel, as when Discord refuses the thread. The failure reached the accept's
handler, which stopped before posting the table: the match, made already, was never shown,
and held both players until its first deadline (with no clock, for good)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.discord_helpers import World, custom_ids, flush, the_match
from tests.test_faults_delivery_lasting import NETWORK, network_errors  # noqa: F401
from tests.test_faults_opening import _accept, _apologies


@pytest.mark.usefixtures("network_errors")
@pytest.mark.parametrize("options", [{}, {"time_control": "off"}])
async def test_a_thread_the_network_failed_to_make_leaves_the_match_in_the_channel(
        world: World, caplog: pytest.LogCaptureFixture, options: dict[str, Any]) -> None:
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages/*/threads",
                           status=NETWORK, times=None)
    _, answer = await _accept(world, **options)
    await flush(world)
    assert answer.acknowledged and not _apologies(answer), answer.followups
    live = the_match(world)
    assert live.channel_id == world.channel.id and world.channel.threads == []
    assert live.table_message_id is not None
    table = next(m for m in world.channel.history() if m.id == live.table_message_id)
    assert any(c.endswith(":hand") for c in custom_ids(table))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
