"""A member stops another's challenges (review138 B: harassment by pings): offered privately
beside a Decline, saved in the database, for every server; a stopped member's challenges and
rematches to them refused privately before anything is posted; lifted with
``/umtali unblock``; and the hold-back after a decline grows with repeated declines."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest

from data.store import Limits
from tests.db_lock import write_locked
from tests.discord_helpers import World, challenge, custom_ids, flush
from tests.test_records_discord import resign

DAY = 86400.0
#: The bot's busy timeout in these tests (5 s in use), and the write lock held past it.
TIMEOUT, HELD = 0.5, 1.5


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("data.sqlite_db.BUSY_TIMEOUT", TIMEOUT)


def _said(result: Any) -> str:
    parts = [result.response] if result.response is not None else []
    return " ".join(str(m.content) for m in [*parts, *result.followups])


def _private(result: Any) -> bool:
    """Seen by the clicking member alone: an ephemeral answer, or their ephemeral message
    edited."""
    return bool(result.ephemeral or (result.response is not None and result.response.ephemeral))


def _stops(db_path: Path) -> list[tuple[int, int]]:
    with sqlite3.connect(db_path) as c:
        return list(c.execute("SELECT user_id, stopped_id FROM challenge_stops"))


def _challenges(db_path: Path) -> int:
    with sqlite3.connect(db_path) as c:
        return int(c.execute("SELECT COUNT(*) FROM challenges").fetchone()[0])


async def _decline(world: World, posted: Any, actor: Any) -> Any:
    """``actor`` clicks the challenge's Decline: the click's result."""
    button = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
    clicked = await actor.click(posted.response, custom_id=button)
    assert clicked.acknowledged
    return clicked


def _offer(clicked: Any) -> Any:
    """The private offer, after a decline, to stop the challenger's challenges."""
    offers = [m for m in clicked.followups
              if any(c.startswith("umtali:stop:") for c in custom_ids(m))]
    assert len(offers) == 1, _said(clicked)
    return offers[0]


async def _stop(world: World, clicked: Any, actor: Any) -> Any:
    offer = _offer(clicked)
    button = next(c for c in custom_ids(offer) if c.startswith("umtali:stop:"))
    return await actor.click(offer, custom_id=button)


async def _cy_stops_ada(world: World, db_path: Path) -> None:
    posted = await challenge(world, world.alice, world.carol)
    clicked = await _decline(world, posted, world.carol)
    assert "Stop challenges from ada" in str(_offer(clicked).components)
    stopped = await _stop(world, clicked, world.carol)
    assert stopped.acknowledged and _private(stopped)
    assert "ada can no longer challenge you" in _said(stopped), _said(stopped)
    assert _stops(db_path) == [(world.carol.id, world.alice.id)]


async def _refused(world: World, db_path: Path, elsewhere: Any = None) -> None:
    """ada's challenge to cy is refused privately: nothing posted, nobody pinged
    (``elsewhere``: the channel, ada and cy on another server)."""
    channel, ada, cy = elsewhere or (world.channel, world.alice, world.carol)
    world.clock.advance(2 * DAY)
    before, made = len(channel.history()), _challenges(db_path)
    refused = await ada.slash(channel, "umtali challenge", opponent=cy)
    assert refused.ephemeral and "cy isn't taking challenges from you." in _said(refused), \
        _said(refused)
    assert len(channel.history()) == before and _challenges(db_path) == made


async def test_a_stopped_member_cannot_challenge_and_a_restart_keeps_it(
        world: World, db_path: Path, make_bot: Any) -> None:
    await _cy_stops_ada(world, db_path)
    await _refused(world, db_path)
    # Others still challenge cy, and cy may still challenge ada.
    await challenge(world, world.bob, world.carol)
    await challenge(world, world.carol, world.alice)
    new = make_bot()
    await world.env.restart_bot(new)
    await _refused(world, db_path)


async def test_a_stop_holds_on_every_server(world: World, db_path: Path) -> None:
    await _cy_stops_ada(world, db_path)
    other = world.env.create_guild("Chess Club")
    channel = other.create_text_channel("games")
    ada, cy = other.add_member(world.alice.user), other.add_member(world.carol.user)
    await _refused(world, db_path, (channel, ada, cy))
    # Not because of that server: ada challenges ben there.
    ben = other.add_member(world.bob.user)
    made = await ada.slash(channel, "umtali challenge", opponent=ben)
    assert made.acknowledged and not made.ephemeral, _said(made)


async def test_a_rematch_from_a_stopped_member_is_refused(world: World, db_path: Path) -> None:
    # cy stops ada, then challenges her herself; ada resigns; ada's Rematch is refused.
    posted = await challenge(world, world.alice, world.carol)
    await _stop(world, await _decline(world, posted, world.carol), world.carol)
    world.clock.advance(Limits().challenge_cooldown)
    asked = await world.carol.slash(world.channel, "umtali challenge", opponent=world.alice)
    assert not asked.ephemeral
    accept = next(c for c in custom_ids(asked.response) if c.endswith(":accept"))
    clicked = await world.alice.click(asked.response, custom_id=accept)
    assert (await world.alice.submit_modal(clicked, {"cut": ""})).acknowledged
    await flush(world)
    svc = world.bot.matches
    assert svc is not None
    live = next(m for m in svc.matches.values() if not m.over)
    await resign(world, world.alice, live)
    table = next(m for t in world.channel.threads for m in t.history()
                 if m.id == live.table_message_id)
    world.clock.advance(Limits().challenge_cooldown)
    made = _challenges(db_path)
    again = await world.alice.click(table, custom_id=f"umtali:rm:{live.id}")
    assert again.ephemeral and "cy isn't taking challenges from you." in _said(again)
    assert _challenges(db_path) == made


