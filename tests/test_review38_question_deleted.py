"""Review 38: a correspondence question whose message is deleted (a moderator tidying the
thread) while it stands. The clock stays stopped for its answer, and nothing asks it again:
the waiting player, whose opponent may never come back, had no button left to claim the
session with, nor to keep waiting; the session hung for good. ``/umtali table``, posting the
table again, asks it again. Over SimCord."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.umtali.time_control import DAY
from tests.discord_helpers import World, custom_ids, flush, player, thread_of
from tests.test_faults_timers import db_row
from tests.test_lang_announce_once import enforced_nonces  # noqa: F401 (a fixture)
from tests.time_control_helpers import button, question_deleted, time_up

ASKED = "time for this turn is up"


# As Discord does: a nonce sent again within minutes gives back its message, deleted or not,
# and creates none (the question asked anew carries a nonce of its own).
@pytest.mark.usefixtures("enforced_nonces")
async def test_a_deleted_question_is_asked_again_when_the_table_is_posted_again(
        world: World, db_path: Path) -> None:
    # Deleted by a moderator (the bot hears nothing of it: no message intents).
    d = await question_deleted(world)
    svc, live, question, waiting, thread = d.svc, d.live, d.question, d.waiting, d.thread
    absent = live.session.to_act
    # Days go by: the clock stays stopped for an answer nobody can give any more.
    world.clock.advance(2 * DAY)
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    assert not live.over and live.deadline is None
    # The waiting player posts the table again: the question comes back with it.
    shown = await waiting.slash(thread, "umtali table")
    assert shown.acknowledged and not shown.ephemeral, shown.response.content
    await flush(world)
    for _ in range(2):
        world.clock.advance(1)
        await svc.check_timers(now=world.clock.now)
        await flush(world)
    asked = [m for m in thread.history() if ASKED in m.content and custom_ids(m)]
    assert len(asked) == 1, [m.content for m in thread.history()]
    again = asked[0]
    assert again.id != question.id and f"<@{live.player_ids[1 - absent]}>" in again.content
    claimed = await waiting.click(again, custom_id=button(again, "claim"))
    assert claimed.acknowledged and not claimed.ephemeral, claimed.response.content
    await flush(world)
    assert live.over and live.session.winner == 1 - absent
    assert db_row(db_path, live.id)["how"] == "timed out"


async def test_a_question_still_there_is_not_asked_twice_by_the_table_posted_again(
        world: World) -> None:
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    thread = thread_of(world, live)
    shown = await player(world, 1 - absent).slash(thread, "umtali table")
    assert shown.acknowledged and not shown.ephemeral
    await flush(world)
    for _ in range(2):
        world.clock.advance(1)
        await svc.check_timers(now=world.clock.now)
        await flush(world)
    asked = [m for m in thread.history() if ASKED in m.content]
    assert [m.id for m in asked] == [question.id]
    assert custom_ids(asked[0])


async def test_keep_waiting_then_claim_the_next_day(world: World, db_path: Path) -> None:
    """Checked sound (review 38): "keep waiting", the absent player still away a day later,
    is asked once more, and the claim then wins; the first question keeps its answer."""
    svc = world.bot.matches
    assert svc is not None
    live, question = await time_up(world)
    absent = live.session.to_act
    waiting = player(world, 1 - absent)
    kept = await waiting.click(question, custom_id=button(question, "wait"))
    assert kept.acknowledged and not kept.ephemeral
    await flush(world)
    assert live.deadline is not None
    world.clock.advance(DAY + 10)
    await svc.check_timers(now=world.clock.now)
    await flush(world)
    thread = thread_of(world, live)
    asked = [m for m in thread.history() if ASKED in m.content and custom_ids(m)]
    assert len(asked) == 1 and asked[0].id != question.id
    claimed = await waiting.click(asked[0], custom_id=button(asked[0], "claim"))
    assert claimed.acknowledged and not claimed.ephemeral
    await flush(world)
    assert live.over and live.session.winner == 1 - absent
    first = next(m for m in thread.history() if m.id == question.id)
    assert "keeps waiting" in first.content and not custom_ids(first)
