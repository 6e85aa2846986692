"""An autocomplete answered too late (Discord's "Unknown interaction", 10062: its three seconds
ran out while the bot waited on a busy database, or the network was slow). Discord asks on
every key a member types, and nobody can be told of a lost answer: it is logged as a warning
that the bot was late, as a late command's answer is (tests/test_expired_interactions.py), not
as an ERROR with a traceback (discord.py logs every failed autocomplete so). A real failure of
an autocomplete is still an error."""

from __future__ import annotations

import logging

import pytest

from tests.discord_helpers import World, start_match, thread_of


def _said(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name.startswith("discord.app_commands")]


async def test_a_late_autocomplete_logs_a_warning_not_an_error(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    live = await start_match(world)
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062,
                           message="Unknown interaction", times=None)
    assert await world.alice.autocomplete(thread_of(world, live), "umtali play", "move",
                                          "d") == []
    assert await world.carol.autocomplete(world.channel, "umtali leaderboard", "season",
                                          "") == []
    await world.env.settle()
    said = _said(caplog)
    assert len(said) == 2 and all(level == logging.WARNING and "expired" in text
                                  for level, text in said), said
    assert all(r.exc_info is None for r in caplog.records
               if r.name.startswith("discord.app_commands")), "a traceback for no bug"


async def test_a_failed_autocomplete_is_still_an_error(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    world.env.inject_error("POST", "/interactions/*/callback", status=500, times=None)
    await world.carol.autocomplete(world.channel, "umtali leaderboard", "season", "")
    await world.env.settle()
    said = _said(caplog)
    assert [level for level, _ in said] == [logging.ERROR], said
    for r in caplog.records:
        r.expected = True  # the conftest fails a test that logs an error: this one must
