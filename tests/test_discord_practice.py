"""Sessions against the computer on Discord."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import (
    World,
    cut,
    play_out,
    replayed_computer,
    start_match,
    thread_of,
)

# The computer and the coach think in real worker processes: seconds of real CPU work on a
# loaded machine (a hand's review judges each of its moves), which SimCord's 5 s wait for the
# bot to settle does not allow for.
pytestmark = pytest.mark.simcord(settle_timeout=30)


async def _practice(world: World, **options: object) -> LiveMatch:
    r = await world.alice.slash(world.channel, "umtali practice", **options)
    assert r.acknowledged and not r.ephemeral
    await cut(world, r)
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    return live


async def test_a_practice_session_against_the_computer_is_played_and_kept(world: World) -> None:
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.response is not None and "Deals sealed" in (r.response.embeds[0].description or "")
    cutting = await cut(world, r)
    assert "Draw for first dealer" in (cutting.response.embeds[0].description or "")
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    assert live.computer_seat == 1 and live.computer_level == "easy"
    # Only the human is sent a hand; the computer's turns play by themselves.
    assert world.alice.user.dm_channel.history()
    assert live.session.to_act == 0
    await play_out(world, live)
    assert live.over
    [result] = await svc.store.session_results(world.guild.id)
    assert result["computer_level"] == "easy"
    announced = " ".join(m.content for m in thread_of(world, live).history())
    assert "Computer (easy) melds" in announced or "Computer (easy) discards" in announced


async def test_challenging_the_bot_starts_a_practice_session(world: World) -> None:
    from simcord.builders import UserHandle

    # The bot is a member of every server it is in; name it as the opponent.
    bot_member = world.guild.add_member(UserHandle(world.env, world.env.backend.bot_user))
    r = await world.alice.slash(world.channel, "umtali challenge", opponent=bot_member)
    assert r.acknowledged and not r.ephemeral
    await cut(world, r)
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    assert live.computer_level == "normal" and live.player_ids[1] == bot_member.id
    busy = await world.alice.slash(world.channel, "umtali practice")
    assert busy.ephemeral


async def test_a_restart_while_the_computer_is_to_act(world: World,
                                                      make_bot: Callable[[], UmtaliBot]) -> None:
    live = await _practice(world, level="easy")
    await play_out(world, live, moves=5)
    svc = world.bot.matches
    assert svc is not None
    version = live.version
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    await new.matches.computer_idle()
    await new.matches.flush()
    assert restored.version >= version
    assert restored.over or restored.session.to_act == 0
    await play_out(world, restored)
    assert restored.over


async def test_people_still_play_people(world: World) -> None:
    live = await start_match(world)
    assert live.computer_seat is None


async def test_the_computer_plays_the_same_game_through_a_restart(
        world: World, make_bot: Callable[[], UmtaliBot]) -> None:
    """Its moves are those of one uninterrupted player of its level on the session's seed:
    a restart makes it neither forget what it saw nor choose differently."""
    live = await _practice(world, level="hard")
    await play_out(world, live, moves=12)
    new = make_bot()
    await world.env.restart_bot(new)
    assert new.matches is not None
    restored = new.matches.matches[live.id]
    await new.matches.computer_idle()
    await play_out(world, restored, moves=80)
    replayed_computer(restored)
