"""What the tests of two processes share: routing a member's clicks to one process or the
other, and reading the match as the database has it."""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.umtali import retiring
from cogs.umtali.alive import heartbeat
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import table_panel
from cogs.umtali.service import MatchService
from data.db import Row
from data.store import Store
from tests.discord_helpers import World, player, start_match, table_message, thread_of
from tests.test_faults_channel import _lose_thread
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer

#: A turn's "your turn" line, which opens its announcement.
YOUR_TURN = re.compile(r"^<@[0-9]+>, your turn\.\n?")


def main_of(world: World) -> MatchService:
    svc = world.bot.matches
    assert svc is not None
    return svc


@asynccontextmanager
async def process(world: World, store_target: str | Path,
                  name: str) -> AsyncIterator[MatchService]:
    """Another process, named ``name``, started after the bot on its own connection to the
    database."""
    store = await Store.open(store_target)
    try:
        svc = MatchService(world.bot, store, clock=world.clock, computer_pause=0, owner=name)
        await svc.load_active()
        # Closed however the test ends: a failed assertion left its connection open, and the
        # test run hung at its exit (aiosqlite's thread waiting on it).
        try:
            yield svc
        finally:
            await svc.close()
    finally:
        await store.close()


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


async def checked(world: World, **match: Any) -> tuple[LiveMatch, MatchService]:
    """A match started (``start_match``'s keywords), its process's timers checked once: its
    turn's clock running there. The match and that process."""
    live = await start_match(world, **match)
    main = main_of(world)
    await settle(world, main)
    await main.check_timers()
    await settle(world, main)
    return live, main


async def left_after_check(world: World, svc: MatchService, match_id: int) -> float:
    """A second on, ``svc``'s timers checked: the time the match's turn has left there (``svc``
    holds it)."""
    world.clock.advance(1)
    await svc.check_timers()
    assert match_id in svc.matches, "the match is not held there"
    deadline = svc.matches[match_id].deadline
    assert deadline is not None
    return deadline - world.clock.now


async def drawn_through(svc: MatchService, match_id: int) -> LiveMatch:
    """The seat to act draws (or takes) in the match through ``svc``, holding it or not: the
    copy the draw was saved with."""
    copy = await svc.lookup(match_id)
    assert copy is not None
    seat = copy.session.to_act
    move = GreedyPlayer().choose(copy.session.view(seat))
    assert move.kind is not MoveKind.DISCARD, move
    outcome = await svc.act(copy, copy.player_ids[seat], move)
    assert outcome.ok, f"the draw was refused: {outcome.error}"
    return copy


async def turn_played(world: World, svc: MatchService, live: LiveMatch) -> None:
    """The seat to act plays its turn out through ``svc``, which holds ``live``."""
    seat = live.session.to_act
    while live.session.to_act == seat:
        move = GreedyPlayer().choose(live.session.view(seat))
        assert (await svc.act(live, live.player_ids[seat], move, live.version)).ok
    await settle(world, svc)


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


def first_line(announcement: str) -> str:
    """The line that names a turn's announcement: its first after its "your turn" line (the
    same turn ends several messages' lines, and only the last of turns merged keeps it)."""
    return YOUR_TURN.sub("", announcement).split("\n")[0]


def said(world: World, live: LiveMatch, text: str) -> list[Any]:
    from tests.discord_helpers import thread_of
    return [m for m in thread_of(world, live).history() if text in (m.content or "")]


async def panel_saved_slowly(monkeypatch: pytest.MonkeyPatch, svc: MatchService,
                             live: LiveMatch, seat: int) -> tuple[asyncio.Event,
                                                                  asyncio.Task[bool]]:
    """``svc``, holding ``live``, sends the seat a new DM panel (a reminder's, say) whose id's
    save waits on a busy database until the event returned is set; returned once the panel is
    sent, with the send's task."""
    sent, saving = asyncio.Event(), asyncio.Event()
    save = svc.store.set_dm_message

    async def slow(*args: Any, **kwargs: Any) -> bool:
        sent.set()
        await saving.wait()
        return await save(*args, **kwargs)

    monkeypatch.setattr(svc.store, "set_dm_message", slow)
    sending = asyncio.create_task(svc.delivery.send_hand(live, seat, new=True))
    await asyncio.wait_for(sent.wait(), 10)
    return saving, sending


async def brought_back(world: World, svc: MatchService, match_id: int) -> LiveMatch:
    """``/umtali table`` in the server's channel through ``svc`` for a match played in DMs
    (its channel lost), as ``tables.post_table`` does it: the copy it took, its table and
    hands queued (not yet sent)."""
    copy = await svc.lookup(match_id)
    assert copy is not None
    table = await svc.table_message(copy).drawn()
    posted = await world.bot.get_partial_messageable(world.channel.id).send(
        **table.send(), view=table_panel(match_id))
    await svc.move_to(copy, world.channel.id, posted.id)
    svc.delivery.enqueue(copy, Batch(table=True, hands={0, 1}))
    return copy


