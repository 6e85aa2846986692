"""A Discord client whose commands are stale (the bot's changed: a deploy, a sync under way)
sends a subcommand the bot no longer has, options of an older shape, or asks to autocomplete
an option that has no autocomplete. Each gets a short private answer (or an empty list of
choices), changes nothing and logs no ERROR. Over the loopback Discord, built as Discord
delivers them; and a line break typed in a move parts its words."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.names import visible
from tests.loopback import acting
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Interaction, LoopbackDiscord
from tests.test_fuzz_commands import errors, raw

#: Discord's interaction type for an autocomplete request, and its answer's callback type.
AUTOCOMPLETE, CHOICES = 4, 8


async def autocomplete(server: LoopbackDiscord, user_id: int, command: str,
                       options: list[dict[str, Any]]) -> Interaction:
    """An autocomplete request for ``command``'s options as given (one of them focused)."""
    group, _, name = command.partition(" ")
    synced = next(c for c in server.commands if c["name"] == group)
    record = acting._base(server, AUTOCOMPLETE, user_id, server.channel_id)
    record.payload["data"] = {"id": synced["id"], "name": group, "type": 1,
                              "options": [{"name": name, "type": 1, "options": options}]}
    return await acting._send(server, record, 20)


@pytest.mark.parametrize("command, options", [
    ("umtali nosuch", []),
    ("umtali challenge", []),  # its required opponent missing, as an older shape would be
])
@pytest.mark.parametrize("locale, said", [
    ("en-US", "That command has changed since your Discord loaded it"),
    ("ru", "Эта команда изменилась с тех пор, как ваш Discord её загрузил"),
])
async def test_a_command_the_bot_no_longer_has_gets_a_short_answer(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        command: str, options: list[dict[str, Any]], locale: str, said: str) -> None:
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        ada = server.add_member("ada")
        answer = await raw(server, ada, server.channel_id, command, options, locale)
        assert answer.callback_type == 4 and answer.ephemeral, answer.text()
        assert said in answer.callback["content"], answer.callback["content"]
        assert not errors(caplog)


async def test_autocomplete_of_an_option_without_it_gets_no_choices(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3"):
        ada = server.add_member("ada")
        # The leaderboard's scope has fixed choices, no autocomplete.
        stale = await autocomplete(server, ada, "umtali leaderboard",
                                   [{"name": "scope", "type": 3, "value": "a", "focused": True}])
        assert stale.callback_type == CHOICES, stale.text()
        assert stale.callback["choices"] == []
        gone = await autocomplete(server, ada, "umtali nosuch",
                                  [{"name": "x", "type": 3, "value": "", "focused": True}])
        assert gone.callback_type == CHOICES and gone.callback["choices"] == []
        # An option that has one still gets its choices (the season's, here none but all time).
        season = await autocomplete(server, ada, "umtali leaderboard",
                                    [{"name": "season", "type": 3, "value": "", "focused": True}])
        assert season.callback_type == CHOICES, season.text()
        assert not errors(caplog)


def test_a_line_break_in_a_move_parts_its_words() -> None:
    # Pasted from elsewhere: "meld 8D\n9D\n10D" was read as the one card "8D9D10D".
    assert visible("meld 8D\n9D\r\n10D\t") == "meld 8D 9D 10D"
    assert visible("8\u200bD \u2028 9D") == "8D 9D"  # hidden characters still go
