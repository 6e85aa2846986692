"""A table or DM panel edit Discord failed for now, its retry a minute away, and the bot
restarting first (a quick restart: no time to give back, which would have redrawn the table):
what was owed is saved with the failure (``matches.resend``), and sent once the bot is back,
or by the process that takes the match over. Before, the retry lived in memory alone: the
table (or the panel) showed the turn before until the next move. SimCord."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.posting
import cogs.umtali.sending
from bot import UmtaliBot
from cogs.umtali.claims import LEASE
from cogs.umtali.display import redraw_guild
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from tests.discord_helpers import (
    World,
    custom_ids,
    dm_panel,
    flush,
    play,
    player,
    start_match,
    thread_of,
)
from tests.slow_retries import slow_retries  # noqa: F401 (an autouse fixture)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import db_row
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


def _shown(world: World, live: LiveMatch, where: str, seat: int) -> Any:
    """What the table (``where`` "table") or the seat's DM panel ("panel") shows."""
    if where == "table":
        message = next(m for m in thread_of(world, live).history()
                       if m.id == live.table_message_id)
    else:
        message = dm_panel(player(world, seat), live, seat)
    return [(e.description, [(f.name, f.value) for f in e.fields]) for e in message.embeds]


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("where", ["table", "panel"])
async def test_an_edit_failed_for_now_before_a_quick_restart_is_made_once_the_bot_is_back(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot], where: str) -> None:
    """The turn's end edits the table and the other player's panel; the last edit fails. (The
    table's failing, its announcement waits with it, and was sent again before: ``unsent``.
    A table edit with no announcement, the clock stopping: tests/test_clock_soak_found.py.)"""
    live = await start_match(world)
    seat = live.session.to_act
    other = 1 - seat  # whose panel the turn's end edits
    if where == "table":
        path = f"/channels/{live.channel_id}/messages/{live.table_message_id}"
    else:
        path = f"/channels/{player(world, other).user.dm_channel.id}/messages/" \
               f"{live.dm_message_ids[other]}"
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        if move.kind is MoveKind.DISCARD:  # the turn's last edit fails
            await flush(world)
            world.env.inject_error("PATCH", path, status=503, times=1)
        await play(world, live, move)
    await flush(world)
    stale = _shown(world, live, where, other)
    assert db_row(db_path, live.id)["resend"], "the edit owed was not saved"
    # The bot stops and starts again at once, before the retry.
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    svc = again.matches
    assert svc is not None
    restored = svc.matches[live.id]
    shown = _shown(world, restored, where, other)
    assert shown != stale, "the edit owed was never made"
    assert db_row(db_path, live.id)["resend"] == ""
    # And it is the match as it is: drawn again, nothing changes.
    restored.dm_shown = [None, None]
    svc.delivery.enqueue(restored, Batch(table=True, hands={0, 1}))
    await flush(world)
    assert _shown(world, restored, where, other) == shown


