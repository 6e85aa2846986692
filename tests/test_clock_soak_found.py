"""What the turn clock's soak (tests/test_clock_soak.py) found, each as its own small case, the
seed that found it named. Over SimCord, with time injected through the service's clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.clock_state import LATE
from cogs.umtali.live import LiveMatch
from cogs.umtali.question import Question
from cogs.umtali.service import MatchService
from cogs.umtali.time_control import HOUR
from tests.discord_helpers import (
    World,
    custom_ids,
    dm_panel,
    flush,
    player,
    start_match,
    table_message,
    thread_of,
)
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_faults_timers import db_row
from tests.time_control_helpers import (
    button,
    played_in_dms,
    restarted_after,
    table_text,
    time_up,
)
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("posted", [True, False], ids=["asked", "post failed"])
async def test_a_clock_stopped_after_its_reminder_is_unwarned_in_memory_as_saved(
        world: World, db_path: Path, posted: bool) -> None:
    """Seed 9: the turn reminded, its clock stops for the time-up question, saved unwarned
    (``leases.stop_clock``), and so too once the post failed and the clock runs on
    (``set_deadline``): memory kept the turn warned."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None
    deadline = live.deadline
    await svc.check_timers(now=deadline - 2 * HOUR + 1)
    await flush(world)
    assert live.warned and db_row(db_path, live.id)["warned"] == 1
    if not posted:
        world.env.inject_error("POST", f"/channels/{thread_of(world, live).id}/messages",
                               status=503, times=1)
    await svc.check_timers(now=deadline + LATE + 1)
    await flush(world)
    saved = db_row(db_path, live.id)
    assert (saved["deadline"], bool(saved["warned"])) == (live.deadline, live.warned)
    assert live.deadline is (None if posted else deadline)


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("offline", [60, 0])
async def test_a_table_edit_failed_before_a_restart_is_made_after_it(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot], offline: float) -> None:
    """Seed 13: the clock stops for the time-up question; Discord fails the table's edit that
    says so, and the bot restarts before it tries again. The table went on saying the turn
    runs, its deadline long past, until the next move. The edit owed is saved with the
    failure (``matches.resend``) and cleared once made, after a quick restart too."""
    svc = world.bot.matches
    assert svc is not None
    live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None and live.table_message_id is not None
    world.env.inject_error(
        "PATCH", f"/channels/{live.channel_id}/messages/{live.table_message_id}",
        status=503, times=1)
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    assert live.deadline is None and "may claim" not in table_text(world, live)
    assert db_row(db_path, live.id)["resend"]
    _, restored = await restarted_after(world, make_bot, live, offline)
    assert restored.deadline is None
    assert "may claim the session or keep waiting" in table_text(world, restored)
    assert db_row(db_path, live.id)["resend"] == ""


def _questions(world: World) -> list[Any]:
    """The time-up questions, in the channel or in the players' DMs."""
    places = [world.channel, *world.channel.threads, world.alice.user.dm_channel,
              world.bob.user.dm_channel]
    return [m for place in places if place is not None for m in place.history()
            if "time for this turn is up" in (m.content or "")]


