"""A process knows a seat's DMs refuse the bot once one of its copies of the match found it:
each refused request counts towards Discord's limit of invalid requests, so no copy of that
process is to send there again in the hand. A copy read before the refusal was saved (an
action's, its lookup answered just before) knew nothing of it: its move saved, it became the
process's held copy and sent the seat's panel to the closed DMs again, refused twice more (an
edit and a new message). The soak's seed 1165 (two processes) found it: shard 1's copy shown
again as saved (``overtaken``) sent the seat's panel to DMs another copy of the same process
had found refused a moment before ("seat 0's DMs refuse the bot, as saved already")."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.umtali.in_dms import send_hand
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.owners import RENEW_EVERY
from cogs.umtali.refused_here import _found, found, known, saved_at
from cogs.umtali.service import MatchService
from data.leases import Leases
from tests.discord_helpers import World, player, start_match
from tests.processes.helpers import first_held, main_of, said, settle, swept
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def read_then_closed(world: World, other: MatchService
                           ) -> tuple[LiveMatch, MatchService, int, LiveMatch, int]:
    """A match held by the bot, a copy of it read by ``other``, then the waiting seat's DMs
    closed (an edit and a new message alike refused): the match, its holder, the seat, the
    copy and the seat's DM channel."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat = 1 - live.session.to_act
    copy = await other.lookup(live.id)
    assert copy is not None and not copy.dm_refused[seat]
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    return live, main, seat, copy, dm


async def test_a_copy_read_before_sends_nothing_to_dms_its_process_found_refused(
        world: World, other: MatchService) -> None:
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    # The seat waiting for its turn: the turn's end is shown on its panel.
    seat = 1 - live.session.to_act
    # An action reaching the other process reads its copy of the match now.
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live and not copy.dm_refused[seat]
    # The seat's DMs close: an edit and a new message alike refused.
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    # Another copy of the same process (one shown again as saved, say) finds that out.
    finder = await other.lookup(live.id)
    assert finder is not None and finder is not copy
    finder.dm_shown[seat] = None
    other.delivery.enqueue(finder, Batch(hands={seat}))
    await settle(world, other)
    assert finder.dm_refused[seat]
    known = len(world.env.http_requests)
    # The actions' moves are saved through the copy read before, to the turn's end: the other
    # process holds the match now, and shows them.
    while copy.session.to_act != seat:
        acting = copy.session.to_act
        move = GreedyPlayer().choose(copy.session.view(acting))
        assert (await other.act(copy, copy.player_ids[acting], move)).ok
    await settle(world, other, main)
    again = [f"{r.method} {r.path}" for r in world.env.http_requests[known:]
             if r.path.startswith(f"/channels/{dm}/")]
    assert again == [], f"sent again to DMs the process knew refused: {again}"
    assert copy.dm_refused[seat]
    assert len(said(world, live, "I can't send you direct messages")) == 1


async def test_a_finished_match_is_forgotten_by_its_process(world: World) -> None:
    """What a process knows of a match's refused DMs goes with the match once it is over
    (``MatchService.forget``): kept for a process's lifetime, every finished match would stay
    in it."""
    live = await start_match(world)
    svc = main_of(world)
    found(svc, live, 0)
    live.dm_refused[0] = False
    assert known(svc, live, 0)
    live.dm_refused[0] = live.dm_untold[0] = False
    svc.forget(live)  # dropped, held elsewhere now: still known here
    assert known(svc, live, 0)
    live.dm_refused[0] = live.dm_untold[0] = False
    await svc.resign(live, 1)  # the match ends, and is forgotten once its posts are out
    await settle(world, svc)
    assert live.over and not svc.tracked(live.id)
    live.dm_refused[0] = live.dm_untold[0] = False
    assert not known(svc, live, 0)


