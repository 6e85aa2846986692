"""A page button (the rules', a leaderboard's) forged onto another of the bot's messages (a
table, a challenge) does not turn that message into the page, its own buttons lost: answered
privately, nothing changed (review104). The page's own buttons still turn it. On the loopback
Discord."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import tests.loopback.payloads as p
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord


def beside(server: LoopbackDiscord, custom_id: str, *others: str) -> dict[str, object]:
    """A message of the bot's in the channel carrying ``custom_id``'s button beside
    ``others``'."""
    buttons = [{"type": 2, "custom_id": i, "style": 2, "label": str(n)}
               for n, i in enumerate((*others, custom_id))]
    body = {"content": "", "embeds": [{"title": "Umtali"}],
            "components": [{"type": 1, "components": buttons}]}
    message = p.message(server.snowflake(), server.channel_id, server.bot_user, body,
                        server.guild_id)
    server.messages[int(message["id"])] = message
    return message


@pytest.mark.parametrize("page", ["umtali:rules:2", "umtali:lb:{guild}:server:1"])
async def test_a_page_button_forged_onto_a_table_leaves_the_table_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, page: str) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        member = server.add_member("ada")
        button = page.format(guild=server.guild_id)
        table = beside(server, button, "umtali:m:1:hand")
        before = copy.deepcopy(table)
        answer = await server.click(member, table, button)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "out of date" in answer.callback["content"]
        assert table == before, "the table was turned into a page"
        # A page's own buttons still turn it.
        own = beside(server, button)
        turned = await server.click(member, own, button)
        assert turned.callback_type in (6, 7), turned.text()
