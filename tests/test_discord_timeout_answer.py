"""A call to Discord that gives up after its timeout (``rest_timeout``: the network or Discord
stalled) as a member's command runs: Discord failing for a moment, said so to the member, and
logged as a warning; it was apologised for as a bug of ours, with an ERROR."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import assert_error

from cogs.umtali import tables
from cogs.umtali.errors import APOLOGY
from tests.discord_helpers import World, start_match, thread_of


async def test_a_discord_call_timing_out_in_a_command_is_discord_failing_not_a_bug(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)

    async def stalled(*args: Any, **kwargs: Any) -> Any:
        raise TimeoutError
    monkeypatch.setattr(tables, "post_public", stalled)
    result = await world.alice.slash(thread_of(world, live), "umtali table")
    said = " ".join(str(f.content) for f in result.followups) + str(result.response.content)
    assert_error(world.env)  # (SimCord's note of the command's exception)
    assert "Discord failed for a moment" in said and APOLOGY[:20] not in said