async def test_unblock_lifts_a_stop_and_display_lists_them(
        world: World, db_path: Path) -> None:
    await _cy_stops_ada(world, db_path)
    shown = await world.carol.slash(world.channel, "umtali display")
    assert shown.ephemeral and f"<@{world.alice.id}>" in _said(shown), _said(shown)
    # Someone never stopped: said so, nothing changes.
    none = await world.carol.slash(world.channel, "umtali unblock", member=world.bob)
    assert none.ephemeral and "had not stopped" in _said(none)
    lifted = await world.carol.slash(world.channel, "umtali unblock", member=world.alice)
    assert lifted.ephemeral and "ada can challenge you again" in _said(lifted)
    assert _stops(db_path) == []
    shown = await world.carol.slash(world.channel, "umtali display")
    assert f"<@{world.alice.id}>" not in _said(shown)
    world.clock.advance(2 * DAY)
    await challenge(world, world.alice, world.carol)


async def test_a_stop_not_saved_changes_nothing_and_says_so(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    posted = await challenge(world, world.alice, world.carol)
    clicked = await _decline(world, posted, world.carol)
    # Another process holds the database past the busy timeout as the stop is saved.
    async with write_locked(db_path, HELD):
        failed = await _stop(world, clicked, world.carol)
    assert _private(failed) and "could not be saved" in _said(failed), _said(failed)
    assert _stops(db_path) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    world.clock.advance(2 * DAY)
    await challenge(world, world.alice, world.carol)


async def test_only_the_challenged_member_can_stop(world: World, db_path: Path) -> None:
    posted = await challenge(world, world.alice, world.carol)
    clicked = await _decline(world, posted, world.carol)
    button = next(c for c in custom_ids(_offer(clicked)) if c.startswith("umtali:stop:"))
    # The button is on cy's private answer; its custom id sent by anyone else (a hostile
    # client), here on a message of the bot's in the channel that carries it.
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Stop", custom_id=button))
    carrier = await channel.send("a button", view=view)
    message = next(m for m in world.channel.history() if m.id == carrier.id)
    for someone in (world.bob, world.alice):
        refused = await someone.click(message, custom_id=button)
        assert refused.ephemeral and "Only the challenged member" in _said(refused), \
            _said(refused)
    assert _stops(db_path) == []
    # A withdrawal offers no stop (there is nobody to stop but oneself).
    world.clock.advance(DAY)
    posted = await challenge(world, world.alice, world.bob)
    withdrawn = await _decline(world, posted, world.alice)
    assert not [m for m in withdrawn.followups
                if any(c.startswith("umtali:stop:") for c in custom_ids(m))]


async def test_the_hold_back_counts_from_the_decline_and_grows(world: World) -> None:
    limits = Limits()
    posted = await challenge(world, world.bob, world.carol)
    # cy answers late: the 10 minutes count from her "no", not from the sending.
    world.clock.advance(limits.pair_window - 60)
    await _decline(world, posted, world.carol)
    world.clock.advance(120)
    early = await world.bob.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert early.ephemeral and "cy declined your last challenge" in _said(early), _said(early)
    world.clock.advance(limits.pair_window)
    posted = await challenge(world, world.bob, world.carol)
    await _decline(world, posted, world.carol)
    # A second "no" within a day: a day's wait, from it.
    world.clock.advance(limits.pair_window * 3)
    later = await world.bob.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert later.ephemeral and "again in 24 h" in _said(later), _said(later)
    world.clock.advance(limits.repeat_hold - limits.pair_window * 3 - 60)
    still = await world.bob.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert still.ephemeral and "again in 1 minute." in _said(still), _said(still)
    world.clock.advance(60)
    await challenge(world, world.bob, world.carol)


async def test_withdrawn_challenges_count_against_a_daily_limit(world: World) -> None:
    limits = Limits()
    pings = 0
    for _ in range(12):  # two hours of a challenge every ten minutes, each withdrawn
        for _ in range(limits.pair_challenges):
            world.clock.advance(limits.challenge_cooldown)
            posted = await world.alice.slash(world.channel, "umtali challenge",
                                             opponent=world.carol)
            if posted.ephemeral:
                continue
            pings += 1
            await _decline(world, posted, world.alice)
        world.clock.advance(limits.pair_window)
    assert pings == limits.pair_daily
    refused = await world.alice.slash(world.channel, "umtali challenge", opponent=world.carol)
    assert refused.ephemeral and "You have challenged cy" in _said(refused)
    assert " hours." in _said(refused), _said(refused)
