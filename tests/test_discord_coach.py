"""The coach of practice sessions on Discord: the Hint button and the review after each hand."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import discord
import pytest

from cogs.umtali.coach import coach_of
from cogs.umtali.coach_work import advise, seat_record
from cogs.umtali.live import LiveMatch
from cogs.umtali.play_panel import HintButton
from tests.discord_helpers import World, custom_ids, cut, flush, play, start_match, thread_of
from umtali.ai.resume import player_seed, seat_history
from umtali.i18n import EN, sentence, tr_for
from umtali.players import GreedyPlayer
from umtali.text import move_meaning

# The hard computer thinks in real worker processes: seconds of real CPU work on a
# loaded machine, which SimCord's 5 s wait for the bot to settle does not allow for.
pytestmark = pytest.mark.simcord(settle_timeout=30)


async def _practice(world: World) -> LiveMatch:
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged
    await cut(world, r)
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    return live


def _dm_panel(world: World, live: LiveMatch, seat: int) -> Any:
    actor = (world.alice, world.bob)[seat]
    return next(m for m in actor.user.dm_channel.history()
                if m.id == live.dm_message_ids[seat])


def _said(result: Any) -> str:
    parts = [result.response] if result.response is not None else []
    return "\n".join(m.content for m in [*parts, *result.followups])


async def _to_a_discard(world: World, live: LiveMatch) -> None:
    """Play the human's moves until they have a choice of discards (a searched decision)."""
    while not (live.session.to_act == 0 and live.session.view(0).phase == "meld"
               and len(live.session.view(0).legal_moves) > 3):
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)


async def test_a_practice_panel_offers_a_hint_and_a_rated_one_does_not(world: World) -> None:
    live = await _practice(world)
    assert live.session.to_act == 0
    assert f"umtali:m:{live.id}:hint" in custom_ids(_dm_panel(world, live, 0))
    # The ephemeral My-hand panel too.
    table = next(m for m in thread_of(world, live).history() if m.id == live.table_message_id)
    mine = await world.alice.click(table, custom_id=f"umtali:m:{live.id}:hand")
    assert mine.ephemeral and f"umtali:m:{live.id}:hint" in custom_ids(mine.response)

    svc = world.bot.matches
    assert svc is not None
    await svc.resign(live, 0)
    await flush(world)
    rated = await start_match(world)
    to_act = rated.session.to_act
    assert not any(c.endswith(":hint") for c in custom_ids(_dm_panel(world, rated, to_act)))


async def _warm(world: World) -> None:
    """Start the thinking workers and let them import the game: a first hint would wait
    seconds for them (Discord allows it, the answer being deferred; SimCord waits five)."""
    from umtali.rules import RuleSet
    from umtali.session import Session

    svc = world.bot.matches
    assert svc is not None
    session = Session(RuleSet.english(), 1)
    thinking = svc.computers.thinking
    await asyncio.gather(*(thinking.run(seat_record, session, 0, (1, 1))
                           for _ in range(thinking.workers)))


async def test_the_hint_is_hards_move_and_why_for_the_players_view_alone(
        world: World, locales: dict[int, str]) -> None:
    live = await _practice(world)
    await _warm(world)
    await _to_a_discard(world, live)
    view = live.session.view(0)
    version = live.version
    answer = await world.alice.user.click(_dm_panel(world, live, 0),
                                     custom_id=f"umtali:m:{live.id}:hint")
    assert answer.acknowledged and answer.ephemeral
    said = _said(answer)
    # The move and the reason of hard having seen what the seat saw of the hand, nothing else.
    session = live.session
    expected = advise(player_seed(session, 0), list(seat_history(session, 0)), view)
    move = expected.move
    assert move in view.legal_moves
    # In words, once: not its notation beside them ("`discard 9S` (discard 9♠)").
    assert "`" not in said, said
    assert f"the hard computer would {move_meaning(view, move, EN)}." in said, said
    assert sentence(EN(expected.reason)) in said
    assert live.version == version  # a hint changes nothing

    # Worded in the member's language.
    locales[world.alice.id] = "ru"
    again = await world.alice.user.click(_dm_panel(world, live, 0),
                                    custom_id=f"umtali:m:{live.id}:hint")
    russian = _said(again)
    assert again.ephemeral and sentence(tr_for("ru")(expected.reason)) in russian
    assert "Подсказка" in russian and move_meaning(view, move, tr_for("ru")) in russian
    assert "`" not in russian, russian