async def test_the_copy_held_knows_what_another_copy_here_found(
        world: World, other: MatchService) -> None:
    """A copy read before another copy of this process found a seat's DMs refusing the bot,
    held here once its move is saved, knows it itself (``Owners.adopt``: its own
    ``dm_refused``), not only through what this process found (``refused_here.known``, which
    every new DM from here checks under the seat's send lock, ``reminders.to_dms``, the
    removal's among them): the removal's DM sends nothing there (review81)."""
    live, main, seat, copy, dm = await read_then_closed(world, other)
    finder = await other.lookup(live.id)
    assert finder is not None and finder is not copy
    finder.dm_shown[seat] = None
    other.delivery.enqueue(finder, Batch(hands={seat}))
    await settle(world, other)
    assert finder.dm_refused[seat]
    acting = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(acting))
    assert move.kind is not MoveKind.DISCARD  # a draw: the turn goes on
    assert (await other.act(copy, copy.player_ids[acting], move)).ok
    await settle(world, other, main)
    assert other.matches.get(live.id) is copy and copy.dm_refused[seat]
    before = len(world.env.http_requests)
    await other.removals.removed(world.guild.id, "Guild")
    await settle(world, other, main)
    again = [f"{r.method} {r.path}" for r in world.env.http_requests[before:]
             if r.path.startswith(f"/channels/{dm}/")]
    assert again == [], f"the removal DM sent to DMs the process knew refused: {again}"


