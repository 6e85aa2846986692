"""A match's channel found gone (deleted, locked) by the posts of its END: the match is over,
and goes on nowhere. It was logged as a WARNING that "the match goes on in direct messages",
and each player's new DM said "Play on here ... `/umtali table` in another channel brings the
match there" after a win, or that the match was abandoned because its channel could no
longer be reached after an admin's end or an opponent gone (review121). Now it is said at INFO
as what it is, and the new DM (the end the channel could not show: the table as it ended)
says nothing false. SimCord, a real SQLite file."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.umtali.in_dms import channel_lost
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import (
    World,
    custom_ids,
    dm_panel,
    end_match_as,
    flush,
    manager,
    player,
    start_match,
)
from tests.test_faults_channel import _lose_thread
from tests.test_review43_opponent_left import gone_a_day
from umtali.i18n import tr_for

PLAY_ON = "Play on here"
LOST_REACH = "I could no longer reach this match's channel"
LEFT = "a player left the server, and a match with no clock cannot be finished without them"


def _texts(message: Any) -> str:
    out = [message.content or ""]
    for e in message.embeds:
        out += [e.title or "", e.description or ""] + [f"{f.name}: {f.value}" for f in e.fields]
    return "\n".join(out)


def _lock_thread(world: World, live: LiveMatch) -> None:
    for method in ("POST", "PATCH"):
        world.env.inject_error(method, f"/channels/{live.channel_id}/*", status=403,
                               code=50083, message="Thread is archived", times=None)


def _logged(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "cogs.umtali.channel_loss"]


def _after_end_said(caplog: pytest.LogCaptureFixture, live: LiveMatch) -> None:
    said = _logged(caplog)
    assert not any("goes on in direct messages" in m for _, m in said), said
    assert any(level == logging.INFO and f"match {live.id}:" in m and "after the match ended"
               in m for level, m in said), said


def _panels(world: World, live: LiveMatch) -> list[str]:
    return [_texts(dm_panel(player(world, seat), live, seat)) for seat in (0, 1)]


async def test_a_win_whose_end_finds_the_channel_gone(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    live = await start_match(world)
    before = [len(player(world, s).user.dm_channel.history()) for s in (0, 1)]
    _lose_thread(world, live)
    svc = world.bot.matches
    assert svc is not None
    await svc.resign(live, 0)
    await flush(world)
    assert live.over and not live.abandoned and live.channel_lost
    _after_end_said(caplog, live)
    for seat, said in enumerate(_panels(world, live)):
        # A new DM (it notifies): the end the channel could not show, and nothing to play.
        assert len(player(world, seat).user.dm_channel.history()) == before[seat] + 1
        assert PLAY_ON not in said and "/umtali table" not in said, said
        assert "so the end of this match is shown here" in said, said
        assert "wins the session" in said and "Ratings" in said, said


def test_the_end_shown_in_dms_is_said_in_russian() -> None:
    assert channel_lost(tr_for("ru"), over=True) == (
        "Я больше не могу писать в канал этого матча (его удалили, закрыли или у меня отняли "
        "права), поэтому конец матча показан здесь, вместе со столом, каким он остался.")


@pytest.mark.parametrize("lose", [_lose_thread, _lock_thread])
async def test_an_admins_end_that_finds_the_channel_gone(
        world: World, caplog: pytest.LogCaptureFixture, lose: Any) -> None:
    caplog.set_level(logging.INFO)
    boss = manager(world)
    live = await start_match(world)
    lose(world, live)
    ended = await end_match_as(world, boss, member=world.alice)
    assert "is ended with no result" in str(ended.response.content)
    await flush(world)
    assert live.over and live.abandoned
    _after_end_said(caplog, live)
    for said in _panels(world, live):
        assert LOST_REACH not in said and PLAY_ON not in said, said


async def test_an_opponent_gone_whose_end_finds_the_channel_gone(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """Ended by the remaining player's "Yes" (no clock, the opponent left: review43): why it
    ended is still said, not a channel that could no longer be reached."""
    caplog.set_level(logging.INFO)
    live = await start_match(world, turn_timer=0)
    world.guild.remove_member(world.bob)
    await world.env.settle()
    await gone_a_day(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    _lose_thread(world, live)
    done = await world.alice.click(ask.response, custom_id=next(
        c for c in custom_ids(ask.response) if c.endswith(":resign")))
    assert done.acknowledged
    await flush(world)
    assert live.over and live.abandoned
    _after_end_said(caplog, live)
    for said in _panels(world, live):
        assert LEFT in said and LOST_REACH not in said, said
