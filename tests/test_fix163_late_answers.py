"""The first answer within Discord's 3 seconds of the interaction's life, and what a late one
leaves behind (review140), on the loopback Discord in real time.

The loopback refuses a first answer after 3 s as Discord does (10062) and keeps it in
``server.errors``. The event loop held up (a burst of work, blocking on purpose here) delays
the bot's sight of an interaction, as the gateway's delay would; another connection holding
SQLite's write lock makes the bot's own work wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

import cogs.umtali.showing as showing
from cogs.umtali import pictures
from tests.db_lock import write_locked
from tests.loopback.driver import custom_ids, read_match, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Fault, Interaction, Member
from tests.loopback.server import LoopbackDiscord
from tests.test_in_time import HELD, LIMIT, a_match, at_a_draw, settled, version
from umtali.players import GreedyPlayer

#: The event loop held longer than Discord waits: whatever the bot does, it is late.
LATE = 3.2
#: A save waiting on the lock just under ``in_time``'s 2 s, then a picture drawn slowly.
SAVED_AFTER, SLOW_DRAWING = 1.6, 1.6


async def held(seconds: float, acting: Awaitable[Interaction]) -> Interaction:
    """``acting`` (a member's interaction) sent, then the event loop held ``seconds`` before
    the bot may see it."""
    sending = asyncio.ensure_future(acting)
    await asyncio.sleep(0)  # the interaction on its way
    await asyncio.sleep(0)
    time.sleep(seconds)  # (blocking: the point)
    return await sending


async def test_a_first_answer_after_three_seconds_is_refused_and_kept(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        ada = server.add_member("ada")
        asked = await held(LATE, server.slash(ada, server.channel_id, "umtali rules"))
        assert asked.callback_type is None  # refused: the member saw "interaction failed"
        assert [e for e in server.errors if "expired (10062)" in e], server.errors
        assert server.excuse_late() == [asked]
        assert not server.errors
        # In time, the same is answered.
        again = await server.slash(ada, server.channel_id, "umtali rules")
        assert again.callback_type == 4


async def _challenge(server: LoopbackDiscord) -> tuple[int, int, dict[str, Any]]:
    a, b = server.add_member("ada"), server.add_member("ben")
    offer = await server.slash(a, server.channel_id, "umtali challenge", {"opponent": Member(b)})
    assert offer.response is not None
    return a, b, offer.response


async def test_an_accept_answered_late_still_opens_its_match(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        a, b, challenge = await _challenge(server)
        button = next(c for c in custom_ids(challenge) if c.endswith(":accept"))
        clicked = await server.click(b, challenge, button)
        submitted = await held(LATE, server.submit(b, clicked, {"cut": ""}))
        saved = await until(lambda: (m := read_match(db)) is not None and m.table_message_id
                            and m, "the match's table posted")
        await settled(bot)
        assert server.excuse_late() == [submitted]
        assert saved.status == "active" and set(saved.player_ids) == {a, b}
        # The challenge's message says it was accepted, its buttons gone.
        message = server.messages[int(challenge["id"])]
        assert custom_ids(message) == []
        assert "ben accepted." in json.dumps(message.get("embeds"))


async def test_a_decline_answered_late_takes_the_buttons_off(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        _, b, challenge = await _challenge(server)
        button = next(c for c in custom_ids(challenge) if c.endswith(":decline"))
        clicked = await held(LATE, server.click(b, challenge, button))
        message = server.messages[int(challenge["id"])]
        await until(lambda: custom_ids(message) == [], "the buttons taken off")
        await settled(bot)
        assert server.excuse_late() == [clicked]
        assert "ben declined." in json.dumps(message.get("embeds"))


async def test_a_practice_cancel_answered_late_takes_the_buttons_off(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        offer = await server.slash(ada, server.channel_id, "umtali practice")
        assert offer.response is not None
        button = next(c for c in custom_ids(offer.response) if c.endswith(":cancel"))
        clicked = await held(LATE, server.click(ada, offer.response, button))
        message = server.messages[int(offer.response["id"])]
        await until(lambda: custom_ids(message) == [], "the buttons taken off")
        await settled(bot)
        assert server.excuse_late() == [clicked]
        assert "cancelled this practice session" in json.dumps(message.get("embeds"))


async def test_a_draw_seen_late_is_deferred_within_three_seconds_of_its_making(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The event loop held 1.2 s as the click comes, the database busy: the 2 s before the
    defer count from the click's making, not from the bot's first sight of it."""
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        saved, user, panel, draw = await at_a_draw(server, db, saved)
        await settled(bot)
        async with write_locked(db, HELD + 1):
            answer = await held(1.2, server.click(user, panel, draw))
            assert answer.callback_type is not None, server.errors
            assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: version(db, saved.id) == saved.version + 1, "the draw saved")


async def test_a_hand_order_chosen_while_the_database_is_busy_is_answered_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        saved, user, panel, _ = await at_a_draw(server, db, saved)
        order = next(c for c in custom_ids(panel) if c.endswith(":order"))
        await settled(bot)
        async with write_locked(db, HELD):
            answer = await server.click(user, panel, order, values=["rank"])
            assert answer.callback_type is not None, server.errors
            assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: _hand_order(db, user) == ("rank",), "the order saved")


