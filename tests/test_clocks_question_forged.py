"""The time-up question's buttons answer on the question, and on no other message: their ids
sent on another message of the bot's (forged: anyone can send any custom id to a bot's
message) are answered privately and leave that message as it was, its buttons too. On the
loopback Discord, which lets a test forge such a click."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.clock_state import LATE
from tests.loopback.driver import custom_ids, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_foreign_buttons import forged

#: Interaction callback type: the clicked message updated.
UPDATE = 7


async def _asked(server: Any, bot: Any, db: Path) -> tuple[Any, dict[str, Any], int]:
    """A correspondence session whose turn ran out: the match, the question, the waiting
    player."""
    alice, bob = server.add_member("ada"), server.add_member("ben")
    saved = await start_session(server, db, alice, bob, time_control="correspondence")
    live = bot.matches.matches[saved.id]
    assert live.deadline is not None
    await bot.matches.check_timers(now=live.deadline + LATE + 1)
    await bot.matches.flush()
    question = await until(lambda: next(
        (m for m in server.messages.values() if "time for this turn is up"
         in str(m.get("content")) and custom_ids(m)), None), "the question")
    return live, question, live.player_ids[1 - live.session.to_act]


@pytest.mark.parametrize("who", ["outsider", "waiting"])
async def test_a_question_button_on_another_message_leaves_it_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, who: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        live, question, waiting = await _asked(server, bot, db)
        wait = next(c for c in custom_ids(question) if c.endswith(":wait"))
        if who == "outsider":
            # Another version's id (no longer needed), clicked by anyone.
            clicker = server.add_member("cy")
            wait = wait.replace(f":{live.version}:", f":{live.version + 5}:")
        else:
            clicker = waiting
        # A message of the bot's with buttons of its own (as the table has), the id among them.
        other: Any = forged(server, wait)
        other["components"][0]["components"].append(
            {"type": 2, "custom_id": f"umtali:lb:{live.guild_id}:2", "style": 2, "label": "2"})
        before = copy.deepcopy(other)
        answer = await server.click(clicker, other, wait)
        assert answer.callback_type != UPDATE and answer.ephemeral, answer.text()
        svc = bot.matches
        assert svc is not None
        await svc.flush()
        assert server.messages[int(other["id"])] == before
        if who == "waiting":
            # The answer is taken all the same, and the question says so, its buttons gone.
            assert live.deadline is not None
            await until(lambda: "keeps waiting" in str(
                server.messages[int(question["id"])].get("content")), "the question edited")
            assert not custom_ids(server.messages[int(question["id"])])
        assert not server.errors
