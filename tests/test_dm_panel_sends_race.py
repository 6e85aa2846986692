"""A seat's DM panels with the match's channel lost: each new panel takes the buttons off the one
it replaced, and off any sent whose id was never saved; the seat's "sending" mark is what finds
those again after a restart. It must stay set until every one of them has lost its buttons, and
two new panels for one seat (a turn's and a warning's) must not cross. Over the loopback Discord,
the bot in this process."""

from __future__ import annotations

import asyncio
import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali import actions, in_dms
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import warn
from cogs.umtali.service import MatchService
from cogs.umtali.stray_panels import strip_answered
from tests.loopback import acting
from tests.loopback.driver import custom_ids, play_move, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from tests.test_ending_panel_warn_race import _channel_lost
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer
from umtali.turns import Phase

#: The last part of the custom ids that are not a hand panel's moves.
_NOT_MOVES = {"claim", "wait", "resign", "keep", "hand"}


def _offering_moves(server: LoopbackDiscord, live: LiveMatch, seat: int) -> list[int]:
    """The ids of the seat's DMs that still offer the match's moves, oldest first."""
    prefix = f"umtali:m:{live.id}:"
    return sorted(int(m["id"]) for m in server.dm_messages(live.player_ids[seat])
                  if any(c.startswith(prefix) and c.rsplit(":", 1)[-1] not in _NOT_MOVES
                         for c in custom_ids(m)))


def _saved_panel(db: Path, live: LiveMatch, seat: int) -> tuple[int, bool]:
    """The seat's DM panel as saved, and whether its "sending" mark is set."""
    with sqlite3.connect(db) as c:
        panel, sending = c.execute(
            f"SELECT dm{seat}_message_id, dm{seat}_sending FROM matches WHERE id = ?",
            (live.id,)).fetchone()
    return int(panel), bool(sending)


async def _to_the_discard(server: LoopbackDiscord, db: Path, live: LiveMatch) -> int:
    """Play the seat to act up to its discard (which ends its turn, the hand going on); the
    other seat, whose turn then begins and who is sent a new panel."""
    mover = live.session.to_act
    while GreedyPlayer().choose(live.session.view(mover)).kind is not MoveKind.DISCARD:
        await play_move(server, db, live.id)
        assert live.session.to_act == mover
    return 1 - mover


