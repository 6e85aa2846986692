"""Slash commands given where they do not work, or with values Discord's own client would not
send (a client whose commands are stale): a short private answer, nothing changed, no ERROR.

Driven through the loopback Discord, with interactions built as Discord delivers them; the
``raw`` ones skip the check a current client makes against the synced options.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tests.loopback import acting
from tests.loopback import payloads as p
from tests.loopback.driver import query
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Interaction, LoopbackDiscord, Member

#: The /umtali commands that work on a server only, with options a client would send.
SERVER_ONLY: list[tuple[str, dict[str, Any]]] = [
    ("umtali challenge", {"opponent": None}), ("umtali practice", {}),
    ("umtali play", {"move": "draw"}), ("umtali resign", {}), ("umtali table", {}),
    ("umtali leaderboard", {}), ("umtali stats", {}), ("umtali history", {}),
]


def dm_channel(server: LoopbackDiscord, user_id: int) -> int:
    """The member's DM with the bot, as Discord opens it."""
    if user_id not in server.dms:
        channel_id = server.snowflake()
        server.dms[user_id] = channel_id
        server.channels[channel_id] = p.dm_channel(channel_id, server.users[user_id])
        server.log[channel_id] = []
    return server.dms[user_id]


async def raw(server: LoopbackDiscord, user_id: int, channel_id: int, command: str,
              options: list[dict[str, Any]], locale: str = "en-US",
              resolved: dict[str, Any] | None = None) -> Interaction:
    """A slash command with options as given, unchecked: what a stale client may send."""
    group, _, name = command.partition(" ")
    synced = next(c for c in server.commands if c["name"] == group)
    record = acting._base(server, acting.APPLICATION_COMMAND, user_id, channel_id)
    record.payload["locale"] = locale
    record.payload["data"] = {"id": synced["id"], "name": group, "type": 1,
                              "options": [{"name": name, "type": 1, "options": options}]}
    if resolved:
        record.payload["data"]["resolved"] = resolved
    return await acting._send(server, record, 20)


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def nothing_saved(db: Path) -> None:
    for table in ("matches", "challenges", "guild_settings", "session_results"):
        assert query(db, f"SELECT COUNT(*) AS n FROM {table}")[0]["n"] == 0, table


@pytest.mark.parametrize("locale, said", [
    ("en-US", "That command works in a server, not in direct messages."),
    ("ru", "Эта команда работает на сервере, а не в личных сообщениях."),
])
async def test_server_commands_in_a_dm_say_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture, locale: str,
                                              said: str) -> None:
    # Discord keeps a command out of DMs by its top-level command only: /umtali is offered
    # there (rules and display work in a DM), with every one of its subcommands.
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        server.locales[ada] = locale
        [player] = [c for c in server.commands if c["name"] == "umtali"]
        assert player.get("contexts") in (None, [0, 1, 2]) and player["dm_permission"]
        dm = dm_channel(server, ada)
        for command, options in SERVER_ONLY:
            given = {k: Member(ben) if v is None else v for k, v in options.items()}
            answer = await server.slash(ada, dm, command, given)
            assert answer.callback_type == 4 and answer.ephemeral, (command, answer.text())
            assert answer.callback["content"] == said, (command, answer.text())
        # The stale client's /umtali-admin: the same answer, not a missing permission.
        for command in ("umtali-admin settings", "umtali-admin sync"):
            answer = await raw(server, ada, dm, command, [], locale)
            assert answer.ephemeral and answer.callback["content"] == said, answer.text()
        # What does work in a DM still does.
        rules = await server.slash(ada, dm, "umtali rules", {"page": 2})
        assert rules.ephemeral and rules.callback["embeds"], rules.text()
        shown = await server.slash(ada, dm, "umtali display", {"pictures": False})
        assert shown.ephemeral and shown.callback["content"], shown.text()
    nothing_saved(db)
    assert not errors(caplog), errors(caplog)


def _int(name: str, value: int) -> dict[str, Any]:
    return {"name": name, "type": 4, "value": value}


def _user(server: LoopbackDiscord, name: str, user_id: int) -> tuple[dict[str, Any],
                                                                      dict[str, Any]]:
    who = server.users[user_id]
    member = {k: v for k, v in p.member(who).items() if k != "user"}
    return ({"name": name, "type": 6, "value": str(user_id)},
            {"users": {str(user_id): who}, "members": {str(user_id): member}})


@pytest.mark.parametrize("minutes", [-1, 61, 2**53, 2**63])
@pytest.mark.parametrize("locale, said", [
    ("en-US", "Choose a turn timer of 0 to 60 minutes (0: no limit)."),
    ("ru", "Выберите время на ход от 0 до 60 минут (0 — без ограничения)."),
])
async def test_a_turn_timer_out_of_range_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        minutes: int, locale: str, said: str) -> None:
    # It was clamped: -1 turned a server's timer off, 2**63 set it to an hour, unasked.
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        here = server.channel_id
        opponent, resolved = _user(server, "opponent", ben)
        for command, options in (("umtali practice", []), ("umtali challenge", [opponent]),
                                 ("umtali-admin settings", [])):
            answer = await raw(server, ada, here, command,
                               [*options, _int("turn_timer", minutes)], locale, resolved)
            assert answer.callback_type == 4 and answer.ephemeral, (command, answer.text())
            assert answer.callback["content"].startswith(said), (command, answer.text())
        assert not server.channel_messages(here)
    nothing_saved(db)
    assert not errors(caplog), errors(caplog)


@pytest.mark.parametrize("locale, said", [
    ("en-US", "Choose either a turn timer or a time control, not both."),
    ("ru", "Выберите либо время на ход, либо контроль времени, но не то и другое сразу."),
])
async def test_a_turn_timer_with_a_time_control_is_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        locale: str, said: str) -> None:
    # Each is a whole clock: the turn timer used to win silently, a clock nobody chose.
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        here = server.channel_id
        opponent, resolved = _user(server, "opponent", ben)
        both = [_int("turn_timer", 5), {"name": "time_control", "type": 3, "value": "blitz"}]
        for command, options in (("umtali challenge", [opponent]),
                                 ("umtali-admin settings", [])):
            answer = await raw(server, ada, here, command, [*options, *both], locale, resolved)
            assert answer.callback_type == 4 and answer.ephemeral, (command, answer.text())
            assert answer.callback["content"].startswith(said), (command, answer.text())
        assert not server.channel_messages(here)
    nothing_saved(db)
    assert not errors(caplog), errors(caplog)