async def _forged_hint(world: World, actor: Any, match_id: int) -> Any:
    """A message of the bot's in the member's DM carrying a Hint button for ``match_id``: a
    panel from an earlier turn, or a click made up."""
    channel = await world.bot.create_dm(actor.user)
    view = discord.ui.View(timeout=None)
    view.add_item(HintButton(match_id))
    await channel.send("an old panel", view=view)
    await world.env.settle()
    return actor.user.dm_channel.last_message


async def test_a_hint_out_of_turn_or_in_a_rated_match_is_refused(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await _practice(world)
    svc = world.bot.matches
    assert svc is not None
    # The computer does not play: its turn lasts while the player asks.
    monkeypatch.setattr(svc.computers, "next", lambda live: None)
    while live.session.to_act == 0:
        await play(world, live, GreedyPlayer().choose(live.session.view(0)))
        await flush(world)
    version = live.version
    old = await _forged_hint(world, world.alice, live.id)
    answer = await world.alice.user.click(old, custom_id=f"umtali:m:{live.id}:hint")
    assert answer.ephemeral and "your own turn" in _said(answer)
    # Someone else's practice session.
    other = await _forged_hint(world, world.bob, live.id)
    answer = await world.bob.user.click(other, custom_id=f"umtali:m:{live.id}:hint")
    assert answer.ephemeral and "not your match" in _said(answer)
    assert live.version == version

    await svc.resign(live, 0)
    await flush(world)
    rated = await start_match(world)
    actor = (world.alice, world.bob)[rated.session.to_act]
    forged = await _forged_hint(world, actor, rated.id)
    version = rated.version
    answer = await actor.user.click(forged, custom_id=f"umtali:m:{rated.id}:hint")
    assert answer.ephemeral and "practice sessions" in _said(answer)
    assert rated.version == version


async def _to_the_hands_end(world: World, live: LiveMatch) -> None:
    """Play the first hand out, the coach's review of it done (or given up)."""
    while not live.session.hand_log:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await coach_of(world.bot).idle()
    await world.env.settle()


async def test_after_each_practice_hand_a_review_reaches_the_players_dm_alone(
        world: World) -> None:
    live = await _practice(world)
    coach = coach_of(world.bot)
    public = {world.channel.id, live.channel_id}
    checked = len(world.env.http_requests)
    dm = world.alice.user.dm_channel
    await _to_the_hands_end(world, live)
    assert coach.sent == 1
    [review] = [m for m in dm.history() if "Review of hand 1" in m.content]
    assert review.id != live.dm_message_ids[0]  # a message of its own, under the hand panel
    assert ("cost you most" in review.content) != ("finds no costly mistake" in review.content)
    # What it lists: the moves hard questions in the seat's record of the hand.
    record = seat_record(live.session, 0, (1, 1))
    played = [str(m) for _, m in record]
    assert played
    assert review.content.count("\n- ") <= 3
    # Nothing of it is posted in the match's channel or thread.
    for r in world.env.http_requests[checked:]:
        parts = r.path.strip("/").split("/")
        if parts[0] == "channels" and int(parts[1]) in public:
            assert "Review of hand" not in json.dumps(r.json or {}), r
    # One review a hand: the next delivery of the same hand sends none.
    svc = world.bot.matches
    assert svc is not None
    await coach.hands_sent(live)
    await coach.idle()
    assert coach.sent == 1


def test_a_review_is_the_coachs_review_of_the_seats_record() -> None:
    """``lessons`` follows ``coach.review`` step by step: at hard's own search budget, it finds
    the same moves at the same costs (should the coach change, this says so)."""
    from cogs.umtali.coach_work import HARD_BUDGET, lessons
    from umtali import RuleSet, Session
    from umtali.ai.coach import review
    from umtali.ai.normal import NormalPlayer

    session = Session(RuleSet.english(), 10)
    other = NormalPlayer()
    while not session.hand_log:
        view = session.view(session.to_act)
        # The seat always plays its first move: a hand with mistakes to find.
        move = view.legal_moves[0] if view.seat == 0 else other.choose(view)
        session.apply(move, view.seat)
    record = seat_record(session, 0, (1, 1))
    assert record == list(_replayed(session))
    found = lessons(record, "seed", budget=200, search=HARD_BUDGET)
    expected = review(record, "seed", budget=200)
    assert expected and [(m.played, m.better, m.cost) for m in found] == [
        (m.played, m.better, m.cost) for m in expected]
    for m in found:
        assert m.turn >= 1 and m.better in m.view.legal_moves and EN(m.why)


def _replayed(session: Any) -> Any:
    """The seat's views and moves of hand 1, as a player of the hand would have seen them."""
    from umtali import Session

    replica = Session(session.rules, session.seed)
    for move in session.moves:
        seat = replica.to_act
        if replica.hand_log:
            return
        if seat == 0:
            yield replica.view(0), move
        replica.apply(move, seat)


async def test_a_review_that_cannot_be_made_never_holds_up_the_match(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    live = await _practice(world)
    svc = world.bot.matches
    assert svc is not None
    coach = coach_of(world.bot)
    # No worker will take the review (as when the bot stops): it is skipped, with a warning.
    await svc.computers.thinking.close()
    caplog.set_level(logging.WARNING, logger="cogs.umtali.coach")
    while not live.session.hand_log:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await coach.idle()
    assert coach.sent == 0
    assert any("no review of the hand" in r.getMessage() for r in caplog.records
               if r.levelno == logging.WARNING)
    # The next hand is played on.
    version = live.version
    for _ in range(3):
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    assert live.version > version and not live.over
    assert not [m for m in world.alice.user.dm_channel.history() if "Review of" in m.content]


async def test_a_review_refused_by_dms_closed_since_the_panel_marks_the_seat_refused(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """The player closes their DMs during the hand (the panel, edited in place, still shows):
    the review sent at the hand's end is refused. That is no fault of the bot's (no WARNING):
    the seat is taken for closed, as a refused panel makes it, and the player is told in the
    channel to play from the table's My hand button."""
    import logging
    import sqlite3

    live = await _practice(world)
    coach = coach_of(world.bot)
    dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    caplog.set_level(logging.INFO, logger="cogs")
    await _to_the_hands_end(world, live)
    assert coach.sent == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert live.dm_refused[0]
    with sqlite3.connect(world.bot.settings.db_path) as db:
        assert db.execute("SELECT dm_refused0 FROM matches WHERE id = ?",
                          (live.id,)).fetchone()[0]
    told = [m for m in thread_of(world, live).history()
            if "can't send you direct messages" in m.content]
    assert len(told) == 1 and f"<@{world.alice.id}>" in told[0].content


async def test_no_review_goes_to_dms_refused_as_saved_by_another_copy(
        world: World) -> None:
    """Another copy of the practice match (the other process's) found the player's DMs
    closed and saved it; this copy, read before, takes them for open: it sends no review there
    (each send is one more request Discord counts as invalid: the soak, SQLite, two
    processes, seeds 1150 and 1151, three refused sends in a hand)."""
    live = await _practice(world)
    coach = coach_of(world.bot)
    dm = world.alice.user.dm_channel
    svc = world.bot.matches
    assert svc is not None
    await svc.store.set_dm_refused(live.id, 0)  # as the other copy saved it
    assert not live.dm_refused[0]  # this copy's
    await _to_the_hands_end(world, live)
    assert coach.sent == 0
    assert not [m for m in dm.history() if "Review of hand" in m.content]
