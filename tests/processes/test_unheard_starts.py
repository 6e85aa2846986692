"""A match's start, or a challenge, whose COMMIT went through while the bot was told it failed
(``tests.unheard``), on SQLite and PostgreSQL: an accepted challenge, a practice session's cut,
a rematch asked and a practice offered are read back and carried on as saved
(``cogs.umtali.unheard``): the table posted, the challenge shown with its buttons."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.umtali.claims import LEASE
from cogs.umtali.errors import APOLOGY
from data.store import Limits
from tests.discord_helpers import (
    World,
    accept,
    challenge,
    custom_ids,
    cut,
    flush,
    start_match,
    submit_cut,
    the_match,
)
from tests.processes.helpers import main_of, row
from tests.processes.test_unheard_moves import words
from tests.test_faults_opening import server_errors  # noqa: F401 (a fixture)
from tests.test_records_discord import resign
from tests.test_rematch import final_table
from tests.unheard import MAYBE, lose_answer

#: A match's start, and a challenge's, each saved alone.
START, CHALLENGE = "INSERT INTO matches", "INSERT INTO challenges"


async def _shown(world: World) -> None:
    """The one match started is in play here, its table posted and saved."""
    live = the_match(world)
    assert not live.over and live.table_message_id is not None
    assert (await row(world, live.id))["table_message_id"] == live.table_message_id
    assert live.session.to_act is not None


def _fine(result: Any) -> bool:
    return result.acknowledged and not any(APOLOGY[:20] in w for w in words(result))


async def test_an_accept_saved_unheard_starts_the_match(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    offered = await challenge(world, world.alice, world.bob)
    lost = lose_answer(monkeypatch, main_of(world).store.db, START)
    taken = await accept(world.bob, offered.response)
    await flush(world)
    assert lost.answers == 1 and _fine(taken), words(taken)
    await _shown(world)


async def test_a_practice_cut_saved_unheard_starts_the_session(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    offered = await world.alice.slash(world.channel, "umtali practice")
    lost = lose_answer(monkeypatch, main_of(world).store.db, START)
    taken = await cut(world, offered)
    assert lost.answers == 1 and _fine(taken), words(taken)
    await _shown(world)


async def test_a_practice_offer_saved_unheard_is_posted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    lost = lose_answer(monkeypatch, main_of(world).store.db, CHALLENGE)
    offered = await world.alice.slash(world.channel, "umtali practice")
    assert lost.answers == 1 and _fine(offered), words(offered)
    await cut(world, offered)
    await _shown(world)


async def test_a_rematch_saved_unheard_is_posted_and_can_be_accepted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    first = await start_match(world)
    await resign(world, world.bob, first)
    world.clock.advance(Limits().challenge_cooldown)
    lost = lose_answer(monkeypatch, main_of(world).store.db, CHALLENGE)
    asked = await world.alice.click(final_table(world, first), custom_id=f"umtali:rm:{first.id}")
    assert lost.answers == 1 and _fine(asked), words(asked)
    assert asked.response is not None
    button = next(c for c in custom_ids(asked.response) if c.endswith(":accept"))
    taken = await submit_cut(world.bob, await world.bob.click(asked.response, custom_id=button))
    await flush(world)
    assert _fine(taken), words(taken)
    svc = main_of(world)
    second = next(m for m in svc.matches.values() if not m.over)
    assert second.player_ids == (world.bob.id, world.alice.id)
    assert second.table_message_id is not None


async def test_an_accept_unheard_and_unread_is_cancelled_by_the_clock(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    offered = await challenge(world, world.alice, world.bob)
    svc = main_of(world)
    lost = lose_answer(monkeypatch, svc.store.db, START, reads_fail=1)
    taken = await accept(world.bob, offered.response)
    assert lost.reads == 1 and any(MAYBE in w for w in words(taken)), words(taken)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # Saved, but not known here: no copy in memory, nothing shown, so no clock runs on it.
    assert svc.matches == {}
    [saved] = await svc.store.active_matches()
    # Its lease, not renewed, lapses: the process takes it back, never shown, and cancels it
    # (nobody forfeits a match never shown); both players are free to play again.
    for step in (LEASE + 1, 1, 1):
        world.clock.advance(step)
        await svc.check_timers()
        await flush(world)
    assert (await row(world, saved.id))["status"] == "finished"
    assert await svc.store.active_match_of(world.guild.id, world.bob.id) is None
    assert any("this match was cancelled" in (m.content or "")
               for m in world.channel.history())


@pytest.mark.usefixtures("server_errors")
async def test_a_cancel_saved_unheard_lets_the_match_go(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first posts fail, so the match is cancelled; the cancel's answer is lost."""
    offered = await challenge(world, world.alice, world.bob)
    svc = main_of(world)
    world.env.inject_error("POST", "/channels/*/messages", status=503, times=None)
    lost = lose_answer(monkeypatch, svc.store.db, "SET status = 'finished', finished_at = ?, how")
    taken = await accept(world.bob, offered.response)
    world.env.backend.faults.clear()
    await flush(world)
    assert lost.answers == 1 and _fine(taken), words(taken)
    # Cancelled, as the database has it: nothing kept for it, no clock, both players free.
    assert svc.matches == {} and not svc.tracked(1)
    [saved] = await svc.store.db.fetchall("SELECT status, how FROM matches")
    assert (saved["status"], saved["how"]) == ("finished", "cancelled")
    assert await svc.store.active_match_of(world.guild.id, world.bob.id) is None


@pytest.mark.usefixtures("server_errors")
async def test_a_cancel_unheard_and_unread_lets_the_match_go_at_the_next_check(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first posts fail, so the match is cancelled; the cancel's answer is lost, and the
    read that would settle it fails too: the clock's next check reads it, and lets it go (its
    cancel was tried again at every tick, for good, found already ended each time)."""
    offered = await challenge(world, world.alice, world.bob)
    svc = main_of(world)
    world.env.inject_error("POST", "/channels/*/messages", status=503, times=None)
    lost = lose_answer(monkeypatch, svc.store.db, "SET status = 'finished', finished_at = ?, how",
                       reads_fail=1)
    taken = await accept(world.bob, offered.response)
    world.env.backend.faults.clear()
    await flush(world)
    assert lost.answers == 1 and lost.reads == 1
    assert any(MAYBE in w for w in words(taken)), words(taken)
    [saved] = await svc.store.db.fetchall("SELECT status, how FROM matches")
    assert (saved["status"], saved["how"]) == ("finished", "cancelled")
    for _ in range(3):
        world.clock.advance(1)
        await svc.check_timers()
        await flush(world)
    # Let go as the database has it: nothing kept for it, its cancel not tried again.
    assert svc.matches == {} and not svc.tracked(1)
    assert not any("this match was cancelled" in (m.content or "")
                   for m in world.channel.history())
