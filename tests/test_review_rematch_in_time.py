"""The Rematch button's first read (the finished session) waits behind a write of this process
that itself waits on another process's write lock, as a long write elsewhere makes it: the click
is acknowledged within Discord's 3 seconds, as an update of the final card (which stays as it
is), and the rematch, a challenge or a practice offer, is then posted in the channel as ever.
Before, that read was not watched (``in_time``): the click answered after the lock let go, and
Discord had failed it. On the loopback Discord, in real time."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.db_lock import write_locked
from tests.loopback.driver import custom_ids, cut_deck, query, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Interaction, LoopbackDiscord, Member
from tests.test_in_time import DEFERRED_UPDATE, HELD, LIMIT, settled


async def _final_card(server: LoopbackDiscord, member: int, channel_id: int,
                      match_id: int) -> dict[str, Any]:
    """``member`` resigns the session ``match_id``: its final card, with Rematch."""
    asked = await server.slash(member, channel_id, "umtali resign")
    assert asked.response is not None, asked.text()
    yes = next(c for c in custom_ids(asked.response) if c.endswith(":resign"))
    await server.click(member, asked.response, yes)
    rematch = f"umtali:rm:{match_id}"
    card: dict[str, Any] = await until(
        lambda: next((m for m in server.channel_messages(channel_id)
                      if rematch in custom_ids(m)), None), "the final card")
    return copy.deepcopy(card)  # as it was: the server's own copy is edited in place


async def _rematch_behind_a_write(server: LoopbackDiscord, db: Path, bot: Any, member: int,
                                  card: dict[str, Any], match_id: int) -> Interaction:
    """``member``'s click on Rematch, sent while a decline of this process waits for the write
    lock another connection holds (so the rematch's read of the session waits behind it)."""
    cy, dee = server.add_member("cy"), server.add_member("dee")
    posted = await server.slash(cy, server.channel_id, "umtali challenge",
                                {"opponent": Member(dee)})
    assert posted.response is not None and not posted.ephemeral, posted.text()
    decline = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
    await settled(bot)
    async with write_locked(db, HELD):
        declining = asyncio.ensure_future(server.click(dee, posted.response, decline))
        await asyncio.sleep(0.3)  # the decline's transaction waits for the lock now
        clicked = await server.click(member, card, f"umtali:rm:{match_id}")
        await declining
    return clicked


def _backdate(db: Path, match_id: int) -> None:
    with sqlite3.connect(db) as c:
        c.execute("UPDATE matches SET created_at = created_at - 3600 WHERE id = ?", (match_id,))
        c.execute("UPDATE challenges SET created_at = created_at - 3600")


def _unchanged(server: LoopbackDiscord, card: dict[str, Any]) -> bool:
    now = server.messages[int(card["id"])]
    return bool(now["embeds"] == card["embeds"] and custom_ids(now) == custom_ids(card))


async def _practice_ended(server: LoopbackDiscord, db: Path, bot: Any,
                          ada: int) -> tuple[dict[str, Any], dict[str, Any], int]:
    """A practice session ada asked for, cut and resigned: its row, its final card and the id
    of its offer's message."""
    offer = await server.slash(ada, server.channel_id, "umtali practice", {})
    assert offer.response is not None and not offer.ephemeral, offer.text()
    await cut_deck(server, ada, offer.response)
    [first] = await until(lambda: query(
        db, "SELECT id, channel_id FROM matches WHERE table_message_id IS NOT NULL") or None,
        "the practice's table")
    card = await _final_card(server, ada, first["channel_id"], first["id"])
    await settled(bot)
    return first, card, int(offer.response["id"])


async def test_a_rematch_behind_a_waiting_write_is_acknowledged_then_posted(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        card = await _final_card(server, ada, saved.channel_id, saved.id)
        await settled(bot)
        clicked = await _rematch_behind_a_write(server, db, bot, ben, card, saved.id)
        assert clicked.callback_type == DEFERRED_UPDATE, clicked.text()
        assert clicked.answered_at - clicked.sent_at < LIMIT

        def posted() -> dict[str, Any] | None:
            return next((m for m in server.channel_messages(saved.channel_id)
                         if m["content"] == f"<@{ada}>"
                         and any(c.endswith(":accept") for c in custom_ids(m))), None)
        challenge = await until(posted, "the rematch posted")
        assert int(challenge["id"]) != int(card["id"])
        assert f"rematch of session #{saved.id}" in challenge["embeds"][0]["description"]
        await until(lambda: query(db, "SELECT id FROM challenges WHERE rematch_of = ? AND "
                                      "message_id = ?", saved.id, int(challenge["id"])) or None,
                    "the rematch's message saved")
        await settled(bot)
        assert _unchanged(server, card)
        assert not server.errors


async def test_a_practice_rematch_behind_a_waiting_write_is_acknowledged_then_posted(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        first, card, offered = await _practice_ended(server, db, bot, ada)
        # Played an hour ago: past the cooldown between practice sessions (real time here).
        await asyncio.to_thread(_backdate, db, first["id"])
        clicked = await _rematch_behind_a_write(server, db, bot, ada, card, first["id"])
        # Acknowledged as an update of the final card: neither replaced by the offer nor
        # answered by an offer only its player sees.
        assert clicked.callback_type == DEFERRED_UPDATE, clicked.text()
        assert clicked.answered_at - clicked.sent_at < LIMIT

        def posted() -> dict[str, Any] | None:
            return next((m for m in server.channel_messages(first["channel_id"])
                         if int(m["id"]) != offered
                         and any(c.startswith("umtali:cut:") for c in custom_ids(m))), None)
        again = await until(posted, "the practice offered again")
        assert int(again["id"]) != int(card["id"])  # a message of its own
        assert "against the computer" in json.dumps(again["embeds"])
        assert not again.get("flags", 0) & 64  # in public, as ever
        await until(lambda: query(db, "SELECT id FROM challenges WHERE computer_level IS NOT "
                                      "NULL AND message_id = ?", int(again["id"])) or None,
                    "the offer's message saved")
        await settled(bot)
        assert _unchanged(server, card)
        # Its player cuts it as any practice offer, and the session starts.
        await cut_deck(server, ada, again)
        await until(lambda: query(db, "SELECT id FROM matches WHERE id != ? AND "
                                      "table_message_id IS NOT NULL", first["id"]) or None,
                    "the second table")
        assert not server.errors


async def test_a_practice_rematch_refused_behind_a_waiting_write_keeps_the_final_card(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada = server.add_member("ada")
        first, card, _ = await _practice_ended(server, db, bot, ada)
        # Too soon after the last session: refused, to ada alone; the final card stays.
        clicked = await _rematch_behind_a_write(server, db, bot, ada, card, first["id"])
        assert clicked.callback_type == DEFERRED_UPDATE, clicked.text()
        await until(lambda: clicked.followups or None, "the refusal")
        [refusal] = clicked.followups
        assert refusal["flags"] & 64 and "Slow down" in refusal["content"], refusal
        await settled(bot)
        assert int(card["id"]) in server.log.get(int(card["channel_id"]), [])
        assert _unchanged(server, card)
        assert not server.errors


async def test_a_rematch_whose_post_is_refused_after_the_deferral_holds_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    # Deferred as an update of the final card, the challenge is a message of its own: one
    # Discord refuses was shown to nobody, and is closed (as after a "thinking" deferral),
    # not left open for its ten minutes, holding the pair and one of ben's open challenges.
    caplog.set_level(logging.WARNING, logger="cogs.umtali.errors")
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        card = await _final_card(server, ada, saved.channel_id, saved.id)
        await settled(bot)
        server.fail("POST", r"^/channels/[0-9]+/messages$", status=403, code=50013)
        clicked = await _rematch_behind_a_write(server, db, bot, ben, card, saved.id)
        assert clicked.callback_type == DEFERRED_UPDATE, clicked.text()
        await until(lambda: query(db, "SELECT id FROM challenges WHERE rematch_of = ? AND "
                                      "status = 'cancelled'", saved.id) or None,
                    "the unposted rematch closed")
        await settled(bot)
        assert _unchanged(server, card)
        # ben is told why, and the refusal is a warning, not an unhandled ERROR: the server's
        # set-up, not a bug (``errors.answer_error``).
        await until(lambda: clicked.followups or None, "ben told")
        assert any("a permission of mine in this channel is missing" in f["content"]
                   and f["flags"] & 64 for f in clicked.followups), clicked.followups
        assert not [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        assert any("Discord refused the bot" in r.getMessage() for r in caplog.records)
