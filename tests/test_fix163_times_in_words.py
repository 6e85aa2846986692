"""Times in words (fix163), English and Russian: the challenge cooldown's wait, the clock line's
reserves and a turn timer said with their units in words and their plural forms, not "18 s",
"1 min 15 s" or "5 min" (a screen reader says the bare letter; «5 мин» is no Russian a player
says aloud). A wait is rounded up: said short of its end, the challenge would be refused again.
SimCord, a real SQLite file, where the bot answers."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.umtali.challenge_text import challenge_refusal
from cogs.umtali.options import timer_words
from cogs.umtali.turn_clock import clock_time
from data.store import Limits, Refused
from tests.discord_helpers import World, challenge, start_match
from tests.time_control_helpers import table_text
from umtali.i18n import EN, tr_for

RU = tr_for("ru")
#: A number and a bare unit letter (or "min"/«мин»), as a screen reader would misread it.
BARE = re.compile(r"\d\s?(s|min|h|с|мин|ч)\b")


def _said(result: Any) -> str:
    assert result.response is not None
    return str(result.response.content or "")


def _russian(world: World) -> World:
    guild = world.env.create_guild("Шахматный клуб", preferred_locale="ru")
    return World(world.env, guild, guild.create_text_channel("игры"),
                 guild.add_member(world.env.create_user("Маша")),
                 guild.add_member(world.env.create_user("egor")),
                 guild.add_member(world.env.create_user("fyodor")), world.clock)


async def test_the_challenge_cooldown_says_its_wait_in_seconds_rounded_up(
        world: World, locales: dict[int, str]) -> None:
    await challenge(world, world.alice, world.bob)
    # 17.4 s left of the 20: said 18 (17 would be refused again).
    world.clock.advance(Limits().challenge_cooldown - 17.4)
    sent = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert sent.ephemeral
    assert _said(sent) == "Slow down: you can send another challenge in 18 seconds.", _said(sent)
    locales[world.alice.id] = "ru"
    world.clock.advance(16.5)  # 0.9 s left: one second, its own form
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert _said(again) == "Не так быстро: следующий вызов можно отправить через 1 секунду.", \
        _said(again)


def test_every_challenge_wait_is_in_words_with_its_plural_form() -> None:
    said = {(reason, wait, tr.lang): challenge_refusal(Refused(reason, wait), "ben", tr)
            for reason in ("declined", "unanswered", "cooldown")
            for wait in (0.4, 61.0, 21 * 60.0, 5000.0, 22 * 3600.0) for tr in (EN, RU)}
    for text in said.values():
        assert not BARE.search(text), text
    assert said["declined", 61.0, "en"].endswith("again in 2 minutes."), said
    assert said["declined", 21 * 60.0, "ru"].endswith("через 21 минуту."), said
    assert said["unanswered", 5000.0, "en"].endswith("again in 2 hours."), said
    assert said["unanswered", 22 * 3600.0, "ru"].endswith("через 22 часа."), said
    assert said["cooldown", 0.4, "en"].endswith("in 1 second."), said


def test_the_reserve_and_the_turn_timer_are_said_in_words() -> None:
    assert clock_time(75, EN) == "1 minute 15 seconds"
    assert clock_time(75, RU) == "1 минута 15 секунд"
    assert clock_time(3600 + 120 + 1, EN) == "1 hour 2 minutes 1 second"
    assert clock_time(21 * 60 + 22, RU) == "21 минута 22 секунды"
    assert clock_time(0.3, EN) == "0 seconds" and clock_time(0, RU) == "0 секунд"
    assert timer_words(EN, 60) == "1 minute" and timer_words(EN, 300) == "5 minutes"
    assert timer_words(RU, 30) == "30 секунд" and timer_words(RU, 120) == "2 минуты"
    assert timer_words(EN, 0) == "off"


async def test_the_table_says_each_reserve_in_words(world: World,
                                                    locales: dict[int, str]) -> None:
    live = await start_match(world, time_control="blitz")
    table = table_text(world, live)
    assert f"{live.names[0]} 2 minutes, {live.names[1]} 2 minutes." in table, table
    assert not BARE.search(table), table


async def test_the_russian_table_says_each_reserve_in_words(world: World,
                                                            locales: dict[int, str]) -> None:
    ru = _russian(world)
    for member in (ru.alice, ru.bob):
        locales[member.id] = "ru"
    russian = await start_match(ru, time_control="blitz")
    table = table_text(ru, russian)
    assert f"запас: {russian.names[0]} 2 минуты, {russian.names[1]} 2 минуты." in table, table


async def test_the_settings_say_the_turn_timer_in_words(world: World) -> None:
    role = world.guild.create_role("admin", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    ok = await boss.slash(world.channel, "umtali-admin settings", turn_timer=1)
    assert "- Clock: 1 minute\n" in _said(ok), _said(ok)
    assert not BARE.search(_said(ok)), _said(ok)
