"""fix180 (review166): ``/umtali-admin matches`` and ``end-match``'s suggestions say which
player has left the server (the bot has no member list: the listing asks Discord about the
players it shows), so an admin finds the matches the README tells them to end by number.
SimCord, a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.discord_helpers import World, flush, manager, start_match


async def _line(world: World, boss: object, match_id: int) -> str:
    answer = await boss.slash(world.channel, "umtali-admin matches")  # type: ignore[attr-defined]
    await flush(world)
    [embed] = answer.response.embeds
    [line] = [x for x in (embed.description or "").split("\n") if f"#{match_id}`" in x]
    return line


async def test_a_player_gone_is_said_in_the_listing_and_the_suggestions(
        world: World, db_path: Path) -> None:
    boss = manager(world)
    live = await start_match(world, turn_timer=0)
    assert "left" not in await _line(world, boss, live.id)
    world.guild.remove_member(world.bob)
    await flush(world)
    line = await _line(world, boss, live.id)
    assert "ben has left the server" in line and "ada has left" not in line, line
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    [name] = [c["name"] for c in offered if c["value"] == str(live.id)]
    assert "ben (left)" in name and "ada (left)" not in name and len(name) <= 100, name
    # Back on the server: no longer marked.
    world.guild.add_member(world.bob)
    line = await _line(world, boss, live.id)
    assert "left" not in line, line


async def test_in_russian(world: World, db_path: Path, locales: dict[int, str]) -> None:
    boss = manager(world)
    locales[boss.user.id] = "ru"
    live = await start_match(world, turn_timer=0)
    world.guild.remove_member(world.bob)
    await flush(world)
    line = await _line(world, boss, live.id)
    assert "ben больше не на сервере" in line, line
    offered = await boss.autocomplete(world.channel, "umtali-admin end-match", "match", "")
    [name] = [c["name"] for c in offered if c["value"] == str(live.id)]
    assert "ben (не на сервере)" in name, name
