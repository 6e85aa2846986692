"""The bot killed while a season's summary is on its way to Discord: the summary was claimed
(so that no other tick or process posts it too), and the restart posts it, once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from cogs.umtali.calendar_words import season_name
from data.models import GuildSettings
from data.seasons import season_of
from data.store import Store
from tests.loopback.driver import query, until
from tests.loopback.harness import BotProcess, loopback_server
from tests.test_records import forfeited
from umtali.i18n import EN

#: Long enough ago that its month is over, whenever the test runs.
PLAYED = time.time() - 90 * 86400


async def test_a_kill_while_a_season_summary_is_posted_loses_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        # A monthly season played while the bot ran, summaries to the server's channel; the
        # bot is down when it ends.
        store = await Store.open(db)
        await store.save_guild_settings(GuildSettings(
            server.guild_id, seasons="monthly", season_channel_id=server.channel_id))
        await forfeited(store, (ben, "ben"), (ada, "ada"), guild=server.guild_id, now=PLAYED)
        await store.close()
        season = season_of(PLAYED, "monthly")
        assert season is not None
        title = f"The {season_name(EN, season)} season is over"

        def summaries() -> list[str]:
            return [str(m["embeds"][0]["title"]) for m in server.channel_messages(
                server.channel_id) if m.get("embeds")]

        # Started, it ends the season and posts the summary: the post never gets an answer,
        # and the bot dies waiting.
        held = server.hold("POST", rf"^/channels/{server.channel_id}/messages$")
        bot = BotProcess(server, db, tmp_path)
        try:
            await bot.start()
            await until(lambda: held.held, "the summary's post on its way")
            bot.kill()
            server.release()
            assert summaries() == []
            await bot.start()
            await server.message_in(server.channel_id,
                                    lambda m: bool(m.get("embeds"))
                                    and m["embeds"][0]["title"] == title, timeout=20)
            # Another tick finds nothing left to post.
            await asyncio.sleep(1.0)
        finally:
            await bot.stop()
    assert summaries() == [title]
    [row] = query(db, "SELECT announced FROM seasons WHERE guild_id = ? AND season = ?",
                  server.guild_id, season)
    assert row["announced"] == 1
