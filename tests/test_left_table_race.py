"""``/umtali table`` run by both players at the same moment in two channels, after the match's
channel was lost: the first to be saved brings the table back; the other sees it, takes its own
table down and is told where the live one is. One live table with buttons, never two."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
import pytest

from cogs.umtali import in_time, tables
from cogs.umtali.live import LiveMatch
from cogs.umtali.panels import table_panel
from cogs.umtali.table_moves import TableMoved
from tests.discord_helpers import World, custom_ids, flush, play, start_match
from umtali.players import GreedyPlayer

T = TypeVar("T")


async def _lost(world: World) -> LiveMatch:
    """A match whose thread was deleted: it goes on in DMs."""
    live = await start_match(world, turn_timer=5)
    world.env.inject_error("*", f"/channels/{live.channel_id}/*", status=404, code=10003,
                           message="Unknown Channel", times=None)
    seat = live.session.to_act
    while live.session.to_act == seat:
        await play(world, live, GreedyPlayer().choose(live.session.view(seat)))
    await flush(world)
    assert live.channel_lost and not live.over
    return live


def _live_tables(live: LiveMatch, *channels: Any) -> list[Any]:
    button = f"umtali:m:{live.id}:hand"
    return [m for channel in channels for m in channel.history() if button in custom_ids(m)]


def _text(message: Any) -> str:
    return str(message.content or "") + " ".join(
        f"{e.description or ''} {e.footer.text or ''}" for e in message.embeds)


@pytest.mark.parametrize("deferred", [False, True], ids=["answered", "deferred"])
async def test_two_tables_brought_back_at_once_leave_one_live_table(
        world: World, monkeypatch: pytest.MonkeyPatch, deferred: bool) -> None:
    live = await _lost(world)
    svc = world.bot.matches
    assert svc is not None
    if deferred:
        async def slow(interaction: discord.Interaction, work: Awaitable[T],
                       **options: Any) -> T:
            # The database slow: the command is deferred before the table is posted.
            await in_time.defer(interaction, new_message=False)
            return await work

        monkeypatch.setattr(tables, "in_time", slow)
    lounge = world.guild.create_text_channel("lounge")
    move_to = svc.move_to
    theirs: list[int] = []

    async def raced(match: LiveMatch, channel_id: int, table_message_id: int) -> int | None:
        if not theirs:
            # ben's /umtali table in the lounge, a moment earlier: posted, then saved first.
            posted = await world.bot.get_partial_messageable(lounge.id).send(
                **svc.table_message(match).send(), view=table_panel(match.id))
            theirs.append(posted.id)
            await move_to(match, lounge.id, posted.id)
        return await move_to(match, channel_id, table_message_id)

    monkeypatch.setattr(svc, "move_to", raced)
    r = await world.alice.slash(world.channel, "umtali table")
    await flush(world)
    assert r.acknowledged
    [table] = _live_tables(live, world.channel, lounge)
    assert table.id == theirs[0] == live.table_message_id and live.channel_id == lounge.id
    assert not live.channel_lost
    row = await svc.store.match(live.id)
    assert row is not None and (row.channel_id, row.table_message_id) == (lounge.id, table.id)
    # ada's own table lost its buttons, and says where the live one is.
    [hers] = [m for m in world.channel.history() if f"{live.id}" in _text(m)
              and "a moment before" in _text(m)]
    assert f"{lounge.id}/{table.id}" in _text(hers) and not custom_ids(hers)
    assert not hers.attachments


async def test_two_moves_on_two_copies_of_the_match_leave_one_live_table(world: World) -> None:
    """A process that does not hold the match loads a copy of it for each command: two
    ``/umtali table`` at once work on two copies, each with its own lock."""
    live = await _lost(world)
    svc = world.bot.matches
    assert svc is not None
    lounge = world.guild.create_text_channel("lounge")
    row = await svc.store.match(live.id)
    assert row is not None
    copies = [LiveMatch.from_row(row), LiveMatch.from_row(row)]
    posted = [await world.bot.get_partial_messageable(c.id).send(
        **svc.table_message(live).send(), view=table_panel(live.id))
        for c in (world.channel, lounge)]
    results = await asyncio.gather(
        *(svc.move_to(copy, message.channel.id, message.id)
          for copy, message in zip(copies, posted, strict=True)), return_exceptions=True)
    moved = [r for r in results if isinstance(r, TableMoved)]
    assert len(moved) == 1, results
    [kept] = [m for m, r in zip(posted, results, strict=True) if not isinstance(r, Exception)]
    row = await svc.store.match(live.id)
    assert row is not None and (row.channel_id, row.table_message_id) == (
        kept.channel.id, kept.id)
