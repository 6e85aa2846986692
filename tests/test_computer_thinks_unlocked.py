"""fix150: the computer thinks without its match's lock (``Playing.computer_move``), on the
session as it was; its move is played under the lock only if the match is still there. A
think can take a minute (a busy pool, a hung worker): the player's own turn is posted
meanwhile, and an end, a display or the clock's check does not wait for it; a move chosen on
a match that ended or moved on is never played (thought again if it is still the computer's
turn: played once). And an admin's end posts the lines of a turn in progress first, as a
resignation does (``Endings.abandon``). SimCord, a real SQLite file; the think held in
``Computers._choose`` until the test lets it go."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.computer import Computers
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import (
    World,
    custom_ids,
    cut,
    end_match_as,
    flush,
    manager,
    play,
    start_match,
    the_match,
    thread_of,
)
from tests.processes.helpers import main_of, row, settle
from umtali.ai import LEVELS
from umtali.ai.resume import resumed
from umtali.codec import session_from_json
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer
from umtali.session import Session

pytestmark = pytest.mark.simcord(settle_timeout=30)

class Held:
    """The computer's decisions from ada's first discard on: the versions it was asked at,
    and the one held (the first that ``hold`` of its session picks) until ``go`` is set: a
    hung worker's minute, say."""

    def __init__(self, hold: Callable[[Session], bool]) -> None:
        self.hold = hold
        self.go = asyncio.Event()
        self.asked: list[int] = []
        self.held: list[int] = []


async def _thinking(world: World, monkeypatch: pytest.MonkeyPatch,
                    hold: Callable[[Session], bool] = lambda s: True,
                    level: str = "normal") -> tuple[LiveMatch, Held]:
    """A practice session played by ada up to her discard, its computer then thinking (held)
    on the decision ``hold`` picks, time run on till it does: the match, the record."""
    r = await world.alice.slash(world.channel, "umtali practice", level=level)
    await cut(world, r)
    live = the_match(world)
    held = Held(hold)
    real = Computers._choose

    async def slow(self: Computers, match: LiveMatch, seat: int, *session: Session) -> Move:
        # (the session it thinks on; the match's own before fix150, thought under its lock)
        seen = session[0] if session else match.session
        held.asked.append(len(seen.moves))
        if not held.held and held.hold(seen):
            held.held.append(len(seen.moves))
            await world.env.external_wait(held.go.wait(), reason="the computer thinks")
        return await real(self, match, seat, *session)

    assert live.session.to_act == 0 and live.computer_seat == 1
    while live.session.to_act == 0:
        move = GreedyPlayer().choose(live.session.view(0))
        if move.kind is MoveKind.DISCARD:
            monkeypatch.setattr(Computers, "_choose", slow)
        await play(world, live, move)
        if move.kind is not MoveKind.DISCARD:
            await flush(world)
    # Its pause, its moves not held, up to the one held: everything else settles meanwhile.
    for _ in range(20):
        if held.held:
            break
        await world.env.advance_time(1)
    assert held.held, held.asked
    await world.env.advance_time(5)
    assert len(live.session.moves) == held.held[-1], "the held move was played"
    return live, held


def _texts(world: World, live: LiveMatch) -> str:
    return "\n".join(m.content or "" for m in thread_of(world, live).history())


def _said(result: Any) -> str:
    parts = [result.response] if result.response is not None else []
    return "\n".join(str(m.content) for m in [*parts, *result.followups])


def _turn(session: Session, seat: int, level: str) -> list[Move]:
    """The moves the computer in ``seat`` makes in the turn it is to play in ``session``, as
    an uninterrupted player of ``level`` would."""
    session = session.copy()
    player = resumed(LEVELS[level], session, seat)
    made = []
    while session.to_act == seat and not session.over:
        move = player.choose(session.view(seat))
        session.apply(move, seat)
        made.append(move)
    return made


def _saved_version(db_path: Path, match_id: int) -> int:
    with sqlite3.connect(db_path) as c:
        [(version,)] = c.execute("SELECT version FROM matches WHERE id = ?",
                                 (match_id,)).fetchall()
    return int(version)


