"""The coach closes with the extension and with the bot (``coach.Coach.close``): a practice
hand's review waiting to be sent again (its DM failed for now) is not sent by a coach
unloaded, nor left running past a close; a reload hands it to the coach loaded anew, which
sends it at once (thought out already, and a match that is over would never show that coach
its last hand again). Quietly: INFO lines, no WARNING."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Iterator
from typing import cast

import pytest

from cogs.umtali import coach_delivery
from cogs.umtali.coach import Coach, coach_of
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, play
from tests.test_discord_coach import _practice
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from umtali.players import GreedyPlayer

# The hard computer thinks in real worker processes (``test_discord_coach``).
pytestmark = [pytest.mark.simcord(settle_timeout=30), pytest.mark.usefixtures("server_errors")]

#: The one wait before the review is sent again (virtual seconds).
WAIT = 3600.0


@pytest.fixture(autouse=True)
def one_long_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach_delivery, "SEND_AGAIN_AFTER", (WAIT,))


@pytest.fixture(autouse=True)
def modules_kept() -> Iterator[None]:
    """An unload or a reload (a close too: discord.py unloads the extensions) imports the
    cog's modules anew, or drops them: the next tests get those of this process back.
    (Autouse: set up before the bot, so torn down after it closed.)"""
    def ours() -> dict[str, object]:
        return {k: v for k, v in sys.modules.items()
                if k == "cogs.umtali" or k.startswith("cogs.umtali.")}
    kept = ours()
    yield
    for name in ours():
        del sys.modules[name]
    sys.modules.update(kept)  # type: ignore[arg-type]


def _reviews(world: World) -> list[str]:
    return [m.content.split(":", 1)[0] for m in world.alice.user.dm_channel.history()
            if "Review of hand" in m.content]


async def _review_waiting(world: World, caplog: pytest.LogCaptureFixture) -> LiveMatch:
    """The first hand played out, its review's DM failed for now once: it waits ``WAIT`` s to
    be sent again."""
    live = await _practice(world)
    caplog.set_level(logging.INFO, logger="cogs")
    dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503,
                           message="Unavailable", times=1)
    while not live.session.hand_log:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await world.env.settle()
    assert not _reviews(world) and coach_of(world.bot).sent == 0
    return live


def _title(live: LiveMatch) -> str:
    game, number = live.session.hand_log[0][:2]
    return f"**Review of hand {number}** (game {game})"


def _running(coach: Coach) -> list[asyncio.Task[object]]:
    """The coach's tasks not done yet (its reviews, and those waiting to be sent again)."""
    return [t for t in asyncio.all_tasks() if not t.done()
            and getattr(t.get_coro(), "cr_frame", None) is not None
            and t.get_coro().cr_frame.f_locals.get("self") is coach]  # type: ignore[union-attr]


def _quiet(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


async def test_a_reload_hands_the_review_waiting_to_the_new_coach(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await _review_waiting(world, caplog)
    old = coach_of(world.bot)
    await world.bot.reload_extension("cogs.umtali")
    new = cast(Coach, sys.modules["cogs.umtali.coach"].coach_of(world.bot))
    assert new is not old
    await new.idle()
    await world.env.settle()
    assert _reviews(world) == [_title(live)], "the review waiting was lost with the reload"
    assert (old.sent, new.sent, live.reviewed) == (0, 1, 1)
    assert not _running(old), "the old coach runs on"
    svc = world.bot.matches
    assert svc is not None and old.hands_sent not in svc.hand_listeners
    # Its wait over: nothing more from the old coach.
    await world.env.advance_time(WAIT + 1)
    await world.env.settle()
    assert _reviews(world) == [_title(live)] and old.sent == 0
    _quiet(caplog)


async def test_an_unloaded_coach_sends_nothing_more(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await _review_waiting(world, caplog)
    old = coach_of(world.bot)
    await world.bot.unload_extension("cogs.umtali")
    assert not _running(old), "the unloaded coach runs on"
    svc = world.bot.matches
    assert svc is not None and old.hands_sent not in svc.hand_listeners
    await world.env.advance_time(WAIT + 1)
    await world.env.settle()
    assert not _reviews(world) and old.sent == 0, "sent by a coach unloaded"
    assert live.reviewed == 0
    said = [r.getMessage() for r in caplog.records if r.name == "cogs.umtali.coach"]
    assert any("left to the coach loaded next" in s for s in said), said
    _quiet(caplog)


async def test_a_closing_bot_leaves_no_review_running(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    await _review_waiting(world, caplog)
    old = coach_of(world.bot)
    await world.bot.close()
    assert not _running(old), "the review waiting runs on past the close"
    said = [r.getMessage() for r in caplog.records if r.name == "cogs.umtali.coach"]
    assert any("the bot stopped" in s for s in said), said
    _quiet(caplog)
