"""fix175 (review163 F1, a regression of fix170): the timers' tick closed every challenge due
first and edited their messages only after the loop; a save failing in between (a later
close, "database is locked") lost the list: the challenges stayed expired in the database,
their buttons for good (nothing finds a closed challenge again). Each is now said as soon as
it is closed. One SimCord, on a real SQLite file."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.access import service
from cogs.umtali.challenge_expiry import expire_challenges
from tests.discord_helpers import World, challenge, custom_ids, flush
from tests.test_fix161_stop_withdraws import _challenge_id, _shown, _status

EXPIRED = "This challenge expired: nobody answered in time."


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", 0.5)


def _lock_after_the_first_close(monkeypatch: pytest.MonkeyPatch, world: World,
                                db_path: Path) -> Callable[[], None]:
    """After the tick's first close (or late save of a message's id) is saved, another
    connection holds the write lock (a long write elsewhere): the next close fails. Returns
    what lets it go."""
    store = service(world.bot).store
    held: list[sqlite3.Connection] = []
    for name in ("close_challenge", "expire_challenge", "save_message_late"):
        real = getattr(store, name, None)
        if real is None:
            continue

        def closing(real: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            async def close(*args: Any, **kwargs: Any) -> Any:
                closed = await real(*args, **kwargs)
                if not held:
                    other = sqlite3.connect(db_path, isolation_level=None, timeout=0)
                    other.execute("BEGIN IMMEDIATE")
                    held.append(other)
                return closed
            return close
        monkeypatch.setattr(store, name, closing(real))

    def let_go() -> None:
        for other in held:
            other.execute("ROLLBACK")
            other.close()
    return let_go


async def test_a_close_failing_later_in_the_tick_leaves_no_expired_buttons(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = await challenge(world, world.alice, world.bob)
    second = await challenge(world, world.alice, world.carol)
    await flush(world)
    ids = [_challenge_id(first), _challenge_id(second)]
    world.clock.advance(601)
    let_go = _lock_after_the_first_close(monkeypatch, world, db_path)
    try:
        with pytest.raises(Exception, match="locked"):
            await expire_challenges(world.bot)
    finally:
        let_go()
    await flush(world)
    assert [_status(db_path, i) for i in ids] == ["expired", "open"]
    await _all_said_expired(world, db_path, (first, second), ids)


async def test_an_expiry_elsewhere_is_said_though_a_close_after_it_fails(
        world: World, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The poster's tick saves the id of a message only it knew, of a challenge another
    process expired meanwhile (fix170), then a close fails: the message says it all the same
    (the save forgot the id here: nothing would find it again)."""
    elsewhere = await challenge(world, world.alice, world.bob)
    due = await challenge(world, world.alice, world.carol)
    await flush(world)
    ids = [_challenge_id(elsewhere), _challenge_id(due)]
    svc = service(world.bot)
    with sqlite3.connect(db_path) as c:
        c.execute("UPDATE challenges SET message_id = NULL WHERE id = ?", (ids[0],))
    svc.unsaved_posts[ids[0]] = elsewhere.response.id
    assert await svc.store.close_challenge(ids[0], "expired")  # (the other process)
    world.clock.advance(601)
    let_go = _lock_after_the_first_close(monkeypatch, world, db_path)
    try:
        with pytest.raises(Exception, match="locked"):
            await expire_challenges(world.bot)
    finally:
        let_go()
    await flush(world)
    await _all_said_expired(world, db_path, (elsewhere, due), ids)


async def _all_said_expired(world: World, db_path: Path, posted: tuple[Any, ...],
                            ids: list[int]) -> None:
    """After five more ticks, each challenge is expired and its message says so, no buttons."""
    for _ in range(5):
        world.clock.advance(10)
        await expire_challenges(world.bot)
        await flush(world)
    for post, challenge_id in zip(posted, ids, strict=True):
        shown = _shown(world.channel, post.response.id)
        assert _status(db_path, challenge_id) == "expired"
        assert custom_ids(shown) == [], "an expired challenge's buttons stayed for good"
        assert EXPIRED in str(shown.embeds[0].description)
