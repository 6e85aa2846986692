"""review139: a practice hand's review was a new DM per hand (7-11 a session, each a
notification), 3 of 11 saying only "the hard computer finds no costly mistake". Now a hand
with nothing costly has no review, and a game's reviews are one message, each hand's appended
by an edit; a new review message after the session's first is sent silent. Over SimCord."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import pytest

from cogs.umtali.coach import coach_of
from cogs.umtali.live import LiveMatch
from tests.discord_helpers import World, cut, flush, play
from umtali.players import GreedyPlayer

pytestmark = pytest.mark.simcord(settle_timeout=30)

SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS


async def _practice(world: World) -> LiveMatch:
    r = await world.alice.slash(world.channel, "umtali practice", level="easy")
    assert r.acknowledged
    await cut(world, r)
    svc = world.bot.matches
    assert svc is not None
    [live] = svc.matches.values()
    return live


async def _hand_out(world: World, live: LiveMatch) -> None:
    """Play until one more hand has ended (or the session), its review done."""
    hands = len(live.session.hand_log)
    while len(live.session.hand_log) == hands and not live.over:
        await play(world, live, GreedyPlayer().choose(live.session.view(live.session.to_act)))
        await flush(world)
    await coach_of(world.bot).idle()
    await world.env.settle()


def _review_posts(world: World, dm: Any, since: int) -> list[dict[str, Any]]:
    return [r.json for r in world.env.http_requests[since:]
            if r.method == "POST" and r.path.strip("/") == f"channels/{dm.id}/messages"
            and isinstance(r.json, dict) and "Review of hand" in json.dumps(r.json)]


async def test_a_games_reviews_are_one_message_and_none_says_nothing_costly(
        world: World) -> None:
    live = await _practice(world)
    dm = world.alice.user.dm_channel
    since = len(world.env.http_requests)
    games = set()
    for _ in range(4):
        if live.over:
            break
        games.add(live.session.game)
        await _hand_out(world, live)
    ended = len(live.session.hand_log)
    assert ended >= 3
    reviews = [m for m in dm.history() if "Review of hand" in m.content]
    # None says only that nothing costly was found.
    assert not any("finds no costly mistake" in m.content for m in reviews)
    # One message a game at most, holding each reviewed hand's review.
    assert len(reviews) <= len(games), [m.content[:60] for m in reviews]
    held = sum(m.content.count("Review of hand") for m in reviews)
    assert held == coach_of(world.bot).sent
    posts = _review_posts(world, dm, since)
    assert len(posts) == len(reviews)
    # A new review message after the session's first is silent.
    assert all(int(p.get("flags") or 0) & SILENT for p in posts[1:])
    assert not posts or not int(posts[0].get("flags") or 0) & SILENT


async def test_a_review_whose_save_failed_is_kept_by_the_next_hands(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """review145: the game's review message edited, its save failing for now, the next hand's
    edit was built from the text saved before and wiped the review just sent (or, the game's
    first save failing, a second message began for the game, which notified). The text sent
    last is kept in memory for that: no review lost, one message a game."""
    live = await _practice(world)
    svc = world.bot.matches
    assert svc is not None
    real = svc.store.set_reviewed
    failed: list[int] = []

    async def locked_once(match_id: int, hands: int, message: str | None = None) -> None:
        if message is not None and len(failed) < 2:
            failed.append(hands)
            raise sqlite3.OperationalError("database is locked")
        await real(match_id, hands, message)
    monkeypatch.setattr(svc.store, "set_reviewed", locked_once)
    dm = world.alice.user.dm_channel
    since = len(world.env.http_requests)
    for _ in range(8):
        if live.over or coach_of(world.bot).sent >= 4:
            break
        await _hand_out(world, live)
    assert len(failed) == 2, "two reviews sent, their saves failing"
    reviews = [m for m in dm.history() if "Review of hand" in m.content]
    # Every review sent is still held, one message a game.
    held = sum(m.content.count("Review of hand") for m in reviews)
    assert held == coach_of(world.bot).sent, [m.content for m in reviews]
    games = [re.findall(r"\(game (\d+)\)", m.content) for m in reviews]
    assert all(len(set(g)) == 1 for g in games), games
    assert len({g[0] for g in games}) == len(reviews), games
    posts = _review_posts(world, dm, since)
    assert len(posts) == len(reviews)
    assert not posts or all(int(p.get("flags") or 0) & SILENT for p in posts[1:])
