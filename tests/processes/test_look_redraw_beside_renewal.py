"""A look changed through another process is drawn again after the lease renewal that read it,
beside it, not under the renewal's lock: the redraw reads the database (who holds each match of
the server), and a slow read there (a busy database) must not hold the renewals back, or the
leases could lapse and another process take matches this one plays on."""

from __future__ import annotations

import asyncio

import pytest

from cogs.umtali.claims import LEASE
from cogs.umtali.display import watch_guild_looks
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.pictures import TABLE_FILE
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_match
from tests.processes.helpers import main_of, row, settle
from tests.test_review_admin_settings_redraw import _admin, _table, _to_turn_end_via


async def test_a_slow_read_of_the_redraw_holds_no_renewal_back(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    watch_guild_looks(other)  # as the other process's admin cog would
    boss = _admin(world)
    live = await start_match(world)
    main = main_of(world)
    await _to_turn_end_via(world, other, live.id)
    assert (await row(world, live.id))["owner"] == "p2"
    held = other.matches[live.id]
    ok = await boss.slash(world.channel, "umtali-admin settings", pictures=False)
    assert ok.ephemeral, ok.response.content
    # The redraw's read of who holds the match waits on the database until let go.
    holder, reading, let_go = other.owners.leases.holder, asyncio.Event(), asyncio.Event()

    async def slow(match_id: int) -> str | None:
        reading.set()
        await let_go.wait()
        return await holder(match_id)

    monkeypatch.setattr(other.owners.leases, "holder", slow)
    try:
        world.clock.advance(RENEW_EVERY)
        assert await asyncio.wait_for(other.owners.renew(world.clock.now), 2)
        await asyncio.wait_for(reading.wait(), 2)  # the redraw, under way, waits on its read
        # The next renewal too goes on meanwhile, and the lease is extended.
        world.clock.advance(RENEW_EVERY)
        assert await asyncio.wait_for(other.owners.renew(world.clock.now), 2)
        assert (await row(world, live.id))["lease_until"] == world.clock.now + LEASE
        assert [a.filename for a in _table(world, held).attachments] == [TABLE_FILE]
    finally:
        let_go.set()
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "p2"
    table = _table(world, held)
    assert table.attachments == [] and table.embeds[0].fields, "not redrawn once read"