async def test_the_mark_stays_until_a_panel_sent_unsaved_has_lost_its_buttons(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A panel left offering moves (its stripping failed for now) is looked for at the seat's
    next delivery. That delivery sending a new panel (a warning) stripped the one it replaced
    and cleared the mark before looking; the look failing too, the old panel was never looked
    for again, and a restart would not find it."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat = await _to_the_discard(server, db, live)
        first = live.dm_message_ids[seat]
        assert first is not None
        dm = live.dm_channel_ids[seat]
        # The turn's new panel; taking the buttons off ``first`` fails for now, and again at
        # the warning's look through the DM.
        server.fail("PATCH", rf"^/channels/{dm}/messages/{first}$", times=2, status=503)
        await play_move(server, db, saved.id)
        await svc.flush()
        assert live.session.to_act == seat and live.dm_message_ids[seat] != first
        assert first in _offering_moves(server, live, seat)
        await warn(svc, live, seat, 30)
        await svc.flush()
        panel, sending = _saved_panel(db, live, seat)
        assert _offering_moves(server, live, seat) == [first, panel]
        assert sending, "the mark was cleared with a panel still offering moves"
        # The seat's next delivery (at the end of its turn) looks again, and takes them off.
        while live.session.to_act == seat:
            await play_move(server, db, saved.id)
        await svc.flush()
        panel, sending = _saved_panel(db, live, seat)
        assert _offering_moves(server, live, seat) == [panel]
        assert not sending


async def test_a_warning_while_a_turns_new_panel_is_being_saved_waits_for_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A turn's new panel sent, its id being saved (the database busy), as the turn's warning
    sends another: the warning's cleared the mark with the turn's panel offering moves and
    unsaved (lost for good at a restart then), and once the turn's was saved it took the
    panel's place, an older message than the one that notified the player, and stripped that."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat = await _to_the_discard(server, db, live)
        saving, go_on = asyncio.Event(), asyncio.Event()
        real_save = svc.store.set_dm_message

        async def slow_save(*args: Any, **kwargs: Any) -> bool:
            if not saving.is_set():  # the turn's panel's, the first
                saving.set()
                await asyncio.wait_for(go_on.wait(), 30)
            return await real_save(*args, **kwargs)
        monkeypatch.setattr(svc.store, "set_dm_message", slow_save)
        await play_move(server, db, saved.id)
        await until(saving.is_set, "the turn's new panel being saved")
        warning = asyncio.create_task(warn(svc, live, seat, 30))
        # Time for the warning to be sent, if it does not wait for the turn's panel (a bound,
        # not a measure: it waits, and is sent once the turn's is).
        await asyncio.wait({warning}, timeout=2.0)
        panel, sending = _saved_panel(db, live, seat)
        assert sending or _offering_moves(server, live, seat) == [panel], \
            "the mark cleared, a panel sent and unsaved still offering moves"
        go_on.set()
        await warning
        await svc.flush()
        panel, sending = _saved_panel(db, live, seat)
        newest = max(int(m["id"]) for m in server.dm_messages(live.player_ids[seat]))
        assert panel == newest == live.dm_message_ids[seat]
        assert _offering_moves(server, live, seat) == [panel]
        assert not sending


async def test_a_warning_that_waited_for_the_seats_panel_is_not_sent_once_the_turn_is_played(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A turn's warning waits while the seat's panel is being sent (Discord slow); the player
    ends the turn meanwhile. Sent then, it told a player whose turn was over, by a new message
    that notifies, that seconds were left for their turn; its panel kept saying so."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat = live.session.to_act
        dm, panel = live.dm_channel_ids[seat], live.dm_message_ids[seat]
        # The seat's panel being edited (its edit unanswered for now): the warning waits.
        held = server.hold("PATCH", rf"^/channels/{dm}/messages/{panel}$")
        live.dm_shown[seat] = None
        svc.delivery.enqueue(live, Batch(hands={seat}))
        await until(lambda: held.held, "the seat's panel being edited")
        warning = asyncio.create_task(warn(svc, live, seat, 30))
        while live.session.to_act == seat:
            await play_move(server, db, saved.id)
        assert not warning.done()
        server.release()
        await warning
        await svc.flush()
        told = [m for m in server.dm_messages(live.player_ids[seat])
                if "seconds left for your turn" in json.dumps(m)]
        assert not told, "a warning sent once the turn was played"


async def _answer_held(server: LoopbackDiscord, db: Path, svc: MatchService,
                       live: LiveMatch) -> tuple[int, int, asyncio.Task[Any]]:
    """The seat to draw clicks Draw on its DM panel, the answer held on its way: the seat,
    the panel clicked, and the click (done once the answer is released)."""
    while live.session.hand.phase is not Phase.DRAW:
        await play_move(server, db, live.id)
    await svc.flush()
    seat = live.session.to_act
    clicked = live.dm_message_ids[seat]
    assert clicked is not None
    message = server.messages[clicked]
    draw = next(c for c in custom_ids(message) if c.endswith(":draw"))
    answer = server.delay("POST", r"^/interactions/[0-9]+/[^/]+/callback$")
    click = asyncio.create_task(server.click(live.player_ids[seat], message, draw))
    await until(lambda: bool(answer.held), "the click's answer on its way")
    return seat, clicked, click


@pytest.mark.parametrize("failing", [False, True])
async def test_a_click_answered_after_its_panel_was_replaced_leaves_no_buttons_on_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, failing: bool) -> None:
    """A click on the DM panel is answered on that message; a new panel sent meanwhile (the
    turn's warning) took the buttons off it, and the answer, landing after, put them back: two
    panels offered moves, for good (the soak, seed 42: the panel of a turn begun twice).
    ``failing``: taking them off again fails for now; the seat's next delivery does it."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat, clicked, click = await _answer_held(server, db, svc, live)
        await warn(svc, live, seat, 30)  # a new panel; the one clicked loses its buttons
        assert live.dm_message_ids[seat] != clicked
        assert clicked not in _offering_moves(server, live, seat)
        if failing:
            server.fail("PATCH", rf"^/channels/{live.dm_channel_ids[seat]}/messages/{clicked}$",
                        status=503)
        server.release()
        await click
        if failing:
            await until(lambda: _saved_panel(db, live, seat)[1], "the seat marked")
            await play_move(server, db, saved.id)  # the seat's next delivery
        # (the click's work goes on after its answer: the panel's buttons taken off again)
        await until(lambda: _offering_moves(server, live, seat) == [live.dm_message_ids[seat]],
                    "the clicked panel's buttons gone again")


async def test_a_click_answered_after_its_panel_was_replaced_as_the_bot_stops_leaves_no_buttons(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As above, the bot stopping once the answer put the buttons back, before it took them
    off again (the fault soak, seed 113: a replaced panel offering moves after its match
    ended): the seat's mark, kept while the answer was on its way, has the next start's
    delivery find them."""
    db = tmp_path / "umtali.sqlite3"
    put_back: list[int] = []

    async def stopped_first(svc: MatchService, live: LiveMatch, seat: int,
                            message: Any) -> None:
        if put_back:  # (the bot started anew)
            await strip_answered(svc, live, seat, message)
        put_back.append(message.id)

    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db) as bot:
            monkeypatch.setattr(actions, "strip_answered", stopped_first)
            saved, svc, live = await _channel_lost(server, db, bot)
            seat, clicked, click = await _answer_held(server, db, svc, live)
            await warn(svc, live, seat, 30)  # a new panel; the one clicked loses its buttons
            server.release()
            await click
            assert put_back == [clicked]
            assert _offering_moves(server, live, seat) == [clicked, live.dm_message_ids[seat]]
            await svc.flush()
            assert _saved_panel(db, live, seat)[1], "the seat's mark, for the next start"
        async with bot_in_process(server, db) as bot:
            assert bot.matches is not None
            await play_move(server, db, saved.id)  # the seat's next delivery
            await bot.matches.flush()
            panel, sending = _saved_panel(db, live, seat)
            assert _offering_moves(server, live, seat) in ([panel], [])
            assert clicked not in _offering_moves(server, live, seat) and not sending


