"""An announcement posted, whose clearing from the database then failed, is posted again with
the same nonce even once more turns piled up behind it, so that Discord gives back the first
message instead of showing that turn twice; the turns behind it follow in a message of their
own, the next player's ping last."""

from __future__ import annotations

import sqlite3
from typing import Any

import discord
import pytest

from tests.discord_helpers import World, flush, player, start_match, thread_of
from tests.slow_retries import (
    RETRY,
    slow_retries,  # noqa: F401 (an autouse fixture)
)
from umtali.players import GreedyPlayer


@pytest.fixture
def enforced_nonces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's ``enforce_nonce`` (which SimCord leaves out): a message sent with a nonce the
    channel had within the last minutes gives back that message, and creates none."""
    send = discord.abc.Messageable.send
    seen: dict[tuple[int, str], Any] = {}

    async def once(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonce = kwargs.get("nonce")
        channel = await self._get_channel()
        if nonce is not None and (channel.id, str(nonce)) in seen:
            return seen[channel.id, str(nonce)]
        message = await send(self, *args, **kwargs)
        if nonce is not None:
            seen[channel.id, str(nonce)] = message
        return message

    monkeypatch.setattr(discord.abc.Messageable, "send", once)


async def _end_turn(world: World, live: Any) -> None:
    seat = live.session.to_act
    while live.session.to_act == seat and not live.over:
        move = GreedyPlayer().choose(live.session.view(seat))
        done = await player(world, seat).slash(thread_of(world, live), "umtali play",
                                               move=str(move))
        assert done.acknowledged
    await flush(world)


@pytest.mark.usefixtures("enforced_nonces")
async def test_a_post_whose_clearing_failed_is_not_shown_twice_when_more_turns_follow(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    leases = svc.owners.leases
    cleared = leases.posted
    fails = [True]

    async def fails_once(*args: Any) -> Any:
        if fails and fails.pop():
            raise sqlite3.OperationalError("database is locked")
        return await cleared(*args)

    monkeypatch.setattr(leases, "posted", fails_once)
    thread = thread_of(world, live)
    before = {m.id for m in thread.history()}
    # One turn ends: posted, but clearing it fails; the next player plays on meanwhile.
    first, second = live.session.to_act, 1 - live.session.to_act
    await _end_turn(world, live)
    assert not fails and len(live.unsent) == 1
    await _end_turn(world, live)
    await world.env.advance_time(RETRY + 1)
    await flush(world)
    assert live.unsent == []
    shown = [str(m.content) for m in sorted(thread.history(), key=lambda m: m.id)
             if m.id not in before and m.content]
    said = "\n".join(shown)
    # Each turn once: the first turn's player's lines, then the second's, in that order.
    mine = [t for t in shown if f"{live.names[first]} " in t]
    theirs = [t for t in shown if f"{live.names[second]} " in t]
    assert len(mine) == 1 and len(theirs) == 1 and mine != theirs, shown
    assert shown[-1].startswith(f"<@{live.player_ids[first]}>, your turn.\n"), said


def test_held_counts_the_announcements_a_given_back_message_holds() -> None:
    from cogs.umtali.announcing import held, merged, your_turn
    from cogs.umtali.mentions import ping
    from umtali.i18n import EN, tr_for

    first = your_turn(EN, ping(2)) + "\nada discards K♣."
    second = your_turn(tr_for("ru"), ping(1)) + "\nben discards 10♠."
    third = "ada draws from the stock."
    texts = [first, second, third]
    for count in (1, 2, 3):
        assert held(texts, merged(texts[:count])[0]) == count
    assert held(texts, "something else") == 0
