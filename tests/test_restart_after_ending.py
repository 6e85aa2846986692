"""The bot killed after a session's ending was announced, before its table's last edit (the
final card, the replay button, the hands' panels): a restart still shows the ending."""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path

import pytest

from tests.loopback.driver import (
    custom_ids,
    play_out,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_process


@pytest.mark.parametrize("held_at", ["table", "dm"])
async def test_a_kill_while_an_ending_is_being_shown_loses_nothing_and_repeats_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, held_at: str) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        await play_out(server, db, saved.id, moves=4)
        assert saved.table_message_id is not None
        # The last move's table edit lands first (held, it would be taken for the ending's).
        await asyncio.sleep(1.5)
        mid = read_match(db, saved.id)
        assert mid is not None
        member = (alice, bob)[mid.session.to_act]
        # The table's last edit (the final card), or the resigning player's DM panel's, never
        # gets an answer: the bot dies waiting.
        held = server.hold("PATCH", rf"^/channels/{saved.channel_id}/messages/"
                                    rf"{saved.table_message_id}$") if held_at == "table" else \
            server.hold("PATCH", rf"^/channels/{server.dms[member]}/messages/")
        ask = await server.slash(member, saved.channel_id, "umtali resign")
        assert ask.response is not None
        button = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
        await server.click(member, ask.response, button)
        await until(lambda: held.held, "the final table's edit on its way")
        ended = read_match(db, saved.id)
        assert ended is not None and ended.status == "finished"
        bot.kill()
        server.release()
        await bot.start()
        await until(lambda: table_settled(server, ended), "the final table after the restart")
        table = server.messages[saved.table_message_id]
        assert "Ratings" in json.dumps(table["embeds"], ensure_ascii=False)
        # Each player's DM panel shows the end too, with nothing left to press.
        def ended_hand(user: int) -> bool:
            dm = server.dm_messages(user)
            return bool(dm) and custom_ids(dm[-1]) == [] and "wins" in json.dumps(
                dm[-1]["embeds"])
        for user in (alice, bob):
            await until(functools.partial(ended_hand, user), "the ended hand")
    # Said once: the ending is not announced twice.
    posted = [m["content"] for m in server.channel_messages(saved.channel_id)]
    assert sum("resigned" in text for text in posted) == 1, posted
