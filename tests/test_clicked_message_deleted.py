"""review153: a message deleted (by a moderator, its author) while a click on it is being
answered: the edit of it fails with Discord's "Unknown Message" (10008), which was answered
"Sorry, something went wrong on our side" and logged as an ERROR, a bug of ours. Now the
member is told the message was deleted meanwhile, at INFO; what the click did stands.
SimCord, a real SQLite file."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from tests.discord_helpers import World, challenge, custom_ids


async def test_a_decline_on_a_challenge_deleted_meanwhile_is_answered_plainly(
        world: World, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="cogs.umtali.errors")
    posted = await challenge(world, world.alice, world.bob)
    decline = next(c for c in custom_ids(posted.response) if c.endswith(":decline"))
    # The challenge deleted as the decline's answer edits it.
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10008,
                           message="Unknown Message", times=1)
    answer = await world.bob.click(posted.response, custom_id=decline)
    said = " ".join(str(m.content) for m in (answer.response, *answer.followups) if m)
    assert "deleted" in said and "Sorry" not in said, said
    with sqlite3.connect(db_path) as c:  # the decline stands
        assert c.execute("SELECT status FROM challenges").fetchall() == [("declined",)]
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors
    assert any("deleted" in r.getMessage() for r in caplog.records
               if r.levelno == logging.INFO), "not logged"
