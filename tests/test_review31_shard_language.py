"""A server that chose no language speaks its own preferred locale, whichever process draws its
matches: one whose shards do not receive that server (a DM's click goes to shard 0's process,
which then holds the match) does not know the locale from Discord, and must not fall back to
English in a Russian server's thread (review31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.loopback.driver import read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_processes_loopback import owner, second_process
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_process_without_the_server_draws_its_table_in_the_servers_language(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        server.guild_locale = "ru"
        async with bot_in_process(server, db), second_process(db) as p2:
            a, b = server.add_member("ada"), server.add_member("ben")
            saved = await start_session(server, db, a, b)
            assert saved.table_message_id is not None
            ours = next(m for m in server.channel_messages(saved.channel_id)
                        if m["id"] == str(saved.table_message_id))
            assert f"Матч {saved.id}" in str(ours["embeds"]), ours["embeds"]
            # The other process, reached by a player's clicks, plays a turn and holds the match.
            while True:
                live = await p2.lookup(saved.id)
                assert live is not None
                seat = live.session.to_act
                move = GreedyPlayer().choose(live.session.view(seat))
                assert (await p2.act(live, live.player_ids[seat], move)).ok
                await p2.flush()
                if move.kind is MoveKind.DISCARD:
                    break
            assert owner(db, saved.id) == "p2"
            now = read_match(db, saved.id)
            assert now is not None and now.version > saved.version
            table = next(m for m in server.channel_messages(saved.channel_id)
                         if m["id"] == str(saved.table_message_id))
            assert f"Матч {saved.id}" in str(table["embeds"]), table["embeds"]
            # ...and so are its announcements of the turn.
            said = server.channel_messages(saved.channel_id)[-1]["content"]
            assert "ваш ход" in said, said
