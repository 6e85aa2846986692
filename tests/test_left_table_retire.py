"""``/umtali table`` posted again while Discord fails, for now, to edit the table it replaces:
the new table is the live one and its player is answered as usual (no apology, no ERROR); the
old one loses its buttons a little later, not left offering them beside the live one."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World, custom_ids, flush, start_match, thread_of
from tests.test_faults_opening import server_errors  # noqa: F401

# The edit tried again 5 s later (virtual time): settling waits for it.
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.mark.usefixtures("server_errors")
async def test_a_replaced_table_discord_fails_to_edit_loses_its_buttons_later(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_match(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    world.env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old}", status=503,
                           times=1)
    caplog.set_level(logging.INFO)
    r = await world.alice.slash(thread, "umtali table")
    await flush(world)
    assert r.response is not None and not r.ephemeral
    assert live.table_message_id == r.response.id != old
    assert not [m for m in r.followups if "went wrong" in (m.content or "")]
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR], caplog.text
    await world.env.advance_time(60)
    await flush(world)
    [replaced] = [m for m in thread.history() if m.id == old]
    assert custom_ids(replaced) == []
    assert "moved" in (replaced.embeds[0].description or "")