async def test_a_panel_at_the_match_as_it_is_whose_id_was_never_saved_plays(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A new DM panel sent, the save of its id failed (the database; or the bot stopped, and
    its panel comes back to the next start, whose nonce brings that very message back): the
    member clicks it, the newest panel, at once. It shows the match as it is, so it is taken
    as the seat's panel and the move plays, rather than the member being told to play on the
    one above it (which would then lose its buttons to that very message)."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat = await _to_the_discard(server, db, live)
        real = svc.store.set_dm_message
        failed: list[int] = []

        async def fails_once(*args: Any, **kwargs: Any) -> bool:
            if not failed and args[1] == seat:
                failed.append(args[3])
                raise OSError("disk I/O error")
            return await real(*args, **kwargs)

        monkeypatch.setattr(svc.store, "set_dm_message", fails_once)
        await play_move(server, db, saved.id)  # the discard: the seat's turn, a new panel
        await svc.flush()
        assert failed, "the new panel's id was never saved"
        orphan = server.messages[failed[0]]
        assert live.dm_message_ids[seat] != orphan["id"] and live.dm_sending[seat]
        draw = next(c for c in custom_ids(orphan) if c.endswith(":draw"))
        version = live.version
        clicked = await server.click(live.player_ids[seat], orphan, draw)
        assert clicked.callback_type == 7, clicked.text()  # the panel clicked, edited
        assert live.version == version + 1, "the move played"
        assert _saved_panel(db, live, seat)[0] == int(orphan["id"])
        svc.delivery.retry_now()
        await svc.flush()
        assert _offering_moves(server, live, seat) == [live.dm_message_ids[seat]]


async def test_a_put_back_panel_keeps_the_mark_until_its_buttons_are_taken_off_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As above, the new panel's own work ending just after the answer came in (the strip of
    the panel it replaced answered late): the answer's strip of the buttons it put back is
    still on its way, so the seat's mark stays set; the bot stopping before that strip lands,
    the next start's delivery finds them."""
    db = tmp_path / "umtali.sqlite3"
    put_back: list[int] = []
    stopping = asyncio.Event()
    real_send = in_dms._send_hand

    async def stopped_first(svc: MatchService, live: LiveMatch, seat: int,
                            message: Any) -> None:
        if put_back:  # (the bot started anew)
            await strip_answered(svc, live, seat, message)
            return
        put_back.append(message.id)
        await stopping.wait()  # on its way as the bot stops: never lands

    sent = asyncio.Event()

    async def answered_late(*args: Any, **kwargs: Any) -> bool:
        stripped = await real_send(*args, **kwargs)
        sent.set()
        # The new panel's strip of the one it replaced answered after the click's answer.
        await until(lambda: bool(put_back), "the answer's strip on its way")
        return stripped

    async with loopback_server(monkeypatch) as server:
        async with bot_in_process(server, db) as bot:
            monkeypatch.setattr(actions, "strip_answered", stopped_first)
            saved, svc, live = await _channel_lost(server, db, bot)
            seat, clicked, click = await _answer_held(server, db, svc, live)
            monkeypatch.setattr(in_dms, "_send_hand", answered_late)
            warning = asyncio.create_task(warn(svc, live, seat, 30))  # a new panel
            await sent.wait()
            monkeypatch.setattr(in_dms, "_send_hand", real_send)
            assert clicked not in _offering_moves(server, live, seat)
            server.release()
            await click
            await warning
            assert put_back == [clicked]
            assert _offering_moves(server, live, seat) == [clicked, live.dm_message_ids[seat]]
            assert _saved_panel(db, live, seat)[1], "the seat's mark, for the next start"
            stopping.set()
            await svc.flush()
        async with bot_in_process(server, db) as bot:
            assert bot.matches is not None
            await play_move(server, db, saved.id)  # the seat's next delivery
            await bot.matches.flush()
            sending = _saved_panel(db, live, seat)[1]
            assert clicked not in _offering_moves(server, live, seat) and not sending


