"""A challenge (or a practice offer) posted, its message then not saved with it: the database
busy past its timeout (another writer on the file) or out of reach. The offer is up and
answerable (a click on it is known by its channel), so its poster is not told to try again,
which would be refused as a second challenge of the pair, or close the one on show; and no
error is logged for it."""

from __future__ import annotations

import sqlite3

import pytest

from cogs.umtali.errors import APOLOGY, BUSY
from tests.discord_helpers import World, accept, challenge, cut, flush, the_match


def unsaved_once(world: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The next save of a challenge's message fails as a busy SQLite file fails it."""
    svc = world.bot.matches
    assert svc is not None
    save = svc.store.set_challenge_message
    failed: list[int] = []

    async def locked(challenge_id: int, message_id: int) -> None:
        if not failed:
            failed.append(challenge_id)
            raise sqlite3.OperationalError("database is locked")
        await save(challenge_id, message_id)
    monkeypatch.setattr(svc.store, "set_challenge_message", locked)
    return failed


def said(result: object) -> str:
    return " ".join(str(f.content) for f in getattr(result, "followups", []))


async def test_a_challenge_whose_message_is_not_saved_is_posted_and_accepted(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = unsaved_once(world, monkeypatch)
    offered = await challenge(world, world.alice, world.bob)
    await flush(world)
    assert failed
    assert BUSY[:30] not in said(offered) and APOLOGY[:20] not in said(offered)
    answer = await accept(world.bob, offered.response)
    assert answer.acknowledged
    await flush(world)
    assert not the_match(world).over


async def test_a_practice_offer_whose_message_is_not_saved_is_posted_and_cut(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = unsaved_once(world, monkeypatch)
    offered = await world.alice.slash(world.channel, "umtali practice")
    await flush(world)
    assert failed and offered.acknowledged and not offered.ephemeral
    assert BUSY[:30] not in said(offered) and APOLOGY[:20] not in said(offered)
    await cut(world, offered)
    assert not the_match(world).over
