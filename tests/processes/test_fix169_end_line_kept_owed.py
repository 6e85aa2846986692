"""fix169: the challenge message's end line, saved owed with the match's end (fix161,
``matches.resend``'s "ended"), stays owed as saved until it is said. The delivery's write of
what it owes after a failure for now (``Delivery._owe``) rebuilt it from its batches in memory,
which did not carry the end line: the key was dropped while the line was still unsaid (told
after a restart only because the final table's edit tells it). A restart, or another process's
take-over, at that moment says it once. Two processes, one database (SQLite, PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord.http.client as simcord_http

import cogs.umtali.session_end
from bot import UmtaliBot
from cogs.umtali.claims import LEASE
from cogs.umtali.delivery import Delivery
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from tests.discord_helpers import World, flush, start_match
from tests.processes.helpers import greedy_via, kill, main_of, row, settle
from tests.slow_retries import slow_retries  # noqa: F401 (an autouse fixture)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_records_discord import resign

#: The challenge message's last line once ada resigned to ben.
RESIGNED = "**Session over: ben wins (ada resigned).** [The final card]("


def _told(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The end line's tells that went through (in every process), by match."""
    told: list[int] = []
    real = cogs.umtali.session_end._challenge_told

    async def counted(svc: MatchService, live: LiveMatch) -> Exception | None:
        failed = await real(svc, live)
        if failed is None:
            told.append(live.id)
        return failed

    monkeypatch.setattr(cogs.umtali.session_end, "_challenge_told", counted)
    return told


async def _owed(world: World, match_id: int) -> dict[str, Any]:
    resend = (await row(world, match_id))["resend"]
    return dict(json.loads(resend)) if resend else {}


async def _said_once(world: World, live: LiveMatch, told: list[int]) -> None:
    """The end line said once, and nothing of it left owed."""
    found = await main_of(world).store.db.fetchone(
        "SELECT message_id FROM challenges WHERE match_id = ?", (live.id,))
    assert found is not None
    message = next(m for m in world.channel.history() if m.id == found["message_id"])
    lines = str(message.embeds[0].description).splitlines()
    assert lines[-1].startswith(RESIGNED), lines
    assert sum(x.startswith("**Session over") for x in lines) == 1, lines
    assert told == [live.id], told
    assert (await row(world, live.id))["resend"] == ""


async def _final_table_failing(world: World, live: LiveMatch) -> None:
    """ada resigns, the final table's edit failing for now (a 503): its retry a minute away,
    and the end line, told with that table, unsaid."""
    world.env.inject_error("PATCH", f"/channels/{live.channel_id}/messages/"
                           f"{live.table_message_id}", status=503, times=1)
    await resign(world, world.alice, live)
    await flush(world)
    assert main_of(world).delivery.retrying(live.id)