async def _unsaved_warning(monkeypatch: pytest.MonkeyPatch, server: LoopbackDiscord,
                           svc: MatchService, live: LiveMatch, seat: int) -> int:
    """The seat's warning, a new panel, the save of its id failing (the database): its id."""
    panel = live.dm_message_ids[seat]
    real_save = svc.store.set_dm_message

    async def fails(*args: Any, **kwargs: Any) -> bool:
        raise OSError("disk I/O error")

    monkeypatch.setattr(svc.store, "set_dm_message", fails)
    with pytest.raises(OSError):
        await warn(svc, live, seat, 30)
    monkeypatch.setattr(svc.store, "set_dm_message", real_save)
    [unsaved] = [p for p in _offering_moves(server, live, seat) if p != panel]
    return unsaved


async def test_a_move_on_the_saved_panel_as_a_newer_unsaved_one_is_taken_leaves_one_offering(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The seat's panel of the turn, and a newer one of the same turn (a warning's) whose id
    was never saved: the member clicks both at once. The move on the saved panel passed its
    check; the click on the newer one took that one as the seat's panel meanwhile
    (``actions._on_its_way``), and its delivery took the buttons off the saved one. The move
    played, its answer, on a panel no longer the seat's, put them back: two panels offered
    moves."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat = await _to_the_discard(server, db, live)
        await play_move(server, db, saved.id)  # the discard: the seat's turn, a new panel
        await svc.flush()
        panel = live.dm_message_ids[seat]
        assert panel is not None and live.session.to_act == seat
        unsaved = await _unsaved_warning(monkeypatch, server, svc, live, seat)
        assert unsaved > panel and live.dm_sending[seat]
        real_act = svc.act
        reached = [asyncio.Event(), asyncio.Event()]
        go = [asyncio.Event(), asyncio.Event()]
        calls: list[int] = []

        async def act(*args: Any, **kwargs: Any) -> Any:
            i = len(calls)
            calls.append(i)
            reached[i].set()
            await asyncio.wait_for(go[i].wait(), 30)
            return await real_act(*args, **kwargs)

        monkeypatch.setattr(svc, "act", act)
        user = live.player_ids[seat]

        def draw(message_id: int) -> tuple[dict[str, Any], str]:
            message = server.messages[message_id]
            return message, next(c for c in custom_ids(message) if c.endswith(":draw"))

        on_saved = asyncio.create_task(server.click(user, *draw(panel)))
        await until(reached[0].is_set, "the move on the saved panel past its check")
        on_unsaved = asyncio.create_task(server.click(user, *draw(unsaved)))
        await until(reached[1].is_set, "the newer panel taken as the seat's")
        assert live.dm_message_ids[seat] == unsaved
        await svc.flush()
        version = live.version
        go[0].set()
        await on_saved
        go[1].set()
        await on_unsaved
        await svc.flush()
        assert live.version == version + 1, "the draw played once"
        assert _offering_moves(server, live, seat) == [live.dm_message_ids[seat]]


