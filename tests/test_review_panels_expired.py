"""A click on the DM panel whose interaction expired before the answer (Discord delivered it
late, or the bot was slow: "Unknown interaction", 10062): the move is saved, and the DM panel
is still brought to it (by the bot's own edit), not left offering the move just made."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import pytest

from tests.loopback.driver import custom_ids, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server


async def test_an_expired_click_on_the_dm_panel_still_freshens_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben, variant="russian")
        seat = saved.session.to_act
        member = saved.player_ids[seat]
        draw = f"umtali:m:{saved.id}:{saved.version}:draw"
        panel = await until(lambda: next((m for m in reversed(server.dm_messages(member))
                                          if draw in custom_ids(m)), None), "the DM panel")
        # Every answer to this click comes too late.
        server.fail("POST", r"/interactions/.*/callback", times=5, status=404, code=10062)
        with contextlib.suppress(TimeoutError):
            await server.click(member, panel, draw, timeout=3)
        after = await until(lambda: (m := read_match(db, saved.id)) and
                            m.version == saved.version + 1 and m, "the draw saved")
        assert after.session.to_act == seat  # mid-turn: no turn's end edits the panel

        def fresh() -> bool:
            shown = server.messages[int(panel["id"])]
            return any(i.startswith(f"umtali:m:{saved.id}:{after.version}:")
                       for i in custom_ids(shown))
        await until(fresh, "the DM panel showing the draw")
        await asyncio.sleep(0.2)
        assert draw not in custom_ids(server.messages[int(panel["id"])])
    # Nobody could be told, and nothing is wrong with the bot: no error logged.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
