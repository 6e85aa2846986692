"""The computer's move refused because another process saved first (two bot processes on one
database, docs/processes.md): a race that is expected, logged at INFO, not ERROR; the match
goes on, the computer's turn played out where the match is held now."""

from __future__ import annotations

import json
import logging

import pytest

from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_practice
from tests.processes.helpers import main_of, row, settle
from umtali.codec import session_from_json
from umtali.players import GreedyPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)


async def test_a_computer_move_saved_first_elsewhere_is_no_error_and_the_match_goes_on(
        world: World, other: MatchService, caplog: pytest.LogCaptureFixture) -> None:
    live = await start_practice(world)
    main = main_of(world)
    seat = live.computer_seat
    assert seat is not None
    # This process's computer waits before it plays; meanwhile another process, which took
    # the match (this one stalled past its lease, say), plays the computer's move first.
    main.computers.pause = 0.5
    # ada plays up to the end of her turn.
    while live.session.to_act != seat:
        move = GreedyPlayer().choose(live.session.view(0))
        assert (await main.act(live, world.alice.id, move, live.version)).ok
        if live.session.to_act == 0:
            await flush(world)
    # Her turn shown (its announcements last) while this process still holds the match:
    # else, finding it held elsewhere, it lets its copy go before its computer wakes.
    await main.flush()
    main.computers.next(live)
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs.session.to_act == seat
    assert await other.owners.leases.take(live.id, other.owners.until())
    caplog.set_level(logging.INFO, logger="cogs.umtali.computer")
    played = await other.computer_move(theirs, seat, other.computers._choose)
    assert played is not None and played.ok
    await main.computer_idle()
    await settle(world, main, other)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert any("another process" in r.getMessage() for r in caplog.records
               if r.name == "cogs.umtali.computer"), caplog.text
    # The computer's turn was played out where the match is held now: ada's turn again.
    saved = await row(world, live.id)
    session = session_from_json(json.loads(saved["state"]))
    assert session.to_act == 0 or session.over, session.to_act
    assert saved["owner"] == "p2"
