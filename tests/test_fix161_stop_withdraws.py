"""fix161: a member's stop of another's challenges (``Stop challenges from …``) left that
member's challenges to them still open on other servers: one could be accepted there after
the stop. The stop now withdraws them, on every server, in the same save (nothing done unless
both are), and each one's message says so in its own server's language, its buttons gone.
Two servers in one SimCord, on a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.challenges
from data.store import Store
from tests.db_lock import write_locked
from tests.discord_helpers import World, accept, challenge, custom_ids, flush
from tests.test_fix162_stop_challenges import HELD, _decline, _private, _said, _stop


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", 0.5)


def _status(db_path: Path, challenge_id: int) -> str:
    with sqlite3.connect(db_path) as c:
        return str(c.execute("SELECT status FROM challenges WHERE id = ?",
                             (challenge_id,)).fetchone()[0])


def _matches(db_path: Path) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM matches").fetchone()[0])


def _challenge_id(posted: Any) -> int:
    button = next(c for c in custom_ids(posted.response) if c.endswith(":accept"))
    return int(button.split(":")[2])


def _shown(channel: Any, message_id: int) -> Any:
    """The message as Discord shows it now."""
    return next(m for m in channel.history() if m.id == message_id)


class Elsewhere:
    """A second server, in Russian, where ada and cy are members too, and ada's challenge to
    cy there, open."""

    def __init__(self, world: World) -> None:
        self.guild = world.env.create_guild("Шахматный клуб", preferred_locale="ru")
        self.channel = self.guild.create_text_channel("игры")
        self.ada = self.guild.add_member(world.alice.user)
        self.cy = self.guild.add_member(world.carol.user)
        self.posted: Any = None
        self.id = 0
        self.buttons: list[str] = []

    async def challenged(self, world: World) -> Elsewhere:
        world.clock.advance(60)
        self.posted = await self.ada.slash(self.channel, "umtali challenge", opponent=self.cy)
        assert self.posted.acknowledged and not self.posted.ephemeral, _said(self.posted)
        self.id, self.buttons = _challenge_id(self.posted), custom_ids(self.posted.response)
        return self

    @property
    def message(self) -> Any:
        return _shown(self.channel, self.posted.response.id)


async def _declined_here(world: World) -> Any:
    """ada's challenge to cy on the first server, declined by cy: the click, with its offer
    to stop ada."""
    posted = await challenge(world, world.alice, world.carol)
    return await _decline(world, posted, world.carol)


async def test_a_stop_withdraws_the_challenges_open_on_other_servers(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    there = await Elsewhere(world).challenged(world)
    # Not the stopped member's challenges to cy: cy's own to ada, and ada's to ben, stay.
    world.clock.advance(60)
    ben = there.guild.add_member(world.bob.user)
    hers = await there.cy.slash(there.channel, "umtali challenge",
                                opponent=ben)
    assert not hers.ephemeral, _said(hers)
    clicked = await _declined_here(world)
    stopped = await _stop(world, clicked, world.carol)
    assert stopped.acknowledged and _private(stopped), _said(stopped)
    await flush(world)
    assert _status(db_path, there.id) == "cancelled"
    assert _status(db_path, _challenge_id(hers)) == "open"
    # Its message, in place, in its server's language: withdrawn, no buttons left.
    shown = there.message
    said = str(shown.embeds[0].description)
    assert said.splitlines()[-1] == "**Этот вызов отозван.**", said
    assert custom_ids(shown) == []
    # Neutral: the channel is not told who stopped whom.
    assert "cy" not in said.splitlines()[-1] and "остановил" not in said
    assert _matches(db_path) == 0
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_challenge_whose_channel_is_gone_is_withdrawn_all_the_same(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    there = await Elsewhere(world).challenged(world)
    gone = await Elsewhere(world).challenged(world)  # (a third server, its channel deleted)
    world.env.backend.delete_channel(gone.channel.id)
    await world.env.settle()
    clicked = await _declined_here(world)
    stopped = await _stop(world, clicked, world.carol)
    assert _private(stopped) and "ada can no longer challenge you" in _said(stopped), \
        _said(stopped)
    await flush(world)
    assert _status(db_path, gone.id) == "cancelled"
    # The one whose message is still there says so all the same.
    assert _status(db_path, there.id) == "cancelled"
    assert "**Этот вызов отозван.**" in str(there.message.embeds[0].description)
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_stop_not_saved_withdraws_nothing(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    there = await Elsewhere(world).challenged(world)
    clicked = await _declined_here(world)
    # Another process holds the database past the busy timeout as the stop is saved.
    async with write_locked(db_path, HELD):
        failed = await _stop(world, clicked, world.carol)
    assert _private(failed) and "could not be saved" in _said(failed), _said(failed)
    await flush(world)
    # Nothing half-done: neither the stop, nor the withdrawal, nor its message's edit.
    assert _status(db_path, there.id) == "open"
    assert custom_ids(there.message) == there.buttons
    assert "отозван" not in str(there.message.embeds[0].description)
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    # Clicked again, it is done in full.
    again = await _stop(world, clicked, world.carol)
    assert "ada can no longer challenge you" in _said(again), _said(again)
    await flush(world)
    assert _status(db_path, there.id) == "cancelled"
    assert "**Этот вызов отозван.**" in str(there.message.embeds[0].description)


async def test_an_accept_the_stop_overtakes_is_refused(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """cy accepts ada's challenge on the other server as her stop is saved (through another
    process: one SimCord runs one interaction at a time): the stop saved between the accept's
    read and its match's save, the accept finds the challenge closed, and no match is made;
    its message says withdrawn, not accepted."""
    from cogs.umtali.stops import say_withdrawn

    there = await Elsewhere(world).challenged(world)
    await _declined_here(world)
    from cogs.umtali.permissions import standing as real

    other = await Store.open(db_path)
    try:
        async def stopped_meanwhile(interaction: Any, user_id: int) -> str | None:
            # The accept read the challenge open; its match is not saved yet.
            for ch in await other.stop_challenges(world.carol.id, world.alice.id,
                                                  world.clock()):
                await say_withdrawn(world.bot, ch)  # (as that process says it)
            return await real(interaction, user_id)

        monkeypatch.setattr(cogs.umtali.challenges, "standing", stopped_meanwhile)
        late = await accept(there.cy, there.posted.response)
    finally:
        await other.close()
    await flush(world)
    assert "no longer open" in _said(late), _said(late)
    assert _matches(db_path) == 0
    assert _status(db_path, there.id) == "cancelled"
    assert "**Этот вызов отозван.**" in str(there.message.embeds[0].description)
    assert custom_ids(there.message) == []


async def test_an_accept_saved_before_the_stop_keeps_its_match(
        world: World, db_path: Path) -> None:
    """The other way round: cy's accept there saved first, her stop leaves that challenge,
    and its match, as they are (the stop closes only what is still open, in its save)."""
    there = await Elsewhere(world).challenged(world)
    clicked = await _declined_here(world)
    made = await accept(there.cy, there.posted.response)
    assert made.acknowledged and "no longer open" not in _said(made), _said(made)
    await flush(world)
    stopped = await _stop(world, clicked, world.carol)
    assert "ada can no longer challenge you" in _said(stopped), _said(stopped)
    await flush(world)
    assert _status(db_path, there.id) == "accepted" and _matches(db_path) == 1
    assert "отозван" not in str(there.message.embeds[0].description)


async def test_a_challenge_whose_message_was_not_saved_is_said_withdrawn_too(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other server's challenge was posted, its message's save failing (the database
    locked): known to this process alone, its message says it was withdrawn all the same."""
    store = world.bot.matches.store if world.bot.matches else None
    assert store is not None

    async def locked(challenge_id: int, message_id: int) -> None:
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as patched:
        patched.setattr(store, "set_challenge_message", locked)
        there = await Elsewhere(world).challenged(world)
    clicked = await _declined_here(world)
    await _stop(world, clicked, world.carol)
    await flush(world)
    assert _status(db_path, there.id) == "cancelled"
    assert "**Этот вызов отозван.**" in str(there.message.embeds[0].description)
    assert custom_ids(there.message) == []