async def test_a_panel_whose_id_was_never_saved_clicked_once_the_match_ended_loses_its_buttons(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A new panel of the match as it is (a warning's), its id never saved; the match ends
    with no move (a resignation keeps the version), taking the buttons off that panel failing
    for now. A click on it, the match still held (a delivery waiting to be tried again): it
    showed the version of the match, not the match as it is, over, yet was taken as the seat's
    panel, which the ending had already been shown on, so it was neither edited nor stripped:
    it offered the moves of a match over, for good."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        _, svc, live = await _channel_lost(server, db, bot)
        seat = live.session.to_act
        dm = live.dm_channel_ids[seat]
        unsaved = await _unsaved_warning(monkeypatch, server, svc, live, seat)
        # The ending's delivery: the look through the seat's DM fails, and so does the other
        # seat's panel, which is to be tried again (the match stays held meanwhile).
        server.fail("GET", rf"^/channels/{dm}/messages", status=503)
        other = live.dm_message_ids[1 - seat]
        server.fail("PATCH", rf"^/channels/{live.dm_channel_ids[1 - seat]}/messages/{other}$",
                    status=503)
        version = live.version
        assert await svc.resign(live, 1 - seat)
        await svc.flush()
        assert live.over and live.version == version and svc.matches.get(live.id) is live
        assert unsaved in _offering_moves(server, live, seat)
        message = server.messages[unsaved]
        move = next(c for c in custom_ids(message)
                    if c.startswith(f"umtali:m:{live.id}:{version}:"))
        await server.click(live.player_ids[seat], message, move)
        await svc.flush()
        svc.delivery.retry_now()
        await svc.flush()
        assert _offering_moves(server, live, seat) == []


async def test_a_click_made_before_a_newer_panel_came_plays_on_the_panel_it_was_made_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The seat clicks Draw on its DM panel as a new one is on its way (the turn's warning;
    the soak, seed 156: a lost channel's "play on here"); the click reaches the bot once the
    new one is saved. It was made on the panel in play (its id is older than the new panel's):
    the move is played, and the panel clicked loses its buttons, the new one offering the
    next. It was answered "That panel was replaced by a newer one", nothing played."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        _, svc, live = await _channel_lost(server, db, bot)
        while live.session.hand.phase is not Phase.DRAW:
            await play_move(server, db, live.id)
        await svc.flush()
        seat, version = live.session.to_act, live.version
        clicked = live.dm_message_ids[seat]
        assert clicked is not None
        message = copy.deepcopy(server.messages[clicked])
        draw = next(c for c in custom_ids(message) if c.endswith(":draw"))
        # Made now (its id says when), delivered after the new panel.
        made = acting._base(server, acting.MESSAGE_COMPONENT, live.player_ids[seat],
                            int(message["channel_id"]))
        made.payload["message"] = message
        made.payload["data"] = {"custom_id": draw, "component_type": 2}
        await warn(svc, live, seat, 30)
        newer = live.dm_message_ids[seat]
        assert newer is not None and newer > made.id > clicked
        answer = await acting._send(server, made, 20)
        await svc.flush()
        assert "replaced" not in answer.text(), answer.text()
        assert live.version > version and live.session.moves[-1].kind is MoveKind.DRAW
        await until(lambda: _offering_moves(server, live, seat) == [newer],
                    "the new panel alone offering the moves")
