"""Challenges a member could never answer: to someone who cannot see the channel (they would
see neither the challenge nor its ping, and it could only expire, holding the pair back from
challenging each other meanwhile); and one whose message, thread or channel was deleted, which
held the pair back until it expired."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord

from tests.discord_helpers import World, challenge, custom_ids, submit_cut


def _text(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _challenges(db_path: Path) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM challenges").fetchone()[0])


async def test_no_challenge_to_a_member_who_cannot_see_the_channel(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    staff = world.guild.create_text_channel(
        "staff", overwrites={world.bob: discord.PermissionOverwrite(view_channel=False)})
    world.clock.advance(60)
    r = await world.alice.slash(staff, "umtali challenge", opponent=world.bob)
    assert r.ephemeral and "ben can't see this channel" in _text(r), _text(r)
    locales[world.carol.id] = "ru"
    r = await world.carol.slash(staff, "umtali challenge", opponent=world.bob)
    assert r.ephemeral and "ben не видит этот канал" in _text(r), _text(r)
    assert _challenges(db_path) == 0
    # Where both can see, the challenge is posted as ever.
    r = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert not r.ephemeral and any(c.endswith(":accept") for c in custom_ids(r.response))


def _statuses(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as c:
        return [s for (s,) in c.execute("SELECT status FROM challenges ORDER BY id")]


async def test_a_challenge_whose_message_was_deleted_no_longer_holds_the_pair_back(
        world: World, db_path: Path) -> None:
    mods = world.guild.create_role("mods", permissions=discord.Permissions(
        manage_messages=True))
    mod = world.guild.add_member(world.env.create_user("mod"), roles=[mods])
    first = await challenge(world, world.alice, world.bob)
    await mod.delete(first.response)
    # ben can no longer answer it: either of them may challenge the other again at once.
    again = await challenge(world, world.bob, world.alice)
    assert not again.ephemeral, _text(again)
    assert _statuses(db_path) == ["cancelled", "open"]
    # A challenge still on show holds the pair back, as ever.
    world.clock.advance(60)
    held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert held.ephemeral and "already an open challenge" in _text(held)
    assert _statuses(db_path) == ["cancelled", "open"]


async def test_a_challenge_whose_channel_was_deleted_no_longer_holds_the_pair_back(
        world: World, db_path: Path) -> None:
    side = world.guild.create_text_channel("side")
    world.clock.advance(60)
    first = await world.alice.slash(side, "umtali challenge", opponent=world.bob)
    assert not first.ephemeral
    world.env.backend.delete_channel(side.id)
    await world.env.settle()
    again = await challenge(world, world.alice, world.bob)
    assert not again.ephemeral, _text(again)
    assert _statuses(db_path) == ["cancelled", "open"]


async def test_challenges_whose_channel_was_deleted_no_longer_use_up_the_open_ones(
        world: World, db_path: Path) -> None:
    """fix128: the challenger's limit of open challenges counted ones nobody can answer."""
    extra = [world.guild.add_member(world.env.create_user(f"m{i}")) for i in range(3)]
    side = world.guild.create_text_channel("side")
    for member in extra:
        world.clock.advance(21)
        r = await world.alice.slash(side, "umtali challenge", opponent=member)
        assert not r.ephemeral, _text(r)
    world.clock.advance(21)
    held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert held.ephemeral and "too many open challenges" in _text(held), _text(held)
    world.env.backend.delete_channel(side.id)
    await world.env.settle()
    world.clock.advance(21)
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert not again.ephemeral, _text(again)
    assert _statuses(db_path) == ["cancelled"] * 3 + ["open"]


async def test_open_challenges_still_on_show_still_count(world: World, db_path: Path) -> None:
    extra = [world.guild.add_member(world.env.create_user(f"m{i}")) for i in range(3)]
    for member in extra:
        world.clock.advance(21)
        r = await world.alice.slash(world.channel, "umtali challenge", opponent=member)
        assert not r.ephemeral, _text(r)
    world.clock.advance(21)
    held = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    assert held.ephemeral and "too many open challenges" in _text(held), _text(held)
    assert _statuses(db_path) == ["open"] * 3


async def test_a_challenge_to_someone_not_on_the_server_says_so(
        world: World, db_path: Path, locales: dict[int, str]) -> None:
    world.guild.remove_member(world.bob)
    world.clock.advance(60)
    # Discord sends a user with no member for someone who left (it once answered "I can't
    # read “ben” there.").
    r = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob.user)
    assert r.ephemeral and _text(r) == "ben is not a member of this server."
    locales[world.carol.id] = "ru"
    r = await world.carol.slash(world.channel, "umtali challenge", opponent=world.bob.user)
    assert r.ephemeral and _text(r) == "ben не участник этого сервера."
    assert _statuses(db_path) == []


async def test_the_challenger_withdraws_a_challenge_with_decline(
        world: World, db_path: Path) -> None:
    first = await challenge(world, world.alice, world.bob)
    ids = custom_ids(first.response)
    accept, decline = (next(c for c in ids if c.endswith(end)) for end in (":accept",
                                                                        ":decline"))
    # Accept is still not hers to click.
    own = await submit_cut(world.alice, await world.alice.click(first.response, custom_id=accept))
    assert own.ephemeral and "your own challenge" in _text(own)
    withdrawn = await world.alice.click(first.response, custom_id=decline)
    assert withdrawn.acknowledged and not withdrawn.ephemeral
    shown = next(m for m in world.channel.history() if m.id == first.response.id)
    assert "**ada withdrew the challenge.**" in (shown.embeds[0].description or "")
    assert shown.components == []
    assert _statuses(db_path) == ["cancelled"]
    # The pair is free at once (after the usual pause between challenges).
    again = await challenge(world, world.alice, world.bob)
    assert not again.ephemeral
    # In a Russian server, in Russian.
    admin = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[admin])
    await boss.slash(world.channel, "umtali-admin settings", language="ru")
    third = await challenge(world, world.carol, world.bob)
    decline = next(c for c in custom_ids(third.response) if c.endswith(":decline"))
    await world.carol.click(third.response, custom_id=decline)
    shown = next(m for m in world.channel.history() if m.id == third.response.id)
    assert "**cy отзывает вызов.**" in (shown.embeds[0].description or "")
