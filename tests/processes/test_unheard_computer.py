"""The computer's own move saved while the bot was told it failed (``cogs.umtali.unheard``),
on SQLite and PostgreSQL: read back and played on from there; if the read fails too, the
match is settled at the clock's next check and the computer plays on then, its move neither
lost nor played twice, and nothing logged as an error (the database failing is no bug)."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali.live import LiveMatch
from cogs.umtali.saved import saved_state
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, start_practice
from tests.processes.helpers import main_of, row, settle
from tests.processes.test_unheard_moves import MOVE
from tests.test_faults_timers import to_turn_end
from tests.unheard import lose_answer
from umtali.players import GreedyPlayer


async def _computers_turn(world: World) -> tuple[LiveMatch, MatchService, int]:
    """A practice match at the member's turn's end, the computer's pause long enough to
    set a fault up before it plays: the match, the service, the version before the turn
    ends."""
    live = await start_practice(world)
    main = main_of(world)
    assert live.computer_seat is not None and live.session.to_act != live.computer_seat
    await to_turn_end(world, live)
    main.computers.pause = 0.05
    return live, main, live.version


async def _member_ends_turn(live: LiveMatch, main: MatchService) -> None:
    seat = live.session.to_act
    assert (await main.act(live, live.player_ids[seat],
                           GreedyPlayer().choose(live.session.view(seat)))).ok
    assert live.session.to_act == live.computer_seat


async def _played_once(world: World, live: LiveMatch) -> None:
    """The computer's turn was played to its end, each move saved once, and memory is the
    database's: the member is to act."""
    saved = await row(world, live.id)
    assert live.session.to_act != live.computer_seat and not live.doubted
    assert (saved["version"], saved["state"]) == (live.version, saved_state(live.session))
    moves = await main_of(world).store.db.fetchall(
        "SELECT move FROM moves WHERE match_id = ? ORDER BY ply", (live.id,))
    assert [r["move"] for r in moves] == [str(m) for m in live.session.moves]


async def _played_at_next_check(world: World, main: MatchService, live: LiveMatch,
                                caplog: pytest.LogCaptureFixture) -> None:
    """Nothing logged as an error meanwhile; the clock's next check reads the match back,
    and the computer's turn is played, once."""
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await main.check_timers(now=world.clock.now + 1)
    await settle(world, main)
    await _played_once(world, live)


async def test_the_computers_move_saved_unheard_is_played_on(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live, main, version = await _computers_turn(world)
    await _member_ends_turn(live, main)
    lost = lose_answer(monkeypatch, main.store.db, MOVE)
    await settle(world, main)
    assert lost.answers == 1
    assert live.version > version + 1
    await _played_once(world, live)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_computers_move_unheard_and_unread_is_played_on_after_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    live, main, version = await _computers_turn(world)
    await _member_ends_turn(live, main)
    lost = lose_answer(monkeypatch, main.store.db, MOVE, reads_fail=1)
    await settle(world, main)
    assert (lost.answers, lost.reads) == (1, 1)
    # Its first move is saved, memory behind it; the computer waits for the clock.
    assert live.doubted and live.version == version + 1
    assert (await row(world, live.id))["version"] == version + 2
    await _played_at_next_check(world, main, live, caplog)


async def test_the_computers_move_unsaved_and_unread_is_played_once_after_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Its save failed before the COMMIT, and the read-back too: the next check finds it
    not saved, and the computer plays it then, once."""
    live, main, version = await _computers_turn(world)
    record, saved_as = main.store.record_move, main.owners.leases.saved_as
    failing = {"save": 0, "read": 0}

    async def unsaved(**kwargs: object) -> list[str]:
        if failing["save"]:
            failing["save"], failing["read"] = 0, 1
            raise OSError("the database is out of reach")
        return await record(**kwargs)  # type: ignore[arg-type]

    async def unread(*args: object) -> list[str] | None:
        if failing["read"]:
            failing["read"] = 0
            raise OSError("the database is out of reach")
        return await saved_as(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(main.store, "record_move", unsaved)
    monkeypatch.setattr(main.owners.leases, "saved_as", unread)
    await _member_ends_turn(live, main)
    failing["save"] = 1
    await settle(world, main)
    assert live.doubted and live.version == version + 1
    assert (await row(world, live.id))["version"] == version + 1
    await _played_at_next_check(world, main, live, caplog)
