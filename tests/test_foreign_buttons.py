"""Buttons whose custom id names a server answer only within that server: a board page or a
replay menu carrying another server's id is refused privately and changes nothing."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.loopback import payloads as p
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord


def forged(server: LoopbackDiscord, custom_id: str, kind: int = 2) -> dict[str, object]:
    """A message of the bot's in the channel, with one component carrying ``custom_id``."""
    component: dict[str, object] = {"type": kind, "custom_id": custom_id, "style": 2,
                                    "label": "Next ▶"}
    if kind == 3:
        component = {"type": 3, "custom_id": custom_id,
                     "options": [{"label": "#1", "value": "1"}]}
    body = {"content": "", "embeds": [{"title": "Umtali leaderboard · elsewhere"}],
            "components": [{"type": 1, "components": [component]}]}
    message = p.message(server.snowflake(), server.channel_id, server.bot_user, body,
                        server.guild_id)
    server.messages[int(message["id"])] = message
    return message


@pytest.mark.parametrize("scope", ["server", "global"])
async def test_a_board_page_of_another_server_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, scope: str) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        member = server.add_member("ada")
        elsewhere = server.guild_id + 1
        message = forged(server, f"umtali:lb:{elsewhere}:{scope}:2")
        before = copy.deepcopy(message)
        answer = await server.click(member, message, f"umtali:lb:{elsewhere}:{scope}:2")
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "another server" in answer.callback["content"]
        assert message == before
        # This server's own page still turns.
        own = forged(server, f"umtali:lb:{server.guild_id}:{scope}:1")
        turned = await server.click(member, own, f"umtali:lb:{server.guild_id}:{scope}:1")
        assert turned.callback_type == 7, turned.text()


async def test_a_replay_menu_of_another_server_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        member = server.add_member("ada")
        custom_id = f"umtali:rp:{server.guild_id + 1}"
        message = forged(server, custom_id, kind=3)
        answer = await server.click(member, message, custom_id, values=["1"])
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert "not kept on this server" in answer.callback["content"]
