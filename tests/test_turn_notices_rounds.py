"""By correspondence, the turns' DMs that failed for now are sent again beside the timer tick,
in rounds the tick starts: a round waiting on Discord while the next check starts another must
not trip over the DMs that one took (a ``KeyError`` each time, logged). Over the loopback
Discord, the bot in this process."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.loopback.driver import play_out, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server


async def test_two_rounds_of_turn_dms_sent_again_each_send_their_own(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        svc = bot.matches
        assert svc is not None
        ids = []
        for a, b in (("ada", "ben"), ("cid", "dee")):
            saved = await start_session(server, db, server.add_member(a), server.add_member(b),
                                        time_control="correspondence")
            ids.append(saved.id)
        await svc.flush()
        dms = []
        for match_id in ids:
            live = svc.matches[match_id]
            dm = live.dm_channel_ids[1 - live.session.to_act]
            assert dm is not None
            dms.append(dm)
            # The next turn's DM fails for now (a 503): kept to send again.
            server.fail("POST", rf"^/channels/{dm}/messages$", status=503)
            mover = live.session.to_act
            while live.session.to_act == mover:
                await play_out(server, db, match_id, moves=1)
        await svc.flush()
        caplog.set_level(logging.INFO)
        # The first round waits on the first match's DM; the next check starts another.
        held = server.delay("POST", rf"^/channels/{dms[0]}/messages$")
        now = svc.clock()
        await svc.check_timers(now=now)
        await until(lambda: held.held, "the first round on its way")
        await svc.check_timers(now=now + 1)
        server.release()
        await svc.flush()
        told = [m for dm in dms for m in server.channel_messages(dm)
                if "Your turn in the Umtali match" in (m.get("content") or "")]
        assert len(told) == 2, [m["content"] for m in told]
        tripped = [r.getMessage() for r in caplog.records if "could not be sent" in r.getMessage()]
        assert not tripped, tripped