async def _found_by_other(world: World, other: MatchService,
                          live: LiveMatch) -> tuple[int, LiveMatch]:
    """The waiting seat's DMs close, and a copy of the other process finds it (its refusal
    saved): that seat, and that copy."""
    seat = 1 - live.session.to_act
    dm = player(world, seat).user.dm_channel.id
    world.env.inject_error("*", f"/channels/{dm}/messages*", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    finder = await other.lookup(live.id)
    assert finder is not None and finder is not live
    finder.dm_shown[seat] = None
    other.delivery.enqueue(finder, Batch(hands={seat}))
    await settle(world, other)
    assert finder.dm_refused[seat]
    return seat, finder


async def test_a_match_ended_elsewhere_is_forgotten_by_the_process_that_found_its_refusal(
        world: World, other: MatchService) -> None:
    """A process that found a seat's DMs refusing the bot in a match another process holds
    and ends keeps nothing of it once it learns the match is over (its renewal reads what
    it keeps of matches not held here): kept for the process's life before, a few bytes for
    every such match."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat, finder = await _found_by_other(world, other, live)
    await main.resign(live, 1)
    await settle(world, main, other)
    assert live.over and live.id not in other.matches
    world.clock.advance(RENEW_EVERY + 1)
    await other.check_timers()
    await settle(world, other)
    await swept(other)
    # A copy of that hand, not knowing of the refusal itself, learns nothing here.
    finder.dm_refused[seat] = finder.dm_untold[seat] = False
    assert not known(other, finder, seat), "the refusal is still kept by the other process"


async def test_dms_reopened_elsewhere_in_the_hand_are_not_taken_for_closed(
        world: World, other: MatchService) -> None:
    """DMs found refusing the bot by the other process, then reopened through the holder in
    the same hand (its try again claimed before that refusal was saved, reaching them after:
    the refusal cleared with its panel's id, ``dms_again``): a copy the other process reads
    once the match has moved on since knows them open, as saved, rather than take them for
    closed, as its process found them, until the next hand."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat, _ = await _found_by_other(world, other, live)
    # The player opens their DMs, and the holder's panel tried again reaches them.
    world.env.backend.faults.clear()
    live.dm_refused[seat] = True
    assert await send_hand(main, live, seat, new=True, retry=True, note="again")
    saved = await main.store.match(live.id)
    assert saved is not None and not saved.dm_refused[seat]
    # The turn goes on through the holder (a draw): the match moved on since both.
    acting = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(acting))
    assert move.kind is not MoveKind.DISCARD
    assert (await main.act(live, live.player_ids[acting], move)).ok
    await settle(world, main)
    fresh = await other.lookup(live.id)
    assert fresh is not None and not fresh.dm_refused[seat]
    assert not known(other, fresh, seat), "DMs reopened as saved taken for closed"


def _sweep_reads(svc: MatchService, monkeypatch: pytest.MonkeyPatch,
                 gate: asyncio.Event | None = None) -> list[str]:
    """The reads of ``svc`` asking whether matches are over (the sweep's), listed as made;
    held until ``gate`` is set, if given."""
    db = svc.owners.leases.db
    made: list[str] = []
    for name in ("fetchone", "fetchall"):
        real = getattr(db, name)

        async def read(sql: str, params: Any = (), real: Any = real) -> Any:
            if "FROM matches WHERE id" in sql and "status" in sql:
                made.append(sql)
                if gate is not None:
                    await gate.wait()
            return await real(sql, params)

        monkeypatch.setattr(db, name, read)
    return made


async def test_the_sweep_reads_every_match_kept_in_one_statement(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The renewal's sweep of the refusals kept for matches not held here asks whether they
    are over in one statement (chunked), not one read for each match at every renewal
    (review85): here two matches, the first ended through the holder."""
    first = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    await _found_by_other(world, other, first)
    await main.resign(first, 1)
    await settle(world, main, other)
    world.env.backend.faults.clear()
    second = await start_match(world)
    assert second.id != first.id
    await settle(world, main)
    seat, finder = await _found_by_other(world, other, second)
    made = _sweep_reads(other, monkeypatch)
    world.clock.advance(RENEW_EVERY + 1)
    assert await other.owners.renew(world.clock.now)
    await swept(other)
    assert len(made) == 1, f"the sweep read the matches one by one: {made}"
    # The ended match freed, the one in play kept.
    assert {key[0] for key in _found[other]} == {second.id}
    finder.dm_refused[seat] = finder.dm_untold[seat] = False
    assert known(other, finder, seat)


async def test_a_slow_sweep_does_not_hold_the_renewals(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep runs beside the renewal, after it (outside its lock), one at a time: its
    reads slow (a database busy), the leases are renewed all the same, at every period,
    rather than wait on it and perhaps lapse (review85)."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    await _found_by_other(world, other, live)  # kept for a match held elsewhere: swept
    gate = asyncio.Event()
    made = _sweep_reads(other, monkeypatch, gate)
    world.clock.advance(RENEW_EVERY + 1)
    renewals = [asyncio.create_task(other.owners.renew(world.clock.now))]
    await asyncio.sleep(0.3)
    world.clock.advance(RENEW_EVERY + 1)
    renewals.append(asyncio.create_task(other.owners.renew(world.clock.now)))
    done, _ = await asyncio.wait(renewals, timeout=1.0)
    waiting = len(renewals) - len(done)
    gate.set()
    results = await asyncio.gather(*renewals)
    await swept(other)
    assert waiting == 0, f"{waiting} renewal(s) waited on the sweep's read"
    assert results == [True, True] and len(made) == 1, (results, made)


async def test_a_refusal_found_again_keeps_the_version_of_its_own_save(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's DMs found refusing the bot twice in a hand by copies of one process, the first
    finding's read of the match's version (``saved_at``) answered only after the second
    finding, before its own read: the
    refusal kept is the second's, at the version read for it, not the first's lower one (a
    copy read in between, its DMs open as saved then, would take them for reopened since;
    review85)."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    seat = 1 - live.session.to_act
    first = await other.lookup(live.id)
    assert first is not None
    gate = asyncio.Event()
    real = Leases.progress
    held = [1]

    async def late(self: Leases, match_id: int) -> Any:
        got = await real(self, match_id)
        if self is other.owners.leases and held[0]:
            held[0] = 0
            await gate.wait()  # the answer of the first finding's read comes last
        return got

    monkeypatch.setattr(Leases, "progress", late)
    reading = asyncio.create_task(saved_at(other, first, seat, found(other, first, seat)))
    await asyncio.sleep(0.1)
    # The match moves on (a draw through the holder), the hand the same.
    acting = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(acting))
    assert move.kind is not MoveKind.DISCARD
    assert (await main.act(live, live.player_ids[acting], move)).ok
    await settle(world, main)
    between = await other.lookup(live.id)
    assert between is not None and between.version > first.version
    assert not between.dm_refused[seat]
    # Found again by another copy here, at the version the match is at now.
    again = await other.lookup(live.id)
    assert again is not None
    token = found(other, again, seat)
    gate.set()  # the first finding's read answered now, before the second's
    await reading
    await saved_at(other, again, seat, token)
    assert known(other, between, seat), \
        "the refusal found last yields to a copy read before its save (the first's version kept)"


async def test_an_edit_refused_sends_no_new_panel_to_dms_saved_as_refused(
        world: World, other: MatchService) -> None:
    """A copy in another process, read before the seat's DMs were found closed and saved so,
    has its edit of the seat's panel refused: it sends no new panel there, refused again (the
    soak's seed 1173: two such copies of one process each sent one, three refusals in a hand
    where each process may make one; review101)."""
    live, main, seat, copy, dm = await read_then_closed(world, other)
    # The holder finds them closed, and saves it.
    live.dm_shown[seat] = None
    main.delivery.enqueue(live, Batch(hands={seat}))
    await settle(world, main)
    assert live.dm_refused[seat]
    before = len(world.env.http_requests)
    copy.dm_shown[seat] = None
    other.delivery.enqueue(copy, Batch(hands={seat}))
    await settle(world, other, main)
    sent = [f"{r.method} {r.path}" for r in world.env.http_requests[before:]
            if r.path.startswith(f"/channels/{dm}/")]
    assert not [s for s in sent if s.startswith("POST")], sent
    assert copy.dm_refused[seat]


async def test_two_copies_sending_at_once_to_closed_dms_are_refused_once(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two copies of one process, both read before the seat's DMs closed, each have their edit
    of its panel refused and send a new one at the same moment, the first's answer slow to
    come (Discord retrying a 5xx): the second waits for it, learns the DMs refuse the bot, and
    sends nothing (the soak's seed 2229: both went, and both were refused; review105)."""
    live, _, seat, copy, dm = await read_then_closed(world, other)
    second = await other.lookup(live.id)
    assert second is not None and second is not copy and not second.dm_refused[seat]
    first_held(monkeypatch)
    before = len(world.env.http_requests)
    for held in (copy, second):
        held.dm_shown[seat] = None
    await asyncio.gather(send_hand(other, copy, seat), send_hand(other, second, seat))
    sent = [f"{r.method} {r.path}" for r in world.env.http_requests[before:]
            if r.path.startswith(f"/channels/{dm}/")]
    assert len([s for s in sent if s.startswith("POST")]) == 1, sent
    assert copy.dm_refused[seat] and second.dm_refused[seat]


async def test_a_refusal_found_by_a_copy_a_hand_behind_hides_no_later_one(
        world: World, other: MatchService) -> None:
    """A copy a hand behind meets the seat's DMs refused after a copy of the hand in play did
    (its answer slower to come): what the process knows stays that later hand's, so that the
    hand's other copies still know of it (review102)."""
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    behind = await other.lookup(live.id)
    assert behind is not None
    hand = live.session.hand_no
    while live.session.hand_no == hand:
        acting = live.session.to_act
        move = GreedyPlayer().choose(live.session.view(acting))
        assert (await main.act(live, live.player_ids[acting], move)).ok
    await settle(world, main)
    now, later = await other.lookup(live.id), await other.lookup(live.id)
    assert now is not None and later is not None and later is not now
    assert behind.session.hand_no != now.session.hand_no
    found(other, now, 0)
    found(other, behind, 0)
    assert known(other, later, 0), "a finding a hand behind hid the hand in play's"
