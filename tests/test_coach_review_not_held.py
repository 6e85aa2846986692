"""A practice hand's review waiting to be sent again (its DM failed for now, ``coach``) holds
back no later hand's review: that one goes out when due. The earlier one, its wait over, is
dropped: the player has the later one, and an older review arriving under it reads as out of
order. So too once the later one was sent and not saved as sent (the database failing then):
the player has it all the same."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from cogs.umtali import coach_delivery
from cogs.umtali.coach import coach_of
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, flush, play
from tests.test_discord_coach import _practice
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from umtali.players import GreedyPlayer

# The hard computer thinks in real worker processes (``test_discord_coach``).
pytestmark = [pytest.mark.simcord(settle_timeout=30), pytest.mark.usefixtures("server_errors")]

#: The one wait before the review is sent again (virtual seconds): longer than the time
#: ``play`` moves on while the second hand is played (181 s each 20 moves).
WAIT = 3600.0


@pytest.fixture(autouse=True)
def one_long_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach_delivery, "SEND_AGAIN_AFTER", (WAIT,))


def _reviews(world: World) -> list[str]:
    return [m.content.split(":", 1)[0] for m in world.alice.user.dm_channel.history()
            if "Review of hand" in m.content]


def _title(hand: tuple[int, ...]) -> str:
    game, number = hand[:2]
    return f"**Review of hand {number}** (game {game})"


async def _to_the_end_of_hand(world: World, live: LiveMatch, hands: int) -> None:
    """Play on until ``hands`` hands have ended; the bot's work settled (but for waits)."""
    while len(live.session.hand_log) < hands:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await world.env.settle()


async def test_a_later_hands_review_is_not_held_back_by_an_earlier_ones_wait(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    live = await _practice(world)
    coach = coach_of(world.bot)
    caplog.set_level(logging.INFO, logger="cogs")
    dm = world.alice.user.dm_channel
    # The first hand's review fails for now, once: it waits WAIT s to be sent again.
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503,
                           message="Unavailable", times=1)
    await _to_the_end_of_hand(world, live, 1)
    assert not _reviews(world) and coach.sent == 0
    await _to_the_end_of_hand(world, live, 2)
    first, second = (_title(h) for h in live.session.hand_log[:2])
    assert _reviews(world) == [second], "the later hand's review was held back"
    assert coach.sent == 1 and live.reviewed == 2
    # The earlier one's wait over: dropped, not sent under the later one.
    await world.env.advance_time(WAIT + 1)
    await coach.idle()
    await world.env.settle()
    assert _reviews(world) == [second] and first != second and coach.sent == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_later_review_sent_and_not_saved_still_drops_the_earlier_ones_wait(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    live = await _practice(world)
    coach = coach_of(world.bot)
    caplog.set_level(logging.INFO, logger="cogs")
    dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503,
                           message="Unavailable", times=1)
    await _to_the_end_of_hand(world, live, 1)
    assert not _reviews(world) and coach.sent == 0
    # The later review is sent, and its save as sent fails.
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TRIGGER review_unsaved BEFORE UPDATE OF reviewed ON matches "
                   "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
    await _to_the_end_of_hand(world, live, 2)
    with sqlite3.connect(db_path) as db:
        db.execute("DROP TRIGGER review_unsaved")
    first, second = (_title(h) for h in live.session.hand_log[:2])
    assert _reviews(world) == [second] and coach.sent == 1 and live.reviewed == 0
    await world.env.advance_time(WAIT + 1)
    await coach.idle()
    await world.env.settle()
    assert _reviews(world) == [second], "the earlier review came under the later one"
    assert first != second and coach.sent == 1
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1 and "not saved as sent" in warned[0], warned
