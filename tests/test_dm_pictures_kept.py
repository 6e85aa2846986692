"""A DM panel edited with the same picture keeps the one it carries: no upload (review139 counted
10-49 identical hand pictures re-sent a session). A changed picture is uploaded, and every
picture a panel's embed names is one the message carries."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.loopback.attachments import dangling
from tests.loopback.driver import play_out, start_session, until, until_steady
from tests.loopback.harness import bot_in_process, loopback_server


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
