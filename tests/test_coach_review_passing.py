"""A practice hand's review whose DM fails for now (Discord's 5xx once discord.py's own retries
are spent, the network): sent again a while later, once, with the same nonce (``coach``). No
ERROR, no WARNING for a failure that passed; dropped with a WARNING once it lasts past the
last try."""

from __future__ import annotations

import logging

import pytest

from cogs.umtali import coach_delivery
from cogs.umtali.coach import coach_of
from tests.discord_helpers import World
from tests.test_discord_coach import _practice, _to_the_hands_end
from tests.test_faults_delivery_lasting import NETWORK, network_errors  # noqa: F401 (a fixture)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)

# The hard computer thinks in real worker processes (``test_discord_coach``).
pytestmark = [pytest.mark.simcord(settle_timeout=30),
              pytest.mark.usefixtures("server_errors", "network_errors")]

REVIEW = "Review of hand 1"


@pytest.fixture(autouse=True)
def quick_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's tries a moment apart, not seconds to minutes."""
    monkeypatch.setattr(coach_delivery, "SEND_AGAIN_AFTER", (0.05, 0.05))


def fails_at_the_review(world: World, status: int, times: int | None) -> None:
    """New messages to the player's DMs fail (``status``, ``times`` times, None: from then
    on). In the first hand, the review is the only one: the hand's panel is edited in place."""
    dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=status,
                           message="Unavailable", times=times)


@pytest.mark.parametrize("status", [503, NETWORK], ids=["5xx", "network"])
async def test_a_review_failing_for_now_is_sent_when_it_passes(
        world: World, caplog: pytest.LogCaptureFixture, status: int) -> None:
    live = await _practice(world)
    coach = coach_of(world.bot)
    dm = world.alice.user.dm_channel
    caplog.set_level(logging.INFO, logger="cogs")
    fails_at_the_review(world, status, 1)
    await _to_the_hands_end(world, live)
    assert len([m for m in dm.history() if REVIEW in m.content]) == 1, \
        "the review was not sent once"
    assert coach.sent == 1 and live.reviewed >= 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not live.dm_refused[0]


async def test_a_review_failing_for_good_is_dropped_with_a_warning(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await _practice(world)
    coach = coach_of(world.bot)
    dm = world.alice.user.dm_channel
    caplog.set_level(logging.INFO, logger="cogs")
    fails_at_the_review(world, NETWORK, None)
    await _to_the_hands_end(world, live)
    assert coach.sent == 0 and not [m for m in dm.history() if REVIEW in m.content]
    tried = [r for r in caplog.records if r.name == "cogs.umtali.coach_delivery"]
    assert [r.levelno for r in tried] == [logging.INFO, logging.INFO, logging.WARNING]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
