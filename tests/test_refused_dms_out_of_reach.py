"""Refused DMs of a player the match's channel cannot reach either (review121, after fix138).

A member still on the server but no longer allowed to see the match's channel (its
permissions changed mid-match), DMs closed, was told in that channel to use My hand: an
instruction they cannot follow, a ping they never see. Now nothing is posted for them, as for
one who left; with no clock, the opponent's ``/umtali resign`` ends the match with no result,
as for a player gone (a timed match's clock runs out on them as on anyone absent).

A member who left (nothing posted) and rejoined, DMs still closed, was never told: the notice
had been claimed as told. Now it stays owed while they are out of reach, Discord asked again
at most every ``ASK_AGAIN`` seconds (never a request a move), at the clock's check too (their
turn, no clock: nothing else comes); back, they are told, once. SimCord, a real SQLite file."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.out_of_reach import ASK_AGAIN
from tests.discord_helpers import World, custom_ids, flush, play, start_match
from tests.test_refused_dms_departed import (
    _close_dms,
    _notices,
    _refused_after_leaving,
    _until_refused,
)
from tests.test_review43_opponent_left import gone_a_day
from umtali.players import GreedyPlayer


def _hide_channel(world: World) -> None:
    world.env.backend.set_overwrite(world.channel.id, Overwrite(
        target_id=world.bob.id, type=OverwriteType.MEMBER, allow=0,
        deny=discord.Permissions(view_channel=True).value))


def _count_member_reads(world: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each read of a member the bot makes, counted (the requests Discord counts)."""
    reads: list[int] = []
    http = world.bot.http
    real = http.get_member

    async def counted(guild_id: int, user_id: int) -> Any:
        reads.append(user_id)
        return await real(guild_id, user_id)
    monkeypatch.setattr(http, "get_member", counted)
    return reads


async def _moves(world: World, live: LiveMatch, moves: int) -> None:
    """Both players' moves: Alice's as she makes them; Bob's, who cannot reach the match, as
    the service takes them (the deliveries they cause are what is looked at)."""
    svc = world.bot.matches
    assert svc is not None
    for _ in range(moves):
        if live.over:
            break
        seat = live.session.to_act
        move = GreedyPlayer().choose(live.session.view(seat))
        if live.player_ids[seat] == world.bob.id:
            await svc.act(live, world.bob.id, move)
        else:
            await play(world, live, move)
        await flush(world)


async def _refused_while_hidden(world: World, turn_timer: int) -> LiveMatch:
    live = await start_match(world, turn_timer=turn_timer)
    bob = live.seat_of(world.bob.id)
    assert bob is not None
    _hide_channel(world)
    await world.env.settle()
    _close_dms(world)
    await _until_refused(world, live, bob)
    assert live.dm_refused[bob] and not live.over
    return live


async def test_a_member_who_cannot_see_the_channel_is_not_told_there(
        world: World, locales: dict[int, str]) -> None:
    live = await _refused_while_hidden(world, turn_timer=0)
    assert _notices(world, live) == []
    # No clock: nothing would ever end it. Alice is offered the way out for a player gone (a
    # day after they were first found so).
    await gone_a_day(world)
    locales[world.alice.id] = "ru"
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.response.content == (
        "ben не видит канал этого матча и не принимает мои личные сообщения, а в этом матче "
        "нет контроля времени: «Да» завершит его без результата (победителя не будет, "
        "рейтинги не изменятся).")
    locales[world.alice.id] = "en-US"
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.response.content == (
        "ben can't see this match's channel and doesn't take my direct messages, and this "
        "match has no clock: Yes ends it with no result (nobody wins it, no rating changes).")
    done = await world.alice.click(ask.response, custom_id=next(
        c for c in custom_ids(ask.response) if c.endswith(":resign")))
    assert done.response.content.startswith(
        "ben can't see this match's channel and doesn't take my direct messages, and this "
        "match has no clock: it ends with no result.")
    await flush(world)
    assert live.over and live.session.winner < 0 and _notices(world, live) == []


async def test_a_hidden_member_of_a_timed_match_is_left_to_its_clock(world: World) -> None:
    live = await _refused_while_hidden(world, turn_timer=5)
    assert _notices(world, live) == []
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.response.content == "Resign the session? Your opponent wins it."
    svc = world.bot.matches
    assert svc is not None and live.deadline is not None
    moved = live.version
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert (live.version > moved or live.over) and _notices(world, live) == []


async def test_out_of_reach_costs_no_request_a_move(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _refused_while_hidden(world, turn_timer=0)
    reads = _count_member_reads(world, monkeypatch)
    await _moves(world, live, 8)
    assert len(reads) <= 1 and _notices(world, live) == []


async def test_a_member_who_rejoins_is_told_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _refused_after_leaving(world, turn_timer=0)
    assert _notices(world, live) == []
    world.bob = world.guild.add_member(world.bob.user)
    await world.env.settle()
    svc = world.bot.matches
    assert svc is not None
    reads = _count_member_reads(world, monkeypatch)
    await svc.check_timers()
    await flush(world)
    assert _notices(world, live) == [] and reads == []  # asked again only ASK_AGAIN later
    world.clock.advance(ASK_AGAIN + 1)
    await svc.check_timers()
    await flush(world)
    told = [f"<@{world.bob.id}>, I can't send you direct messages: use the **My hand** button "
            "on the table to see your cards and play."]
    assert _notices(world, live) == told
    world.clock.advance(ASK_AGAIN + 1)
    await svc.check_timers()
    await _moves(world, live, 4)
    assert _notices(world, live) == told