async def _asked(world: World, in_dms: bool) -> tuple[MatchService, LiveMatch, Any]:
    """A correspondence match (played in DMs, ``in_dms``) whose time is up: the time-up
    question asked. The service, the match and the question."""
    svc = world.bot.matches
    assert svc is not None
    if in_dms:
        live = await played_in_dms(world, time_control="correspondence")
    else:
        live = await start_match(world, time_control="correspondence")
    assert live.deadline is not None
    await svc.check_timers(now=live.deadline + LATE + 1)
    await flush(world)
    [question] = _questions(world)
    return svc, live, question


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("in_dms", [False, True], ids=["in the channel", "in DMs"])
async def test_a_withdrawn_questions_edit_owed_at_a_restart_is_made_after_it(
        world: World, db_path: Path, make_bot: Callable[[], UmtaliBot], in_dms: bool) -> None:
    """Seed 1284: the absent player back at the table withdraws the time-up question; Discord
    fails its edit, owed to the next check (in memory), and the bot restarts first. The
    question, saved withdrawn, kept its buttons for good (they answer that it is no longer
    needed): unless the restart happened to edit the table (time offline given back), with
    the channel lost (the DM panels are edited then) or after a quick restart."""
    svc, live, question = await _asked(world, in_dms)
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, times=1)
    # The absent player's move within the turn (typed: the channel lost, in another one).
    absent = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(absent))
    assert move.kind is not MoveKind.DISCARD
    moved = await player(world, absent).slash(world.channel, "umtali play", move=str(move))
    assert moved.acknowledged
    await flush(world)
    saved = Question.loads(db_row(db_path, live.id)["question"])
    assert saved is not None and saved.withdrawn and custom_ids(_questions(world)[0])
    svc, restored = await restarted_after(world, make_bot, live, 60 if in_dms else 0)
    for k in range(1, 3):
        await svc.check_timers(now=world.clock.now + k)
        await flush(world)
    [shown] = _questions(world)
    assert not custom_ids(shown) and "is back at the table" in shown.content
    assert restored.question == "" and db_row(db_path, live.id)["question"] == ""


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("action", ["wait", "claim"])
async def test_an_answer_to_the_question_whose_click_discord_fails_is_shown_all_the_same(
        world: World, db_path: Path, action: str) -> None:
    """Seed 3117: "Keep waiting" (or the claim) is saved, but Discord fails the click's
    answer, the question's edit: the table's edit saying the turn runs again was queued only
    after that answer, and never came (the table still said the waiting player may claim),
    and the question kept its buttons, which no longer answered anything."""
    live, question = await time_up(world)
    absent = live.session.to_act
    world.env.inject_error("POST", "/interactions/*/callback", status=503, times=1)
    clicked = await player(world, 1 - absent).click(question,
                                                    custom_id=button(question, action))
    await flush(world)
    assert "Discord failed for a moment" in clicked.response.content
    assert all("injected by test" in str(e) for e in world.env.errors)  # (seen)
    [shown] = _questions(world)
    answer = "keeps waiting" if action == "wait" else "claimed the win"
    assert not custom_ids(shown) and answer in shown.content, shown.content
    if action == "wait":
        assert live.deadline is not None
        assert db_row(db_path, live.id)["deadline"] == live.deadline
        text = table_text(world, live)
        assert "may claim" not in text and "clock is running" in text, text
    else:
        assert live.over and db_row(db_path, live.id)["how"] == "timed out"


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("action", ["wait", "claim"])
@pytest.mark.parametrize("in_dms", [False, True], ids=["in the channel", "in DMs"])
async def test_an_answer_whose_click_and_own_edit_discord_fails_is_shown_at_the_next_check(
        world: World, action: str, in_dms: bool) -> None:
    """Seed 1301: Discord fails the click's answer, and the bot's own edit of the question
    showing the answer too: the question kept its buttons (answering nothing any more) and
    never said what was chosen. The edit is owed, as a withdrawn question's is, to the clock's
    next check."""
    svc, live, question = await _asked(world, in_dms)
    absent = live.session.to_act
    world.env.inject_error("POST", "/interactions/*/callback", status=503, times=1)
    world.env.inject_error("PATCH", f"/channels/{question.channel.id}/messages/{question.id}",
                           status=503, times=1)
    waiting = player(world, 1 - absent)
    clicked = await (waiting.user if in_dms else waiting).click(
        question, custom_id=button(question, action))
    await flush(world)
    assert "Discord failed for a moment" in clicked.response.content
    assert all("injected by test" in str(e) for e in world.env.errors)  # (seen)
    assert custom_ids(_questions(world)[0])  # both failed: its buttons still on
    await svc.check_timers(now=world.clock.now + 1)
    await flush(world)
    [shown] = _questions(world)
    answer = "keeps waiting" if action == "wait" else "claimed the win"
    assert not custom_ids(shown) and answer in shown.content, shown.content


@pytest.mark.usefixtures("server_errors")
@pytest.mark.parametrize("how", ["typed", "hand panel"])
async def test_a_move_within_the_turn_whose_answer_discord_fails_reaches_the_dm_panel(
        world: World, how: str) -> None:
    """Seed 6307: a meld (typed, or from the table's "My hand" panel) is saved, but Discord
    fails its answer: the mover's DM panel was brought to the move only after that answer,
    and stayed a move behind, offering the meld already made."""
    live = await start_match(world)
    seat = live.session.to_act
    move = GreedyPlayer().choose(live.session.view(seat))
    assert move.kind is MoveKind.MELD
    version, actor = live.version, player(world, seat)
    if how == "typed":
        world.env.inject_error("POST", "/interactions/*/callback", status=503, times=2)
        await actor.slash(thread_of(world, live), "umtali play", move=str(move))
    else:
        table = await table_message(world, live)
        panel = await actor.click(table, custom_id=f"umtali:m:{live.id}:hand")
        lay = f"umtali:m:{live.id}:{version}:lay:{move}"
        assert lay in custom_ids(panel.response)
        world.env.inject_error("POST", "/interactions/*/callback", status=503, times=2)
        await actor.click(panel.response, custom_id=lay)
    await flush(world)
    assert all("injected by test" in str(e) for e in world.env.errors)  # (seen)
    assert live.version == version + 1 and live.session.to_act == seat
    ids = [i for i in custom_ids(dm_panel(actor, live, seat)) if i != f"umtali:m:{live.id}:order"]
    assert ids and all(i.startswith(f"umtali:m:{live.id}:{live.version}:") for i in ids), ids