async def test_the_players_turn_is_posted_and_a_display_answered_while_the_computer_thinks(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live, held = await _thinking(world, monkeypatch)
    turn = live.last_turn
    assert "ada discards" in turn, turn
    # Posted while the computer thinks, not held back till it has moved.
    assert turn in _texts(world, live), "ada's turn is not posted while the computer thinks"
    assert live.unsent == []
    shown = await world.alice.slash(world.channel, "umtali display")
    assert shown.acknowledged
    assert len(live.session.moves) == held.held[0]
    # The computer moves once its think is over, from where it was asked.
    held.go.set()
    await flush(world)
    assert live.session.moves[held.held[0]] == _turn_from(live.session, held.held[0])[0]


def _turn_from(session: Session, version: int, seat: int = 1, level: str = "normal") -> list[Move]:
    """The computer's turn (seat 1, ``normal``: ``_thinking``'s) as played from ``version`` of
    ``session`` on by an uninterrupted player."""
    then, _ = Session.replay(session.rules, session.seed, session.moves[:version],
                             session.first_deal)
    return _turn(then, seat, level)


async def test_a_resignation_while_the_computer_thinks_ends_the_match_at_once_and_no_move_follows(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path) -> None:
    live, held = await _thinking(world, monkeypatch)
    ask = await world.alice.slash(world.channel, "umtali resign")
    button = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    done = await world.alice.click(ask.response, custom_id=button)
    # Answered while the computer still thinks (it did not wait for the think).
    assert "You resigned" in _said(done), _said(done)
    assert live.over and live.session.how == "resigned" and live.session.winner == 1
    at = len(live.session.moves)
    assert at == held.held[0]
    held.go.set()
    await flush(world)
    # The move it chose on the match in play is never played on the match over.
    assert len(live.session.moves) == at and _saved_version(db_path, live.id) == at


@pytest.mark.parametrize("mid_turn", [False, True], ids=["its turn's start", "mid-turn"])
async def test_an_admins_end_while_the_computer_thinks_ends_it_at_once_its_turn_posted_first(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path, mid_turn: bool) -> None:
    first: list[int] = []

    def hold(session: Session) -> bool:
        # The computer's first decision of its turn, or one after it drew (its lines held
        # back, ``LiveMatch.pending``).
        if not first:
            first.append(len(session.moves))
        return len(session.moves) > first[0] if mid_turn else True

    live, held = await _thinking(world, monkeypatch, hold)
    pending = list(live.pending)
    assert bool(pending) == mid_turn, pending
    boss = manager(world)
    done = await end_match_as(world, boss, member=world.alice)
    assert done.acknowledged and done.response.ephemeral
    assert "no result" in _said(done), _said(done)
    assert live.over and live.ended == "abandoned"
    at = len(live.session.moves)
    assert at == held.held[0]
    await flush(world)
    texts = _texts(world, live)
    # The lines of the computer's turn so far, then the seed revealed.
    for line in pending:
        assert line in texts, (line, texts)
    if pending:
        assert texts.index(pending[-1]) < texts.index("ended this match: no result")
    for line in pending:
        assert texts.count(line) == 1, (line, texts)
    held.go.set()
    await flush(world)
    assert len(live.session.moves) == at and _saved_version(db_path, live.id) == at


async def test_a_rated_turns_melds_are_posted_before_an_admins_end(world: World) -> None:
    live = await start_match(world)
    laid = None
    for _ in range(400):
        seat = live.session.to_act
        move = GreedyPlayer().choose(live.session.view(seat))
        await play(world, live, move)
        await flush(world)
        if move.kind in (MoveKind.MELD, MoveKind.EXTEND) and live.session.to_act == seat \
                and not live.over:
            laid = move
            break
    assert laid is not None, "no meld in play"
    pending = list(live.pending)
    assert pending and not any(line in _texts(world, live) for line in pending[-1:])
    boss = manager(world)
    done = await end_match_as(world, boss, member=world.alice)
    assert "no result" in _said(done), _said(done)
    await flush(world)
    texts = _texts(world, live)
    for line in pending:
        assert texts.count(line) == 1, (line, texts)
    assert texts.index(pending[-1]) < texts.index("ended this match: no result")


async def test_a_match_moved_on_while_the_computer_thinks_is_thought_again_and_played_once(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path) -> None:
    live, held = await _thinking(world, monkeypatch)
    at = held.held[0]
    svc = world.bot.matches
    assert svc is not None
    # Read back meanwhile (as any read-back is: an answer lost, a copy behind): the session
    # is another object, the match where it was. The clock's check asks for no other think.
    async with live.lock:
        await svc._reload(live)
    await svc.check_timers()
    before = live.session
    held.go.set()
    await flush(world)
    # Asked again on the session read back, its first choice thrown away; its turn played once.
    assert held.asked.count(at) == 2 and held.asked[:2] == [at, at], held.asked
    assert before is not live.session
    turn = _turn_from(live.session, at)
    assert live.session.moves[at:at + len(turn)] == turn
    assert _saved_version(db_path, live.id) == len(live.session.moves)


async def test_a_restart_while_the_computer_thinks_plays_its_turn_once(
        world: World, monkeypatch: pytest.MonkeyPatch, db_path: Path,
        make_bot: Callable[[], UmtaliBot]) -> None:
    live, held = await _thinking(world, monkeypatch)
    at = held.held[0]
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    held.go.set()
    await new.matches.computer_idle()
    await new.matches.flush()
    await world.env.settle()
    # The old process's think was given up with it: its copy never moved.
    assert len(live.session.moves) == at
    turn = _turn_from(restored.session, at)
    assert restored.session.moves[at:at + len(turn)] == turn
    assert _saved_version(db_path, live.id) == len(restored.session.moves)
    assert restored.session.to_act == 0 or restored.over


async def test_a_match_taken_by_another_process_while_the_computer_thinks_is_played_there_once(
        world: World, monkeypatch: pytest.MonkeyPatch, other: MatchService,
        caplog: pytest.LogCaptureFixture) -> None:
    live, held = await _thinking(world, monkeypatch)
    at = held.held[0]
    main = main_of(world)
    seat = live.computer_seat
    assert seat is not None
    # Another process takes the match (this one stalled past its lease, say) and its computer
    # plays the turn there, while this one's still thinks.
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs.session.to_act == seat
    assert await other.owners.leases.take(live.id, other.owners.until())
    caplog.set_level(logging.INFO, logger="cogs.umtali.computer")
    played = await other.computer_move(theirs, seat, other.computers._choose)
    assert played is not None and played.ok
    held.go.set()
    await settle(world, main, other)
    # Saved by the holder alone: this process's move, chosen on the match as it was, is not.
    saved = await row(world, live.id)
    session = session_from_json(json.loads(saved["state"]))
    turn = _turn_from(session, at, seat)
    assert session.moves[at:at + len(turn)] == turn
    assert saved["owner"] == other.owners.name
    assert any("another process" in r.getMessage() for r in caplog.records
               if r.name == "cogs.umtali.computer"), caplog.text
