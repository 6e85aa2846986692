"""A challenge posted whose message could not be saved (the database busy past its timeout)
stands on show, answerable (``note_posted``). Half a minute on, the pair's next challenge (its
challenger impatient, or the other member challenging back) took it for one never posted
(``drop_lost``: no message a while after its save), closed it unseen and posted another: the
first stayed on show, its Accept answered "no longer open", its expiry never said (no message
to edit), and the challenged member was pinged twice. Left alone, it looked open for good:
its expiry had no message to edit. SimCord, a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cogs.umtali.challenge_expiry import expire_challenges
from cogs.umtali.challenge_posts import UNPOSTED
from cogs.umtali.challenges import CHALLENGE_TTL
from data.store import Limits
from tests.discord_helpers import World, challenge, custom_ids, flush
from tests.test_challenge_message_unsaved import unsaved_once


def _statuses(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as c:
        return [row[0] for row in c.execute("SELECT status FROM challenges ORDER BY id")]


@pytest.mark.parametrize("again_by", ["challenger", "challenged"])
async def test_a_challenge_on_show_with_its_message_unsaved_holds_the_pair(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch, again_by: str) -> None:
    failed = unsaved_once(world, monkeypatch)
    await challenge(world, world.alice, world.bob)
    await flush(world)
    assert failed and _statuses(db_path) == ["open"]
    world.clock.advance(max(UNPOSTED, Limits().challenge_cooldown) + 1)
    one, other = (world.alice, world.bob) if again_by == "challenger" else (world.bob, world.alice)
    again = await one.slash(world.channel, "umtali challenge", opponent=other)
    await flush(world)
    # The one on show stands: the second is refused, as for any open challenge of the pair.
    assert _statuses(db_path) == ["open"], again.response


async def test_a_challenge_on_show_with_its_message_unsaved_says_it_expired(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = unsaved_once(world, monkeypatch)
    offered = await challenge(world, world.alice, world.bob)
    await flush(world)
    assert failed
    world.clock.advance(CHALLENGE_TTL + 1)
    await expire_challenges(world.bot)
    await flush(world)
    assert _statuses(db_path) == ["expired"]
    message = next(m for m in world.channel.history() if m.id == offered.response.id)
    # Not left looking open, its buttons on, for good.
    assert "expired" in str(message.embeds[0].description)
    assert not custom_ids(message)