async def test_what_is_owed_stays_saved_when_the_match_is_let_go_to_be_claimed_again(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The table cannot be drawn for an hour (the database failing as it is read, not
    Discord): the match is let go from memory, to be claimed again from the database, which
    sends what it has to say. Here a redraw (the server's look changed) with no announcement:
    only ``resend`` says the table is owed. Before, the worker saved that nothing was owed as
    it let the match go (its retry forgotten with it), and the match came back not redrawn."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world)
    drawn = cogs.umtali.posting.post_table
    tables: list[int] = []

    async def broken(*args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    async def counted(svc: Any, live: LiveMatch) -> None:
        tables.append(live.id)
        await drawn(svc, live)

    monkeypatch.setattr(cogs.umtali.sending, "post_table", broken)
    assert await redraw_guild(svc, live.guild_id) == [live]
    await flush(world)
    assert db_row(db_path, live.id)["unsent"] == "[]"
    assert db_row(db_path, live.id)["resend"]
    for _ in range(60):  # each retry now (as once the gateway is back), not minutes apart
        if svc.matches.get(live.id) is not live:
            break
        svc.delivery.retry_now()
        await flush(world)
    assert svc.matches.get(live.id) is not live, "never let go"
    await asyncio.sleep(0.5)  # the worker letting it go ends (its idle event set already)
    assert db_row(db_path, live.id)["resend"], "let go, it saved that nothing was owed"
    # The database answers again: the match, claimed again, is drawn.
    monkeypatch.setattr(cogs.umtali.sending, "post_table", counted)
    world.clock.advance(LEASE + 1)
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert live.id in svc.matches and tables == [live.id], "the table owed was never drawn"
    assert db_row(db_path, live.id)["resend"] == ""
    for record in caplog.records:
        if record.name == "cogs.umtali.delivery" and record.levelno == logging.ERROR:
            record.expected = True  # the database failing, as meant


@pytest.mark.usefixtures("server_errors")
async def test_a_retry_taken_up_while_the_worker_sends_stays_saved_until_it_is_sent(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The retry of a panel's edit comes due (here the gateway back) while the worker sends
    something else (the table): it waits in the queue behind it. Before, the worker saved
    that nothing was owed once the table was sent, the panel still unsent: the bot stopping
    then (the database ahead of nothing, memory ahead of it) never sent it."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world)
    seat = 0
    world.env.inject_error(
        "PATCH", f"/channels/{player(world, seat).user.dm_channel.id}/messages/"
        f"{live.dm_message_ids[seat]}", status=503, times=1)
    live.dm_shown = [None, None]  # drawn anew (as a server's new look is)
    svc.delivery.enqueue(live, Batch(hands={seat}))
    await flush(world)
    assert db_row(db_path, live.id)["resend"], "the panel owed was not saved"
    drawn = cogs.umtali.posting.post_table
    drawing, go_on = asyncio.Event(), asyncio.Event()

    async def held(*args: Any) -> None:
        drawing.set()
        await go_on.wait()
        await drawn(*args)

    monkeypatch.setattr(cogs.umtali.sending, "post_table", held)
    svc.delivery.enqueue(live, Batch(table=True))
    await drawing.wait()
    svc.delivery.retry_now()  # the panel's retry, queued behind the table
    owed_then: list[str] = []
    hand = svc.delivery.send_hand

    async def watched(*args: Any, **kwargs: Any) -> None:
        owed_then.append(db_row(db_path, live.id)["resend"])
        await hand(*args, **kwargs)

    monkeypatch.setattr(svc.delivery, "send_hand", watched)
    go_on.set()
    await flush(world)
    assert owed_then and owed_then[0], "saved as sent before the panel was"
    assert db_row(db_path, live.id)["resend"] == ""


@pytest.mark.parametrize("saved", [
    '{"hands":[true,1.0,"1"]}',  # a seat is 0 or 1 itself (True == 1, 1.0 == 1: not seats)
    "[" * 100_000,  # nested too deep to read
    '{"hands":7}', '"table"', "{", "null",
])
def test_saved_text_no_bot_wrote_owes_nothing(saved: str) -> None:
    """Read at each bring-in: a seat that is not one (``dm{seat}_...`` columns) failed every
    send of the match, and text too deep to read failed its bring-in."""
    assert Batch.loads(saved) == Batch()


def test_what_is_owed_reads_back_as_saved() -> None:
    owed = Batch(table=True, hands={1, 0}, question=True)
    assert Batch.loads(owed.dumps()) == owed and Batch().dumps() == ""


@pytest.mark.usefixtures("server_errors")
async def test_a_finished_matchs_panel_edit_failed_for_now_is_made_after_a_quick_restart(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot]) -> None:
    """A resignation's last edit (the other player's panel) fails for now, the result posted,
    and the bot restarts before the retry. Before, a finished match with nothing unposted was
    never brought back (``data.leases.LIVE``): that panel showed the match still in play, its
    buttons answering nothing, for good (with the channel lost, the only place it is told)."""
    live = await start_match(world)
    other = 1  # ben's panel: ada resigns
    world.env.inject_error(
        "PATCH", f"/channels/{player(world, other).user.dm_channel.id}/messages/"
        f"{live.dm_message_ids[other]}", status=503, times=1)
    ask = await world.alice.slash(world.channel, "umtali resign")
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    assert (await world.alice.click(ask.response, custom_id=yes)).acknowledged
    await flush(world)
    assert live.over and db_row(db_path, live.id)["unsent"] == "[]"
    stale = _shown(world, live, "panel", other)
    assert db_row(db_path, live.id)["resend"], "the edit owed was not saved"
    again = make_bot()
    await world.env.restart_bot(again)
    await flush(world)
    assert _shown(world, live, "panel", other) != stale, "the edit owed was never made"
    assert db_row(db_path, live.id)["resend"] == ""
    assert again.matches is not None and not again.matches.tracked(live.id)


async def test_a_turn_delivered_whole_writes_nothing_of_what_is_owed(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """``resend`` is written on failures and their recovery alone: never on a move's path."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world)
    written: list[str] = []
    save = svc.store.set_resend

    async def counted(match_id: int, owed: str, owner: str) -> bool:
        written.append(owed)
        return await save(match_id, owed, owner)

    monkeypatch.setattr(svc.store, "set_resend", counted)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.session.to_act != seat and written == []
