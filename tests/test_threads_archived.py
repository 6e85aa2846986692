"""A match's thread archived under it: by Discord after a day with no message (by
correspondence, a turn may take that long), or by a moderator by hand; and locked.

Discord refuses an edit of a message in an archived thread (400, 50083), so the table's edit
after a move failed: logged as an ERROR ("Discord refused what was sent"), the whole delivery
dropped, the players' DM panels with it (they come after the table), and the turn's
announcement left unposted: the match stalled until the next move, which failed the same way.
The bot now unarchives its thread (it made it: it may, unless a moderator locked it) and does
what it was doing; a locked thread is a lost channel, the match going on in DMs. Loopback.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.final_card import show_counted
from tests.loopback import payloads as p
from tests.loopback.driver import (
    SavedMatch,
    query,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from tests.loopback.threads import MANAGE_THREADS
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

ACTIONS = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2",
           MoveKind.MELD: "meld", MoveKind.EXTEND: "extend", MoveKind.DISCARD: "discard"}


def _panel(server: LoopbackDiscord, user: int, custom_id: str) -> dict[str, Any] | None:
    """The DM message carrying ``custom_id`` (the player's panel at that version)."""
    for m in reversed(server.dm_messages(user)):
        if any(c.get("custom_id") == custom_id for row in m.get("components", [])
               for c in row.get("components", [])):
            found: dict[str, Any] = m
            return found
    return None


async def dm_move(server: LoopbackDiscord, db: Path, match_id: int) -> None:
    """The seat to act makes its greedy move on its DM panel (as by correspondence)."""
    saved = read_match(db, match_id)
    assert saved is not None and saved.status == "active"
    seat = saved.session.to_act
    user = saved.player_ids[seat]
    move = GreedyPlayer().choose(saved.session.view(seat))
    action = ACTIONS[move.kind]
    custom_id = f"umtali:m:{match_id}:{saved.version}:{action}"
    panel = await until(lambda: _panel(server, user, custom_id), f"the panel for {custom_id}")
    values = None
    if action == "meld":
        values = [c.code for c in move.card_list]
    elif action in ("extend", "discard"):
        values = [str(move)]
    clicked = await server.click(user, panel, custom_id, values)
    assert clicked.callback_type in (6, 7), clicked.text()
    after = await until(lambda: (m := read_match(db, match_id)) and m.version > saved.version
                        and m, "the move saved")
    assert after.session.moves[len(saved.session.moves)] == move


async def whole_turn(server: LoopbackDiscord, db: Path, match_id: int) -> None:
    """The seat to act plays its whole turn on its DM panel: drawn, (melded), discarded."""
    saved = read_match(db, match_id)
    assert saved is not None
    seat = saved.session.to_act
    while (now := read_match(db, match_id)) is not None and now.status == "active" \
            and now.session.to_act == seat:
        await dm_move(server, db, match_id)


def _unsent(db: Path, match_id: int) -> str:
    return str(query(db, "SELECT unsent FROM matches WHERE id = ?", match_id)[0]["unsent"])


async def _opened(server: LoopbackDiscord, db: Path) -> tuple[int, int, SavedMatch]:
    """A correspondence match between two new members, in its thread, its opening announced:
    the two members and the match."""
    alice, bob = server.add_member("ada"), server.add_member("ben")
    saved = await start_session(server, db, alice, bob, time_control="correspondence")
    await until(lambda: _unsent(db, saved.id) == "[]", "the opening announced")
    return alice, bob, saved


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_moves_in_an_archived_thread_bring_it_back_with_the_table_and_the_turn(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, time_control="correspondence")
        thread = saved.channel_id
        assert server.channels[thread]["type"] == 11
        assert saved.table_message_id is not None
        await until(lambda: _unsent(db, saved.id) == "[]", "the opening announced")
        # A day with no message: Discord archives the thread.
        await server.archive_thread(thread)
        table = server.messages[saved.table_message_id]
        before = json.dumps(table["embeds"])
        posted = len(server.channel_messages(thread))
        # A whole turn on the DM panel: drawn, (melded), discarded.
        await whole_turn(server, db, saved.id)
        await until(lambda: _unsent(db, saved.id) == "[]", "the turn announced")
        # The table shows the move, the turn's end is announced, the thread is back; the
        # next player's DM panel offers their turn.
        assert json.dumps(table["embeds"]) != before
        # Its picture drawn anew for the edit tried again (a file is read once).
        assert table["attachments"] and all(
            server.uploads[int(a["id"])] for a in table["attachments"])
        assert len(server.channel_messages(thread)) > posted
        assert not server.thread_state(thread)["archived"]
        nxt = read_match(db, saved.id)
        assert nxt is not None
        await until(lambda: _panel(server, nxt.player_ids[nxt.session.to_act],
                                   f"umtali:m:{saved.id}:{nxt.version}:draw"),
                    "the next player's panel")
        assert not query(db, "SELECT channel_lost FROM matches WHERE id = ?",
                         saved.id)[0]["channel_lost"]
        assert _errors(caplog) == []


@pytest.mark.parametrize("refused", ["403", "400"])
async def test_a_locked_thread_is_a_lost_channel_and_the_match_goes_on_in_dms(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        refused: str) -> None:
    """A moderator locked (and archived) the match's thread: the bot may not bring it back
    (no Manage Threads). Discord refuses the table's edit with a 403, or with a 400 saying the
    thread is archived, and then the unarchive with a 403: either way the match goes on in
    the players' DMs, each told once, nothing logged as an ERROR, the thread not tried again."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob, saved = await _opened(server, db)
        thread = saved.channel_id
        await server.archive_thread(thread, locked=True)
        if refused == "400":
            server.fail("PATCH", rf"^/channels/{thread}/messages/[0-9]+$", status=400,
                        code=50083)
        told = {u: len(server.dm_messages(u)) for u in (alice, bob)}
        await whole_turn(server, db, saved.id)
        await until(lambda: query(db, "SELECT channel_lost FROM matches WHERE id = ?",
                                  saved.id)[0]["channel_lost"], "the channel lost")
        def told_lost(user: int) -> bool:
            return any("can no longer post in this match's channel" in json.dumps(m)
                       for m in server.dm_messages(user)[told[user]:])
        await until(lambda: told_lost(alice) and told_lost(bob), "the players told")
        calls = len([c for c in server.calls if f"/channels/{thread}" in c.path])
        # The match goes on in DMs, the thread left alone.
        await whole_turn(server, db, saved.id)
        await until(lambda: _unsent(db, saved.id) == "[]", "the turn told")
        assert len([c for c in server.calls if f"/channels/{thread}" in c.path]) == calls
        assert server.thread_state(thread)["archived"]
        assert _errors(caplog) == []


async def test_time_up_in_an_archived_thread_asks_there_and_keeps_the_table(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """By correspondence a turn's day runs out, and the thread, with no message for that day,
    is archived: the question to the waiting player is posted there (which brings it back), and
    the table's edit that follows goes through."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        _, _, saved = await _opened(server, db)
        thread = saved.channel_id
        await server.archive_thread(thread)
        assert bot.matches is not None
        deadline = query(db, "SELECT deadline FROM matches WHERE id = ?", saved.id)[0][
            "deadline"]
        await bot.matches.check_timers(deadline - 3600)  # the reminder (by DM)
        await bot.matches.check_timers(deadline + 60)
        waiting = saved.player_ids[1 - saved.session.to_act]
        asked = await until(lambda: next(
            (m for m in server.channel_messages(thread)
             if f"<@{waiting}>" in m["content"] and "time for this turn is up" in m["content"]),
            None), "the question")
        assert any(c.get("custom_id", "").endswith(":claim") for row in asked["components"]
                   for c in row["components"])
        await bot.matches.flush()
        assert not server.thread_state(thread)["archived"]
        assert _errors(caplog) == []


async def test_a_final_card_counted_late_in_an_archived_thread_shows_the_ratings(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A session's count failed as it ended, and its thread was archived (a moderator closing
    the finished match, or a day on) before the count was made: the table's edit showing the
    ratings brings the thread back, and archives it again, as it was found. It was refused
    (400, 50083), logged as an ERROR with its traceback, the ratings never shown."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        thread = saved.channel_id
        ask = await server.slash(alice, thread, "umtali resign")
        assert ask.response is not None
        await server.click(alice, ask.response, f"umtali:m:{saved.id}:{saved.version}:loss:resign")
        done = await until(lambda: (m := read_match(db, saved.id)) and m.status == "finished"
                           and m, "the session over")
        await until(lambda: table_settled(server, done), "the final table")
        assert bot.matches is not None
        await bot.matches.flush()
        await server.archive_thread(thread)
        edits = len([c for c in server.calls if c.method == "PATCH" and c.status == 200
                     and c.path == f"/channels/{thread}/messages/{saved.table_message_id}"])
        await show_counted(bot.matches, [saved.id])
        assert len([c for c in server.calls if c.method == "PATCH" and c.status == 200 and
                    c.path == f"/channels/{thread}/messages/{saved.table_message_id}"]) \
            == edits + 1
        assert server.thread_changes[-2:] == [(thread, {"archived": False}),
                                              (thread, {"archived": True})]
        assert server.thread_state(thread)["archived"]
        assert _errors(caplog) == []


@pytest.mark.parametrize(("control", "minutes"), [
    ("correspondence", 10080), ("off", 10080), ("normal", 1440)])
async def test_a_slow_match_s_thread_archives_after_a_week_not_a_day(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, control: str, minutes: int) -> None:
    """A correspondence match (a day a turn) or one with no clock gets a thread that Discord
    archives after a week with no message, not the channel's default day, which a single turn
    may pass; a match on the clock keeps the default."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, time_control=control)
        assert server.channels[saved.channel_id]["type"] == 11
        assert server.thread_state(saved.channel_id)["auto_archive_duration"] == minutes


async def test_a_thread_archived_while_the_bot_was_stopped_comes_back_at_the_restart(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """The bot stopped with a turn's table and announcement still to post, and the thread
    archived meanwhile (no event reaches a stopped bot): the restart posts them there."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db):
            saved = await start_session(server, db, alice, bob, time_control="correspondence")
            thread, table_id = saved.channel_id, saved.table_message_id
            await until(lambda: _unsent(db, saved.id) == "[]", "the opening announced")
            held = server.hold("PATCH", rf"^/channels/{thread}/messages/{table_id}$")
            await whole_turn(server, db, saved.id)
            await until(lambda: held.held, "the table's edit under way")
        assert _unsent(db, saved.id) != "[]"
        await server.archive_thread(thread)
        assert table_id is not None
        before = json.dumps(server.messages[table_id]["embeds"])
        async with bot_in_process(server, db):
            await until(lambda: _unsent(db, saved.id) == "[]", "the turn announced")
            assert json.dumps(server.messages[table_id]["embeds"]) != before
            assert not server.thread_state(thread)["archived"]
        assert _errors(caplog) == []


async def test_a_click_in_a_locked_archived_thread_logs_no_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A member who may not manage threads clicks the table's "My hand" in a thread a
    moderator locked and archived (Discord's desktop client sends the click all the same):
    Discord refuses any answer there (403, 50083). Nobody can be told; it is no bug of the
    bot's, nor a fault of Discord's, but a member's click, which they may repeat at will: no
    ERROR nor WARNING is logged (nothing for the admin to do), and nothing is tried again."""
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, time_control="correspondence")
        thread, table_id = saved.channel_id, saved.table_message_id
        assert table_id is not None
        await until(lambda: _unsent(db, saved.id) == "[]", "the opening announced")
        await server.archive_thread(thread, locked=True)
        server.member_permissions[alice] = int(p.ALL_PERMISSIONS) & ~MANAGE_THREADS
        calls = len(server.calls)
        clicked = await server.click(alice, server.messages[table_id],
                                     f"umtali:m:{saved.id}:hand")
        assert clicked.callback_type is None
        await until(lambda: len(server.calls) > calls, "the answer tried")
        await asyncio.sleep(0.3)
        tried = [c for c in server.calls[calls:] if "/interactions/" in c.path
                 or "/webhooks/" in c.path]
        assert 1 <= len(tried) <= 2, tried
        assert _errors(caplog) == []
        warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING
                  and r.name.startswith(("cogs.", "umtali.", "data."))]
        assert warned == []


async def test_a_thread_discord_will_not_bring_back_is_a_lost_channel(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """The unarchive refused otherwise than by a 403 (the server's limit of active threads
    reached: 400, 160006): the thread stays archived, so the match goes on in DMs, once."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        _, _, saved = await _opened(server, db)
        thread = saved.channel_id
        await server.archive_thread(thread)
        full = server.fail("PATCH", rf"^/channels/{thread}$", times=5, status=400,
                           code=160006)
        await whole_turn(server, db, saved.id)
        await until(lambda: query(db, "SELECT channel_lost FROM matches WHERE id = ?",
                                  saved.id)[0]["channel_lost"], "the channel lost")
        await whole_turn(server, db, saved.id)
        assert full.hits == 1
        assert server.thread_state(thread)["archived"]
        assert _errors(caplog) == []
