"""The network failing as a click on the DM panel is answered (not a refusal of Discord's: an
``aiohttp`` error): the move stands, and the panel, marked as shown before the answer was
drawn, is handed back to the bot's own edit, which brings it to the move; no ERROR logged."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import pytest

import cogs.umtali.actions as actions
from tests.discord_helpers import World, custom_ids, flush, player, start_match


async def test_a_network_failure_on_a_dm_answer_leaves_the_panel_to_the_delivery(
        world: World, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world, variant="russian")
    actor = player(world, live.session.to_act)
    await flush(world)
    real = actions.edit_clicked  # type: ignore[attr-defined]
    failed: list[int] = []

    async def broken(interaction: Any, **kwargs: Any) -> None:
        if not failed:
            failed.append(1)
            raise aiohttp.ClientOSError(104, "Connection reset by peer")
        await real(interaction, **kwargs)

    monkeypatch.setattr(actions, "edit_clicked", broken)
    before = live.version
    with caplog.at_level(logging.INFO):
        await actor.user.click(actor.user.dm_channel.last_message,
                               custom_id=f"umtali:m:{live.id}:{before}:draw")
        await flush(world)
    assert failed and live.version == before + 1
    ids = custom_ids(actor.user.dm_channel.last_message)
    assert any(c.startswith(f"umtali:m:{live.id}:{live.version}:") for c in ids), ids
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
