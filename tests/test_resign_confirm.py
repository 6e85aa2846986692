"""The resign confirmation: it holds for the hand it was asked in, and can be cancelled. A
"Yes" clicked after that hand ended resigns nothing (tests/test_flows_resign.py: moves within
the hand leave it standing)."""

from __future__ import annotations

from typing import Any

from tests.discord_helpers import World, custom_ids, flush, play_out, start_match


def _content(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _button(message: Any, action: str) -> str:
    return next(c for c in custom_ids(message) if c.endswith(f":{action}"))


async def test_a_yes_clicked_after_the_hand_ended_has_expired(world: World) -> None:
    live = await start_match(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert ask.ephemeral and "Resign the session?" in _content(ask)
    yes = _button(ask.response, "resign")
    hand = (live.session.game, live.session.hand_no)
    while (live.session.game, live.session.hand_no) == hand:
        await play_out(world, live, moves=1)
    version = live.version
    late = await world.alice.click(ask.response, custom_id=yes)
    assert late.ephemeral and "expired" in _content(late), _content(late)
    await flush(world)
    assert not live.over and live.version == version
    assert world.bot.matches is not None
    assert await world.bot.matches.store.session_results(world.guild.id) == []
    # Asked again, it holds for the position as it is now.
    again = await world.alice.slash(world.channel, "umtali resign")
    done = await world.alice.click(again.response, custom_id=_button(again.response, "resign"))
    assert "You resigned" in _content(done)
    await flush(world)
    assert live.over and live.session.winner == 1


async def test_cancel_keeps_the_match_and_takes_the_buttons_away(world: World) -> None:
    live = await start_match(world)
    ask = await world.alice.slash(world.channel, "umtali resign")
    assert len(custom_ids(ask.response)) == 2
    cancelled = await world.alice.click(ask.response, custom_id=_button(ask.response, "keep"))
    assert cancelled.acknowledged
    assert "Cancelled" in _content(ask) and custom_ids(ask.response) == []
    await flush(world)
    assert not live.over and live.version == 0
