"""A turn's warning sent as a new DM panel (the channel lost) while the match ends or moves on:
the new message, drawn before, must not stay the player's panel, with buttons of a turn gone
(or to play on a match over) and no reveal. It took the panel's place after the ending's or
the move's edit of the old one, and that edit was not sent again. Over the loopback Discord,
the warning's drawing held until the match has ended or moved. (Since a seat's panels are
sent one at a time, the ending's or the move's edit waits for the warning's new panel, and
then edits that one.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot import UmtaliBot
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import warn
from cogs.umtali.service import MatchService
from tests.held_panels import HeldPanels
from tests.loopback.driver import SavedMatch, custom_ids, play_move, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord
from tests.test_fair_abandoned import live_of, mid_hand, secrets_of


async def test_a_warning_panel_drawn_before_an_ending_is_brought_to_the_ending(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seed, _, _ = secrets_of(bot, saved.id)
        seat = live.session.to_act
        member = live.player_ids[seat]
        # The warning's panel alone: the ending's own panels, drawn while it saves, must go
        # through, or the flush below waits on them (held until the test's timeout).
        panels = HeldPanels(monkeypatch, first_only=True)
        warning = asyncio.create_task(warn(svc, live, seat, 30))
        await until(lambda: bool(panels.held), "the warning's panel being drawn")
        assert await svc.abandon(live, "cancelled")
        # The ending's edit of the seat's panel waits for the warning's (one panel at a time
        # for a seat), and then brings the new one to the ending.
        panels.release()
        await warning
        await svc.flush()
        dms = server.dm_messages(member)
        newest = max(dms, key=lambda m: int(m["id"]))
        assert seed in json.dumps(newest["embeds"]), "the newest panel shows the reveal"
        assert custom_ids(newest) == [f"umtali:rf:{server.guild_id}:{saved.id}"]


async def test_a_warning_panel_drawn_before_a_move_is_brought_to_the_move(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The same race with a move in place of the ending: the new message kept the buttons of
    the turn before it (each refused as the match having moved on) until the next turn."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        saved, svc, live = await _channel_lost(server, db, bot)
        seat = live.session.to_act
        member = live.player_ids[seat]
        panels = HeldPanels(monkeypatch, first_only=True)  # the warning's, alone
        warning = asyncio.create_task(warn(svc, live, seat, 30))
        await until(lambda: bool(panels.held), "the warning's panel being drawn")
        await play_move(server, db, saved.id)  # its edit of the panel waits for the warning's
        panels.release()
        await warning
        await svc.flush()
        newest = max(server.dm_messages(member), key=lambda m: int(m["id"]))
        ids = custom_ids(newest)
        assert not any(c.startswith(f"umtali:m:{saved.id}:{live.version - 1}:") for c in ids), ids
        assert any(c.startswith(f"umtali:m:{saved.id}:{live.version}:") for c in ids), ids


async def _channel_lost(server: LoopbackDiscord, db: Path,
                        bot: UmtaliBot) -> tuple[SavedMatch, MatchService, LiveMatch]:
    """A match two moves into its first hand whose channel is lost: a turn's warning then
    goes to the DMs, as a new message."""
    saved = await start_session(server, db, server.add_member("ada"), server.add_member("ben"))
    await mid_hand(server, db, saved.id, 2)
    svc = bot.matches
    assert svc is not None
    await svc.flush()
    live = live_of(bot, saved.id)
    await svc.lose_channel(live)
    # The lost channel's own DM panels (the notices it owes both seats) are sent before any
    # drawing is held (held, they stood for the warning's, and a flush waited on them); else
    # they went with the next delivery, a turn's new panel crossing them.
    svc.delivery.enqueue(live, Batch(hands={0, 1}))
    await svc.flush()
    assert not live.lost_untold
    return saved, svc, live
