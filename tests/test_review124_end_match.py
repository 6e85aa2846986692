"""review124 on ``/umtali-admin end-match``: the channel and the players' panels are told even
when the admin's own answer fails (an unreadable match's panels, which nothing else draws
again, offered moves for good); and an admin whose name shows nothing is named in the
channel's words, as the records name such a member, not the English "Player"."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.umtali import admin_confirm
from tests.discord_helpers import World, end_match_as, flush, manager, start_match, thread_of


def _told(world: World, live: Any) -> list[str]:
    return [m.content for m in thread_of(world, live).history()
            if "ended this match: no result" in (m.content or "")
            or "завершён администратором" in (m.content or "")]


async def test_the_channel_is_told_though_the_admins_answer_failed(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    boss = manager(world)
    live = await start_match(world)

    async def expired(interaction: discord.Interaction, **fields: Any) -> None:
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                               {"code": 10062, "message": "Unknown interaction"})

    caplog.set_level(logging.INFO)
    # (fix154: the answer is the question's, edited by the End it click)
    monkeypatch.setattr(admin_confirm, "edit_clicked", expired)
    await end_match_as(world, boss, member=world.alice)
    await flush(world)
    # An expired answer is the bot being late, said as such: no ERROR.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("expired" in r.getMessage() for r in caplog.records)
    assert live.over
    assert _told(world, live), "the channel was not told"


async def test_an_unnamed_admin_is_named_in_the_channels_words(world: World) -> None:
    boss = manager(world, "\u3164")  # a Hangul filler: a name that shows nothing
    ok = await boss.slash(world.channel, "umtali-admin settings", language="ru")
    assert ok.ephemeral
    live = await start_match(world)
    await end_match_as(world, boss, member=world.alice)
    await flush(world)
    [line] = _told(world, live)
    digits = str(boss.user.id % 10000).zfill(4)
    assert f"Игрок …{digits}" in line and "Player" not in line, line
