"""Issue 14: several processes sharing one database (docs/processes.md).

Two match services stand for two bot processes: the bot's own (``main``) and another (``p2``)
with its own connection to the same database (a SQLite file, and a PostgreSQL database), talking
to the same (simulated) Discord. A
member's click reaches whichever process the test routes it to (as a DM reaches shard 0's).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, UmtaliBot
from cogs.umtali.clock import heartbeat
from cogs.umtali.live import LiveMatch
from cogs.umtali.owners import LEASE, RENEW_EVERY
from cogs.umtali.service import MatchService
from data.db import Row
from data.store import Store
from tests.discord_helpers import Clock, World, flush, play_out, player, start_match, table_message
from tests.test_faults_timers import to_turn_end
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer


@pytest.fixture
def make_bot(made_bots: list[UmtaliBot], store_target: str | Path,
             clock: Clock) -> Callable[[], UmtaliBot]:
    """The bot's store on each backend in turn (tests/conftest.py's, on SQLite alone)."""
    def make() -> UmtaliBot:
        settings = Settings(token="test", database_url=store_target) \
            if isinstance(store_target, str) else Settings(token="test", db_path=store_target)
        bot = UmtaliBot(settings, timers=False, computer_pause=0, clock=clock)
        made_bots.append(bot)
        return bot

    return make


@pytest.fixture
async def other(world: World, store_target: str | Path) -> AsyncIterator[MatchService]:
    """A second process, ``p2``, started after the bot."""
    store = await Store.open(store_target)
    svc = MatchService(world.bot, store, clock=world.clock, computer_pause=0, owner="p2")
    await svc.load_active()
    yield svc
    await svc.close()
    await store.close()


def main_of(world: World) -> MatchService:
    svc = world.bot.matches
    assert svc is not None
    return svc


@contextmanager
def via(world: World, svc: MatchService) -> Iterator[None]:
    """What members do meanwhile reaches the process ``svc``."""
    before = world.bot.matches
    world.bot.matches = svc
    try:
        yield
    finally:
        world.bot.matches = before


async def row(world: World, match_id: int) -> Row:
    """The match's row as the database has it (read through the bot's own connection)."""
    found = await main_of(world).store.db.fetchone("SELECT * FROM matches WHERE id = ?",
                                                   (match_id,))
    assert found is not None
    return found


async def results(world: World) -> list[Row]:
    return await main_of(world).store.db.fetchall("SELECT * FROM session_results")


async def settle(world: World, *services: MatchService) -> None:
    for svc in services:
        await svc.computer_idle()
        await svc.flush()
    await world.env.settle()


async def act_via(world: World, svc: MatchService, match_id: int, move: Move) -> None:
    """The player to act makes ``move`` as a member would, and ``svc``'s process gets the
    click: a draw from the DM panel, a discard from the table's My hand panel (a meld, which
    only ``/umtali play`` types, goes to the service directly)."""
    live = await svc.lookup(match_id)
    assert live is not None
    seat, version = live.session.to_act, live.version
    actor = player(world, seat)
    prefix = f"umtali:m:{match_id}:{version}"
    with via(world, svc):
        if move.kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            action = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}
            dm = actor.user.dm_channel.last_message
            result = await actor.user.click(dm, custom_id=f"{prefix}:{action[move.kind]}")
            assert result.acknowledged
        elif move.kind is MoveKind.DISCARD:
            panel = await actor.click(await table_message(world, live),
                                      custom_id=f"umtali:m:{match_id}:hand")
            assert panel.ephemeral, panel
            result = await actor.select(panel.response, [str(move)],
                                        custom_id=f"{prefix}:discard")
            assert result.acknowledged
        else:
            assert (await svc.act(live, live.player_ids[seat], move)).ok
    saved = await svc.store.match(match_id)
    assert saved is not None and saved.version >= version + 1, move


async def greedy_via(world: World, svc: MatchService, match_id: int) -> Move:
    live = await svc.lookup(match_id)
    assert live is not None
    move = GreedyPlayer().choose(live.session.view(live.session.to_act))
    await act_via(world, svc, match_id, move)
    return move


def said(world: World, live: LiveMatch, text: str) -> list[Any]:
    from tests.discord_helpers import thread_of
    return [m for m in thread_of(world, live).history() if text in (m.content or "")]


async def test_a_move_through_another_process_works_and_moves_the_match_there(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await play_out(world, live, moves=2)
    assert (await row(world, live.id))["owner"] == "main" and live.id not in other.matches
    # The next moves reach the other process (a DM goes to shard 0, say): they are played,
    # and the match is held there from then on.
    while True:
        move = await greedy_via(world, other, live.id)
        await settle(world, main, other)
        if move.kind is MoveKind.DISCARD:
            break
    assert (await row(world, live.id))["owner"] == "p2" and live.id in other.matches
    moved = other.matches[live.id]
    # The turn's end was announced once, by the process that made it.
    announced = moved.last_turn.split("\n")[0]
    assert len(said(world, moved, announced)) == 1
    assert json.loads((await row(world, live.id))["unsent"]) == []
    # The first process drops its copy at its next renewal; its timers no longer run it.
    await main.check_timers()
    assert live.id not in main.matches
    # ... and a move reaching it again takes the match back, from the database.
    await greedy_via(world, main, live.id)
    await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "main" and live.id in main.matches
    world.clock.advance(RENEW_EVERY)
    await other.check_timers()
    assert live.id not in other.matches


async def test_a_stale_copy_plays_a_typed_move_on_the_match_as_it_is(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await to_turn_end(world, live)
    stale = live  # the first process's copy, about to fall behind
    await greedy_via(world, other, live.id)  # the turn's end, made in the other process
    await settle(world, main, other)
    assert stale.version == (await row(world, live.id))["version"] - 1
    # The next player types their move to the first process, which still has the old copy:
    # its save finds the match moved on, reloads it, and plays the move on it.
    fresh = await other.lookup(live.id)
    assert fresh is not None
    seat = fresh.session.to_act
    move = GreedyPlayer().choose(fresh.session.view(seat))
    outcome = await main.act(stale, stale.player_ids[seat], move)
    assert outcome.ok, outcome.error
    assert (await row(world, live.id))["version"] == fresh.version + 1
    assert (await row(world, live.id))["owner"] == "main" and main.matches[live.id] is stale


async def test_the_same_click_reaching_both_processes_is_played_once(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    version = live.version
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    theirs = await other.lookup(live.id)
    assert theirs is not None and theirs is not live
    outcomes = await asyncio.gather(
        main.act(live, live.player_ids[seat], move, version),
        other.act(theirs, live.player_ids[seat], move, version))
    await settle(world, main, other)
    assert sorted(o.ok for o in outcomes) == [False, True]
    assert (await row(world, live.id))["version"] == version + 1
    counted = await main.store.db.fetchone("SELECT COUNT(*) AS n FROM moves WHERE match_id = ?",
                                           (live.id,))
    assert counted is not None and counted["n"] == version + 1


async def test_a_timer_fires_in_exactly_one_process(
        world: World, other: MatchService) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    assert live.deadline is not None
    deadline = live.deadline
    # The first process stops renewing (paused, say): its lease runs out and the other
    # process takes the match over.
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    assert (await row(world, live.id))["owner"] == "p2"
    theirs = other.matches[live.id]
    # It never noted when it was last alive; its last renewal of the lease tells: the turn
    # gets back the time since.
    assert theirs.deadline is not None
    assert theirs.deadline == pytest.approx(deadline + LEASE + 1)
    deadline = theirs.deadline
    # The first process has not renewed yet and still has its copy: its timers do nothing.
    main.owners._renewed_at = world.clock()
    before = len(said(world, live, "seconds left"))
    await main.warn_if_due(live, deadline - 30)
    assert not await main.forfeit_if_late(live, deadline + 1)
    await settle(world, main, other)
    assert len(said(world, live, "seconds left")) == before
    assert (await row(world, live.id))["status"] == "active"
    # Both processes tick through the warning and the deadline: one warning, one forfeit.
    for now in (deadline - 30, deadline - 29, deadline + 1, deadline + 2):
        await asyncio.gather(main.check_timers(now=now), other.check_timers(now=now))
        await settle(world, main, other)
    assert len(said(world, live, "seconds left")) == before + 1
    assert theirs.over and theirs.session.how == "timed out"
    assert len(said(world, live, "timed out")) == 1
    assert [r["match_id"] for r in (await results(world))] == [live.id]
    assert live.id not in main.matches


async def kill(svc: MatchService) -> None:
    """What SIGKILL leaves of a process: its saves, and nothing more from it (no last
    heartbeat, no lease given up, nothing posted)."""
    await svc.delivery.close()
    await svc.computers.close()
    svc.matches.clear()


async def test_a_killed_process_has_its_match_taken_over_within_seconds(
        world: World, other: MatchService) -> None:
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    await to_turn_end(world, live)
    assert live.deadline is not None
    await heartbeat(main)  # its last sign of life
    # The turn's last move is saved, and the process dies before announcing it.
    seat = live.session.to_act
    discard = GreedyPlayer().choose(live.session.view(seat))
    assert (await main.act(live, live.player_ids[seat], discard)).ok
    await kill(main)
    saved = (await row(world, live.id))
    assert saved["owner"] == "main" and json.loads(saved["unsent"]), "nothing posted"
    old_deadline = saved["deadline"]
    # Within a lease and a tick, the other process holds it: the turn gets back the time
    # lost, the announcement is posted once, the timer runs there.
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == "p2"
    theirs = other.matches[live.id]
    assert theirs.deadline is not None and theirs.deadline >= old_deadline + LEASE
    assert json.loads((await row(world, live.id))["unsent"]) == []
    turn_end = live.last_turn.split("\n")[0]
    assert len(said(world, theirs, turn_end)) == 1
    # The players play on through the other process, to the end; the result is counted once.
    with via(world, other):
        for _ in range(2000):
            if theirs.over:
                break
            await greedy_via(world, other, live.id)
            await settle(world, other)
    assert theirs.over
    assert [r["match_id"] for r in (await results(world))] == [live.id]
    plies = [r["ply"] for r in await other.store.db.fetchall(
        "SELECT ply FROM moves WHERE match_id = ? ORDER BY ply", (live.id,))]
    assert plies == list(range(len(plies)))


async def test_a_killed_process_practice_match_plays_on_with_the_computer_elsewhere(
        world: World, other: MatchService) -> None:
    result = await world.alice.slash(world.channel, "umtali practice")
    assert result.acknowledged
    await flush(world)
    main = main_of(world)
    [live] = main.matches.values()
    await kill(main)
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    theirs = other.matches[live.id]
    assert theirs.computer_seat is not None
    # The member plays on there; the computer answers there.
    before = theirs.version
    for _ in range(6):
        if theirs.over:
            break
        assert theirs.session.to_act != theirs.computer_seat
        await greedy_via(world, other, live.id)
        await settle(world, other)
    moved = [m for m in theirs.session.moves[before:]]
    assert len(moved) > 6 or theirs.over, "the computer played in the other process"
    assert (await row(world, live.id))["owner"] == "p2"


async def test_a_restarted_process_takes_back_its_own_matches_at_once(
        world: World, store_target: str | Path, other: MatchService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cogs.umtali.owners.CLAIMS", 1)  # claimed page by page
    live = await start_match(world)
    main = main_of(world)
    await kill(main)
    # Restarted with the same name before its lease ran out: nobody else took the match,
    # and it is its own again at once.
    store = await Store.open(store_target)
    again = MatchService(world.bot, store, clock=world.clock, computer_pause=0)
    try:
        assert await again.load_active() == 1
        await other.check_timers()
        assert live.id in again.matches and live.id not in other.matches
        assert (await row(world, live.id))["owner"] == "main"
    finally:
        await again.close()
        await store.close()


def test_a_process_is_named_by_its_setting_else_its_shards_else_main() -> None:
    from bot import SettingsError, load_settings, process_name

    assert process_name({}) == "main"
    assert process_name({"UMTALI_PROCESS": " p2 "}) == "p2"
    assert process_name({}, (1, 0)) == "shards-0-1"
    with pytest.raises(SettingsError, match="UMTALI_PROCESS"):
        process_name({"UMTALI_PROCESS": "two words"})
    assert load_settings({"DISCORD_TOKEN": "x", "UMTALI_PROCESS": "p2"}).process == "p2"
    assert load_settings({"DISCORD_TOKEN": "x"}).process == "main"


async def test_a_display_choice_made_through_another_process_redraws_the_hand_at_once(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    seat = live.seat_of(world.alice.id)
    assert seat is not None
    dm = world.alice.user.dm_channel.last_message
    assert dm.attachments, "the hand is a picture"
    with via(world, other):
        answer = await world.alice.slash(world.channel, "umtali display", pictures=False)
        assert answer.ephemeral
        await settle(world, main_of(world), other)
    assert not world.alice.user.dm_channel.last_message.attachments


async def test_the_table_is_posted_again_through_another_process(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import custom_ids, thread_of

    live = await start_match(world)
    thread = thread_of(world, live)
    old = live.table_message_id
    with via(world, other):
        # Someone else, in the match's thread: a snapshot, found in the database.
        peek = await world.carol.slash(thread, "umtali table")
        assert peek.ephemeral and "snapshot" in (peek.response.embeds[0].description or "")
        # A player: the live table moves, and the match is held where that was done.
        r = await world.alice.slash(thread, "umtali table")
        assert not r.ephemeral and r.response is not None
        await settle(world, main_of(world), other)
    assert (await row(world, live.id))["table_message_id"] == r.response.id != old
    assert (await row(world, live.id))["owner"] == "p2"
    [replaced] = [m for m in thread.history() if m.id == old]
    assert custom_ids(replaced) == [] and "moved" in (replaced.embeds[0].description or "")
    # The match goes on; the turn's end edits the new table.
    await greedy_via(world, other, live.id)
    await settle(world, main_of(world), other)
    assert other.matches[live.id].table_message_id == r.response.id


async def test_the_time_up_question_answered_through_another_process(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import custom_ids, thread_of

    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    absent = live.session.to_act
    assert live.deadline is not None
    await asyncio.gather(main.check_timers(now=live.deadline + 1),
                         other.check_timers(now=live.deadline + 1))
    await settle(world, main, other)
    thread = thread_of(world, live)

    def questions() -> list[Any]:
        return [m for m in thread.history() if "time for this turn is up" in (m.content or "")]

    [question] = questions()
    waiting = player(world, 1 - absent)
    # "Keep waiting" reaches the other process: it gives the time, and holds the match.
    with via(world, other):
        kept = await waiting.click(question, custom_id=next(
            c for c in custom_ids(question) if c.endswith(":wait")))
        assert kept.acknowledged and not kept.ephemeral
        await settle(world, main, other)
    assert (await row(world, live.id))["owner"] == "p2"
    deadline = (await row(world, live.id))["deadline"]
    assert deadline is not None
    # That time runs out too: asked once more, by the holder alone.
    for svc in (main, other, main):
        await svc.check_timers(now=deadline + 1)
        await settle(world, main, other)
    assert len(questions()) == 2
    again = questions()[-1]
    # The claim reaches the first process: the session ends there, its result counted once.
    claimed = await waiting.click(again, custom_id=next(
        c for c in custom_ids(again) if c.endswith(":claim")))
    assert claimed.acknowledged and not claimed.ephemeral
    await settle(world, main, other)
    assert (await row(world, live.id))["status"] == "finished"
    assert [(r["match_id"], r["how"]) for r in (await results(world))] == [(live.id, "timed out")]


async def test_the_time_up_question_is_voided_by_a_move_through_another_process(
        world: World, other: MatchService) -> None:
    main = main_of(world)
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None
    await main.check_timers(now=live.deadline + 1)
    await settle(world, main, other)
    [question] = said(world, live, "time for this turn is up")
    assert (await row(world, live.id))["question"] != ""
    # The absent player's first move reaches the other process, which loads the match (the
    # question with it) from the database: that process says the question is no longer needed.
    await greedy_via(world, other, live.id)
    await settle(world, main, other)
    [shown] = said(world, live, "time for this turn is up")
    assert shown.id == question.id and "no longer needed" in shown.content
    assert shown.components == []
    assert (await row(world, live.id))["question"] == ""


async def test_a_typed_move_and_its_autocomplete_reach_a_match_held_elsewhere(
        world: World, other: MatchService) -> None:
    from tests.discord_helpers import thread_of

    live = await start_match(world)
    main = main_of(world)
    assert live.id not in other.matches
    seat = live.session.to_act
    actor = player(world, seat)
    thread = thread_of(world, live)
    move = GreedyPlayer().choose(live.session.view(seat))
    with via(world, other):
        # The other process does not hold the match: it finds it in the database.
        choices = await actor.autocomplete(thread, "umtali play", "move", "")
        assert [c["value"] for c in choices] == \
            [str(m) for m in live.session.legal_moves()][:25]
        typed = await actor.slash(thread, "umtali play", move=str(move))
        assert typed.ephemeral
        await settle(world, main, other)
    assert (await row(world, live.id))["version"] == live.version + 1
    assert (await row(world, live.id))["owner"] == "p2" and live.id in other.matches
    # /umtali resign there too asks the question (not "You are not playing").
    fresh = other.matches[live.id]
    quitter = player(world, fresh.session.to_act)
    with via(world, main):
        asked = await quitter.slash(thread, "umtali resign")
    assert asked.ephemeral and "Resign the session?" in (asked.response.content or "")