def _hand_order(db: Path, user: int) -> tuple[str, ...] | None:
    with contextlib.closing(sqlite3.connect(db)) as con:
        row = con.execute("SELECT hand_order FROM member_prefs WHERE user_id = ?",
                          (user,)).fetchone()
    return None if row is None else tuple(row)


async def test_suggestions_behind_a_waiting_save_come_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A move's save waits on the database's lock, the reads queued behind it: suggestions are
    answered within Discord's 3 seconds all the same (a move's from the match held here, the
    others none), the late reads dropped."""
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        seat = saved.session.to_act
        mover, other = saved.player_ids[seat], saved.player_ids[1 - seat]
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)
        async with write_locked(db, HELD):
            moving = asyncio.ensure_future(server.slash(mover, saved.channel_id, "umtali play",
                                                        {"move": str(move)}))
            await asyncio.sleep(0.2)  # the move's save waiting for the lock
            asked = await asyncio.gather(
                server.autocomplete(mover, saved.channel_id, "umtali play", "move", ""),
                server.autocomplete(other, server.channel_id, "umtali leaderboard", "season",
                                    ""),
                server.autocomplete(other, server.channel_id, "umtali-admin end-match",
                                    "match", ""))
            for suggestions in asked:
                assert suggestions.callback_type == 8, server.errors
                assert suggestions.answered_at - suggestions.sent_at < LIMIT
            await moving
        # From the match held here: the mover's moves, as they stood before the move saved.
        assert asked[0].callback["choices"], asked[0].callback
        assert asked[1].callback["choices"] == asked[2].callback["choices"] == []


def drawn_slowly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand picture from now on takes ``SLOW_DRAWING`` more to draw."""
    def slow(*args: Any, **kwargs: Any) -> bytes:
        time.sleep(SLOW_DRAWING)  # (on the drawing's worker thread)
        return pictures.hand_png(*args, **kwargs)
    monkeypatch.setattr(showing, "hand_png", slow)


async def test_a_draw_saved_slowly_then_drawn_slowly_is_deferred_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The save just under the 2 s before a defer, then the panel's picture slow to draw (a
    busy host): the drawing counts too, and the click is deferred before Discord's 3 s."""
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        saved, user, panel, draw = await at_a_draw(server, db, saved)
        await settled(bot)
        drawn_slowly(monkeypatch)
        async with write_locked(db, SAVED_AFTER):
            answer = await server.click(user, panel, draw)
            assert answer.callback_type is not None, server.errors
            assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: version(db, saved.id) == saved.version + 1, "the draw saved")
        await until(lambda: any(c.startswith(f"umtali:m:{saved.id}:{saved.version + 1}:")
                                for c in custom_ids(server.messages[int(panel["id"])])),
                    "the DM panel edited")


async def test_a_command_move_saved_slowly_then_drawn_slowly_is_deferred_in_time(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As above, for ``/umtali play``: its answer, the seat's new panel, is drawn after the
    save; the drawing counts too."""
    async with a_match(monkeypatch, tmp_path) as m:
        server, db, bot, saved = m.server, m.db, m.bot, m.saved
        seat = saved.session.to_act
        move = GreedyPlayer().choose(saved.session.view(seat))
        await settled(bot)
        drawn_slowly(monkeypatch)
        async with write_locked(db, SAVED_AFTER):
            answer = await server.slash(saved.player_ids[seat], saved.channel_id,
                                        "umtali play", {"move": str(move)})
            assert answer.callback_type is not None, server.errors
            assert answer.answered_at - answer.sent_at < LIMIT
        await until(lambda: "hand.png" in json.dumps(answer.response), "the hand shown")


async def test_an_interaction_reaching_the_bot_late_is_not_held_against_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Sent while the bot's gateway connection is down, replayed on its RESUME past Discord's
    3 seconds: refused as Discord would, but no fault of the bot's (the soak's outages)."""
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        ada = server.add_member("ada")
        await server.gateway_down(3.5)
        asked = await server.slash(ada, server.channel_id, "umtali rules")
        assert asked.expired and asked.callback_type is None
        assert asked.delivered_at - asked.sent_at > 3
        assert not server.errors and not server.late


async def test_a_first_answer_refused_by_discord_then_too_late_is_not_held_against_the_bot(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Discord answering the first answer 503 (the soak's faults): discord.py tries it again
    a second or more later, past the 3 seconds; refused as Discord would, but made late by
    Discord's failure, not the bot's."""
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        ada = server.add_member("ada")
        server.faults.append(Fault("POST", re.compile(r"^/interactions/[0-9]+/[^/]+/callback$"),
                                   times=2, status=503))
        asked = await server.slash(ada, server.channel_id, "umtali rules")
        await until(lambda: asked.expired, "the answer tried again too late")
        assert asked.callback_type is None and asked.callbacks >= 1
        assert not server.errors and not server.late