@pytest.mark.usefixtures("server_errors")
async def test_a_restart_as_the_final_table_waits_for_its_retry(
        world: World, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    told = _told(monkeypatch)
    live = await start_match(world)
    await _final_table_failing(world, live)
    owed = await _owed(world, live.id)
    assert owed.get("ended") is True, f"the end line's owed key lost: {owed}"
    await world.env.restart_bot(make_bot())
    await flush(world)
    await _said_once(world, live, told)


@pytest.mark.usefixtures("server_errors")
async def test_a_take_over_as_the_final_table_waits_for_its_retry(
        world: World, other: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    told = _told(monkeypatch)
    live = await start_match(world)
    await _final_table_failing(world, live)
    owed = await _owed(world, live.id)
    assert owed.get("ended") is True, f"the end line's owed key lost: {owed}"
    await kill(main_of(world))
    world.clock.advance(LEASE + 1)
    await other.check_timers()
    await settle(world, other)
    assert (await row(world, live.id))["owner"] == other.owners.name
    await _said_once(world, live, told)


async def _turn_out_held(world: World, main: MatchService, live: LiveMatch,
                         monkeypatch: pytest.MonkeyPatch, gate: asyncio.Event) -> None:
    """ada plays her turn out (her discard a click): its delivery under way, her DM panel's
    edit held until ``gate`` is set, then failing for now (a 503)."""
    hand = main.delivery._hand

    async def failing_hand(copy: LiveMatch, seat: int, *, announce: bool = False) -> None:
        if copy.over or seat != 0:
            await hand(copy, seat, announce=announce)
            return
        await world.env.external_wait(gate.wait(), reason="the match ends meanwhile")
        raise discord.DiscordServerError(simcord_http._FakeResponse(503), "Service Unavailable")

    monkeypatch.setattr(main.delivery, "_hand", failing_hand)
    while live.session.to_act == 0:
        await greedy_via(world, main, live.id)


async def _resigns(world: World, live: LiveMatch) -> None:
    ask = await world.alice.slash(world.channel, "umtali resign")
    await world.alice.click(ask.response,
                            custom_id=f"umtali:m:{live.id}:{live.version}:loss:resign")
    assert live.over


async def test_a_restart_as_an_earlier_delivery_failed_with_the_end_queued(
        world: World, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ada's turn is out, its DM panel's edit under way, as she resigns: the edit fails for now,
    and the write of what that delivery owes (the end's batch queued behind it) is the moment
    of the restart."""
    told = _told(monkeypatch)
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    gate, stopped = asyncio.Event(), asyncio.Event()
    owe = Delivery._owe
    owed: list[dict[str, Any]] = []

    async def owe_then_stop(self: Delivery, copy: LiveMatch) -> None:
        await owe(self, copy)
        if self is main.delivery and copy.over and not told:
            owed.append(await _owed(world, copy.id))
            stopped.set()
            # (held here until the restart cancels it: the end's batch never sent)
            await world.env.external_wait(asyncio.Event().wait(), reason="the bot stops here")

    monkeypatch.setattr(Delivery, "_owe", owe_then_stop)
    await _turn_out_held(world, main, live, monkeypatch, gate)
    await _resigns(world, live)
    gate.set()
    await asyncio.wait_for(stopped.wait(), 10)
    assert owed and owed[0].get("ended") is True, f"the end line's owed key lost: {owed}"
    await world.env.restart_bot(make_bot())
    await flush(world)
    await _said_once(world, live, told)


async def test_a_restart_as_an_earlier_deliverys_owe_lands_after_the_end(
        world: World, make_bot: Callable[[], UmtaliBot],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ada's turn is out, its DM panel's edit failing for now: what that delivery owes, worked
    out before she resigned, is written as her resignation is saved (the database slow). It
    lands after the end's save (as it would, could the end be saved meanwhile) and the restart
    comes then: the end line saved owed is not overwritten."""
    told = _told(monkeypatch)
    live = await start_match(world)
    main = main_of(world)
    await settle(world, main)
    gate, owing, saved = asyncio.Event(), asyncio.Event(), asyncio.Event()
    set_resend, finish = main.store.set_resend, main.store.finish_match
    owed: list[dict[str, Any]] = []

    async def late(match_id: int, resend: str, owner: str) -> bool:
        owing.set()
        if not live.lock.locked():
            # (the end may be saved meanwhile: it is, before this write lands)
            await world.env.external_wait(saved.wait(), reason="ada resigns meanwhile")
        done = await set_resend(match_id, resend, owner)
        if live.over and not told:
            owed.append(await _owed(world, match_id))
            # (held here until the restart cancels it: the end's batch never sent)
            await world.env.external_wait(asyncio.Event().wait(), reason="the bot stops here")
        return done

    async def finished(*args: Any, **kwargs: Any) -> list[str]:
        try:
            return await finish(*args, **kwargs)
        finally:
            saved.set()

    monkeypatch.setattr(main.store, "set_resend", late)
    monkeypatch.setattr(main.store, "finish_match", finished)
    await _turn_out_held(world, main, live, monkeypatch, gate)
    gate.set()
    await asyncio.wait_for(owing.wait(), 10)
    await _resigns(world, live)
    await world.env.settle()
    assert all(o.get("ended") is True for o in owed), f"the end line's owed key lost: {owed}"
    await world.env.restart_bot(make_bot())
    await flush(world)
    await _said_once(world, live, told)