async def table_moved(world: World, svc: MatchService, live: LiveMatch) -> tuple[int, int]:
    """``/umtali table`` in the match's thread through ``svc`` (``live`` its copy), as
    ``tables.post_table`` does it: for the bot's own work, which cannot send a member's
    command. The table it replaced (retired) and the new one."""
    thread = thread_of(world, live)
    table = await svc.table_message(live).drawn()
    posted = await world.bot.get_partial_messageable(thread.id).send(
        **table.send(), view=table_panel(live.id))
    old = await svc.move_to(live, thread.id, posted.id)
    assert old is not None and old != posted.id
    await retiring.retire(world.bot, live, old)
    return old, posted.id


async def in_dms(world: World) -> tuple[LiveMatch, MatchService, int, float]:
    """A match played in DMs (its channel lost), a two-minute turn: the match, its holder (the
    bot's process), the seat to act and its turn's deadline."""
    live = await start_match(world, turn_timer=2)
    main = main_of(world)
    _lose_thread(world, live)
    main.delivery.enqueue(live, Batch(table=True))
    await settle(world, main)
    assert live.channel_lost and live.deadline is not None
    return live, main, live.session.to_act, live.deadline


async def warned_as(monkeypatch: pytest.MonkeyPatch, main: MatchService, live: LiveMatch,
                    meanwhile: Callable[[], Awaitable[object]]) -> None:
    """``main``, the holder, claims the turn's warning 30 s before its deadline and sends it,
    ``meanwhile`` (another process's doing) run as the claim returns."""
    claim = main.owners.leases.claim_warning

    async def claimed_as(*args: Any) -> bool:
        claimed = await claim(*args)
        await meanwhile()
        return claimed

    monkeypatch.setattr(main.owners.leases, "claim_warning", claimed_as)
    assert live.deadline is not None
    await main.warn_if_due(live, live.deadline - 30)


async def brought_back_editing(world: World, other: MatchService, match_id: int,
                               editing: asyncio.Event) -> None:
    """The table brought back through ``other``, whose edit of the seat's panel is then on its
    way (``edit_held``)."""
    await brought_back(world, other, match_id)
    await editing.wait()


async def read_elsewhere(world: World, other: MatchService,
                         **options: Any) -> tuple[LiveMatch, MatchService, float, LiveMatch]:
    """A match started (``options``: ``start_match``'s) and shown, held by the bot's process,
    and a copy of it ``other`` read now: the match, its holder, its turn's deadline and that
    copy (to be used after the holder changed the match: a copy read before)."""
    live = await start_match(world, **options)
    main = main_of(world)
    await settle(world, main)
    assert live.deadline is not None
    copy = await other.lookup(live.id)
    assert copy is not None and copy is not live
    return live, main, live.deadline, copy


def read_after_batch_held(monkeypatch: pytest.MonkeyPatch,
                          svc: MatchService) -> tuple[asyncio.Event, asyncio.Event]:
    """``svc``'s read of the match after a batch went out (``overtaken``'s) waits, as the bot
    stops meanwhile: set as it waits, and to let it go on."""
    reading, go_on = asyncio.Event(), asyncio.Event()
    shown = svc.owners.leases.shown

    async def held(*args: Any) -> Any:
        if any(frame.function == "overtaken" for frame in inspect.stack()):
            reading.set()
            await go_on.wait()
        return await shown(*args)

    monkeypatch.setattr(svc.owners.leases, "shown", held)
    return reading, go_on


async def swept(svc: MatchService) -> None:
    """The sweep the last renewal of ``svc`` began beside it (``Owners.sweeping``), over."""
    task = getattr(svc.owners, "sweeping", None)
    if task is not None:
        await asyncio.gather(task, return_exceptions=True)


async def kill(svc: MatchService) -> None:
    """What SIGKILL leaves of a process: its saves, and nothing more from it (no last
    heartbeat, no lease given up, nothing posted)."""
    await svc.delivery.close()
    await svc.computers.close()
    svc.matches.clear()


async def killed_after(world: World, main: MatchService, live: LiveMatch,
                       seconds: float) -> float:
    """``main`` noted alive, killed, and ``seconds`` gone by since: the time the match's turn
    had left at the kill."""
    await heartbeat(main)
    assert live.deadline is not None
    left = live.deadline - world.clock.now
    await kill(main)
    world.clock.advance(seconds)
    return left


def first_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first new message's answer comes late (as Discord's retries of a 5xx hold it)."""
    real = discord.abc.Messageable.send
    posts = 0

    async def slow(self: discord.abc.Messageable, *args: Any, **kwargs: Any) -> Any:
        nonlocal posts
        posts += 1
        if posts == 1:
            await asyncio.sleep(0.3)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", slow)
