"""The coach's cache lets its bot go: one coach a bot, dropped with it. A bot that held itself
alive through its own coach kept every bot a test process makes (with its service, matches and
store) until the process ends."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from bot import Settings, UmtaliBot
from cogs.umtali.coach import Coach, coach_of


def _bot_coached(tmp_path: Path, coached: bool) -> tuple[weakref.ref[UmtaliBot],
                                                         weakref.ref[Coach] | None]:
    """A bot made, its coach asked for as the bot's start asks (``load_coach``), then dropped:
    weak references to both (made in here, so that no local of the test holds them)."""
    bot = UmtaliBot(Settings(token="test", db_path=tmp_path / "umtali.db"), timers=False,
                    computer_pause=0)
    if not coached:
        return weakref.ref(bot), None
    coach = coach_of(bot)
    # One coach a bot, that knows its bot.
    assert coach_of(bot) is coach
    assert coach.client is bot
    return weakref.ref(bot), weakref.ref(coach)


async def test_a_bot_dropped_is_collected_with_its_coach(tmp_path: Path) -> None:
    # The bot alone goes (this test can tell a bot kept).
    bot, _ = _bot_coached(tmp_path, coached=False)
    gc.collect()
    assert bot() is None
    bot, coach = _bot_coached(tmp_path, coached=True)
    gc.collect()
    assert bot() is None, "the coach's cache keeps its bot"
    assert coach is not None and coach() is None
