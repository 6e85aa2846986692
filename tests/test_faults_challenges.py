"""Issue 10, cases 3, 6 and 12: accepts racing, channels the bot may not post in, and the limits
on challenges and practice sessions."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord

from cogs.umtali.challenge_expiry import expire_challenges
from data.store import Limits
from tests.discord_helpers import World, challenge, custom_ids, flush, start_practice, submit_cut


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _description(message: Any) -> str:
    return str(message.embeds[0].description or "")


def _statuses(db_path: Path) -> dict[int, str]:
    with sqlite3.connect(db_path) as c:
        return dict(c.execute("SELECT id, status FROM challenges"))


def _message(world: World, message_id: int) -> Any:
    return next(m for m in world.channel.history() if m.id == message_id)


async def test_no_challenge_where_the_bot_cannot_post(world: World, db_path: Path) -> None:
    bot_user = world.bot.user
    assert bot_user is not None
    quiet = world.guild.create_text_channel(
        "quiet", overwrites={bot_user: discord.PermissionOverwrite(send_messages=False,
                                                                    embed_links=False)})
    world.clock.advance(60)
    r = await world.alice.slash(quiet, "umtali challenge", opponent=world.bob)
    assert r.ephemeral
    assert "**Embed Links** and **Send Messages**" in _text(r)
    practice = await world.alice.slash(quiet, "umtali practice")
    assert practice.ephemeral and "Send Messages" in _text(practice)
    assert _statuses(db_path) == {}
    assert world.bot.matches is not None and world.bot.matches.matches == {}


async def test_a_refused_first_post_cancels_the_match_cleanly(
        world: World, db_path: Path) -> None:
    result = await challenge(world, world.alice, world.bob)
    accept = next(c for c in custom_ids(result.response) if c.endswith(":accept"))
    # The thread is made, then the bot loses the right to post in it.
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50013,
                           message="Missing Permissions", times=1)
    answer = await submit_cut(world.bob, await world.bob.click(result.response, custom_id=accept))
    assert answer.acknowledged
    await flush(world)
    assert world.bot.matches is not None and world.bot.matches.matches == {}
    assert "could not start" in _description(_message(world, result.response.id))
    with sqlite3.connect(db_path) as c:
        assert c.execute("SELECT status, how FROM matches").fetchall() == [("finished",
                                                                            "cancelled")]
        assert c.execute("SELECT COUNT(*) FROM active_players").fetchone() == (0,)
        assert c.execute("SELECT COUNT(*) FROM session_results").fetchone() == (0,)
    # Both are free to play again.
    again = await challenge(world, world.bob, world.alice)
    assert not again.ephemeral


async def test_challenges_are_limited_per_pair_per_member_and_in_time(
        world: World, db_path: Path) -> None:
    limits = Limits()
    others = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(4)]
    await challenge(world, world.alice, world.bob)
    # At once again: too soon.
    soon = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert soon.ephemeral and "Slow down" in _text(soon)
    # The same pair again, however late: one open challenge per pair.
    world.clock.advance(limits.challenge_cooldown)
    pair = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert pair.ephemeral and "You have already challenged ben" in _text(pair)
    pair = await world.bob.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert pair.ephemeral and "already an open challenge" in _text(pair)
    # A few open at once, then no more.
    for other in others[:limits.open_challenges - 1]:
        await challenge(world, world.alice, other)
    world.clock.advance(limits.challenge_cooldown)
    many = await world.alice.slash(world.channel, "umtali challenge", opponent=others[-1])
    assert many.ephemeral and "too many open challenges" in _text(many)
    assert list(_statuses(db_path).values()) == ["open"] * limits.open_challenges
    # Once they expire, she may challenge again.
    world.clock.advance(3600)
    await expire_challenges(world.bot)
    await world.env.settle()
    assert set(_statuses(db_path).values()) == {"expired"}
    await challenge(world, world.alice, world.bob)


async def test_practice_sessions_have_a_cooldown(world: World) -> None:
    live = await start_practice(world)
    svc = world.bot.matches
    assert svc is not None
    assert await svc.resign(live, 0)
    await flush(world)
    soon = await world.alice.slash(world.channel, "umtali practice")
    assert soon.ephemeral and "Slow down" in _text(soon)
    world.clock.advance(Limits().practice_cooldown)
    later = await world.alice.slash(world.channel, "umtali practice")
    assert not later.ephemeral


async def test_expiry_reads_only_the_challenges_that_are_due(world: World) -> None:
    """Every few seconds the bot looks for expired challenges: it must ask the database for
    those (through its index), not read every open one."""
    await challenge(world, world.alice, world.bob)
    await challenge(world, world.carol, world.bob)
    svc = world.bot.matches
    assert svc is not None
    statements: list[str] = []
    await svc.store.db.conn.set_trace_callback(statements.append)
    try:
        await expire_challenges(world.bot)
    finally:
        await svc.store.db.conn.set_trace_callback(None)  # type: ignore[arg-type]
    reads = [s for s in statements if "FROM challenges" in s]
    # (and the withdrawals a stop still owes, through their own partial index: fix165)
    assert reads and all("expires_at <=" in s or "unsaid = 1" in s for s in reads), reads
    owed = next(s for s in reads if "unsaid = 1" in s)
    plan = await svc.store.db.fetchall(f"EXPLAIN QUERY PLAN {owed}")
    assert any("challenges_unsaid" in str(r["detail"]) for r in plan), plan


def _decline(result: Any) -> str:
    return next(c for c in custom_ids(result.response) if c.endswith(":decline"))


async def test_a_declined_challenge_holds_back_the_next_to_that_member_a_while(
        world: World) -> None:
    limits = Limits()
    posted = await challenge(world, world.alice, world.bob)
    assert (await world.bob.click(posted.response, custom_id=_decline(posted))).acknowledged
    world.clock.advance(limits.challenge_cooldown)
    # Bob said no: asking again at once pings him for nothing.
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert again.ephemeral and "ben declined your last challenge" in _text(again), _text(again)
    assert "again in 10 minutes." in _text(again)
    # Others are free to be challenged, and Bob may challenge her.
    await challenge(world, world.alice, world.carol)
    back = await world.bob.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert not back.ephemeral, _text(back)
    world.clock.advance(limits.pair_window)
    await expire_challenges(world.bot)
    await world.env.settle()
    await challenge(world, world.alice, world.bob)


async def test_challenges_withdrawn_to_be_sent_again_are_a_few(world: World) -> None:
    limits = Limits()
    for _ in range(limits.pair_challenges):
        posted = await challenge(world, world.alice, world.bob)
        # Withdrawn by its challenger (her Decline), to send it again: a ping each time.
        withdrawn = await world.alice.click(posted.response, custom_id=_decline(posted))
        assert withdrawn.acknowledged
        world.clock.advance(limits.challenge_cooldown)
    more = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert more.ephemeral and "You have challenged ben" in _text(more), _text(more)
    world.clock.advance(limits.pair_window)
    await challenge(world, world.alice, world.bob)
