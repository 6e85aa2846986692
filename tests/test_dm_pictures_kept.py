"""A DM panel edited with the same picture keeps the one it carries: no upload (review139 counted
10-49 identical hand pictures re-sent a session). A changed picture is uploaded, and every
picture a panel's embed names is one the message carries."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest

from tests.loopback.attachments import dangling
from tests.loopback.driver import (
    custom_ids,
    play_out,
    read_match,
    start_session,
    until,
    until_steady,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Call
from tests.loopback.server import LoopbackDiscord
from tests.test_threads_archived import ACTIONS
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_an_unchanged_hand_picture_is_not_uploaded_again(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        await until(lambda: all(server.dm_messages(u) for u in (ada, ben)), "the hands")
        dms = {int(server.dms[u]) for u in (ada, ben)}
        start = len(server.calls)
        await play_out(server, db, saved.id, moves=30)
        calls = len(server.calls)

        def quiet() -> bool:
            nonlocal calls
            still, calls = calls == len(server.calls), len(server.calls)
            return still
        await until_steady(quiet, "the last deliveries", steady=0.5)
        last: dict[str, str] = {}
        again = uploads = kept = 0
        for call in server.calls[start:]:
            if call.method != "PATCH" or int(call.match.get("channel") or 0) not in dms or \
                    "message" not in call.match:
                continue
            message = call.match["message"]
            if not call.files:
                kept += 1
                continue
            for _name, data in call.files:
                digest = hashlib.sha256(data).hexdigest()
                uploads += 1
                again += last.get(message) == digest
                last[message] = digest
        print(f"DM edits: {uploads} uploads, {again} of an unchanged picture, {kept} kept")
        assert again == 0, f"{again} unchanged pictures uploaded again"
        assert uploads > 0 and kept > 0, (uploads, kept)
        for user in (ada, ben):
            [panel] = server.dm_messages(user)
            assert panel["attachments"] and not dangling(panel), panel["attachments"]


async def test_moves_clicked_on_the_dm_panel_leave_an_unchanged_picture_where_it_is(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Played on the DM panels (each click's answer edits the panel, and the turn's delivery
    edits it again): a picture already on the panel is not uploaded again, by either."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        await until(lambda: all(server.dm_messages(u) for u in (ada, ben)), "the hands")
        panels = {int(server.dm_messages(u)[0]["id"]) for u in (ada, ben)}
        start = len(server.calls)
        for _ in range(30):
            await clicked_move(server, db, saved.id)
        await asyncio.sleep(0.5)
        last: dict[int, str] = {}
        again = uploads = 0
        for call in server.calls[start:]:
            message = edited(server, call)
            if message not in panels or not call.files:
                continue
            for _name, data in call.files:
                digest = hashlib.sha256(data).hexdigest()
                uploads += 1
                again += last.get(message) == digest
                last[message] = digest
        print(f"DM panel uploads: {uploads}, {again} of an unchanged picture")
        assert again == 0, f"{again} unchanged pictures uploaded again"
        assert uploads > 4
        for user in (ada, ben):
            [panel] = server.dm_messages(user)
            assert not dangling(panel), panel["attachments"]


def edited(server: LoopbackDiscord, call: Call) -> int | None:
    """The message ``call`` edits: by the bot's own call, or by the answer to a click on it
    (its update, or a deferred update's edit of the original)."""
    if call.method == "PATCH" and "message" in call.match and call.match["message"].isdigit():
        return int(call.match["message"])
    parts = call.path.strip("/").split("/")
    token = parts[2] if parts[0] in ("interactions", "webhooks") and len(parts) > 2 else ""
    clicked = server.interactions.get(token)
    if clicked is None or clicked.callback_type not in (6, 7):
        return None
    if (parts[0] == "interactions" and isinstance(call.body, dict)
            and call.body.get("type") == 7) or parts[-1] == "@original":
        return int(clicked.payload["message"]["id"])
    return None


async def clicked_move(server: LoopbackDiscord, db: Path, match_id: int) -> None:
    """The seat to act makes its greedy move on its DM panel (typed, where the panel offers
    no button for it: a card laid off)."""
    saved = read_match(db, match_id)
    assert saved is not None and saved.status == "active"
    seat = saved.session.to_act
    user = saved.player_ids[seat]
    move = GreedyPlayer().choose(saved.session.view(seat))
    prefix = f"umtali:m:{match_id}:{saved.version}:"
    panel = await until(lambda: next((m for m in server.dm_messages(user) if any(
        c.startswith(prefix) for c in custom_ids(m))), None), "the panel")
    action = prefix + ACTIONS[move.kind]
    values = [c.code for c in move.card_list] if move.kind is MoveKind.MELD else (
        [str(move)] if move.kind in (MoveKind.EXTEND, MoveKind.DISCARD) else None)
    if action in custom_ids(panel):
        await server.click(user, panel, action, values)
    else:
        await server.slash(user, saved.channel_id, "umtali play", {"move": str(move)})
    await until(lambda: (m := read_match(db, match_id)) and m.version > saved.version,
                "the move saved")
