"""The cut's modal over real sockets (the loopback Discord): Accept is answered with the modal
(callback 9) and nothing else; anyone else's click with a private refusal and no modal; two
submits racing, each with its own typed cut, make one match, cut by the submit that won the
database's accept; a submit for a challenge that is gone is answered privately."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import custom_ids, query, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Interaction
from tests.loopback.server import LoopbackDiscord, Member


async def _challenge(server: LoopbackDiscord, challenger: int, opponent: int) -> dict[str, Any]:
    answer = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent)})
    assert answer.response is not None and not answer.ephemeral, answer.text()
    return answer.response


def _field(shown: Interaction) -> dict[str, Any]:
    [field] = [c for row in shown.callback["components"] for c in row["components"]]
    assert isinstance(field, dict)
    return field


async def test_accept_opens_the_modal_and_two_typed_submits_make_one_match(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben, cy = (server.add_member(n) for n in ("ada", "ben", "cy"))
        posted = await _challenge(server, ada, ben)
        accept = next(c for c in custom_ids(posted) if c.endswith(":accept"))
        challenge_id = int(accept.split(":")[2])

        # Not theirs to accept: a private refusal, no modal, nothing read or changed.
        for who, said in ((cy, "Only the challenged member"), (ada, "your own challenge")):
            refused = await server.click(who, posted, accept)
            assert refused.callback_type == 4 and refused.ephemeral, refused.text()
            assert said in refused.callback["content"]

        shown = await asyncio.gather(server.click(ben, posted, accept),
                                     server.click(ben, posted, accept))
        for s in shown:
            assert s.callback_type == 9, s.text()
            assert s.callback["custom_id"] == f"umtali:cutmodal:accept:{challenge_id}"
            assert s.callback["title"] == "Cut the deck"
            assert _field(s)["custom_id"] == "cut" and _field(s)["max_length"] == 32
        assert query(db, "SELECT id FROM matches") == []
        submits = await asyncio.gather(server.submit(ben, shown[0], {"cut": "first cut"}),
                                       server.submit(ben, shown[1], {"cut": "second cut"}))
        [match] = await until(lambda: query(
            db, "SELECT id, cut FROM matches WHERE table_message_id IS NOT NULL") or None,
            "the table")
        won = [i for i, s in enumerate(submits) if not s.ephemeral]
        lost = [i for i, s in enumerate(submits) if s.ephemeral]
        assert len(won) == 1 and len(lost) == 1, [s.text() for s in submits]
        assert "no longer open" in submits[lost[0]].callback["content"]
        typed = ("first cut", "second cut")[won[0]]
        assert match["cut"] == typed
        [row] = query(db, "SELECT status, match_id FROM challenges")
        assert row["status"] == "accepted" and row["match_id"] == match["id"]
        description = server.messages[int(posted["id"])]["embeds"][0]["description"]
        assert f"ben cut the deck: `{typed}`" in description
        assert ("first cut", "second cut")[lost[0]] not in description
        assert len(query(db, "SELECT id FROM matches")) == 1
        assert not server.errors


async def test_a_practice_cut_is_asked_of_its_player_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        answer = await server.slash(ada, server.channel_id, "umtali practice", {})
        assert answer.response is not None
        button = next(c for c in custom_ids(answer.response)
                      if c.startswith("umtali:cut:") and not c.endswith(":cancel"))
        refused = await server.click(ben, answer.response, button)
        assert refused.callback_type == 4 and refused.ephemeral
        assert "Only <@" in refused.callback["content"]
        shown = await server.click(ada, answer.response, button)
        assert shown.callback_type == 9 and shown.callback["custom_id"].startswith(
            "umtali:cutmodal:practice:")
        cut = await server.submit(ada, shown, {"cut": "ada's own"})
        assert cut.callback_type == 7, cut.text()
        [match] = await until(lambda: query(
            db, "SELECT cut FROM matches WHERE table_message_id IS NOT NULL") or None,
            "the table")
        assert match["cut"] == "ada's own"
        assert not server.errors


async def test_a_submit_for_a_challenge_that_is_gone_is_answered_privately(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        posted = await _challenge(server, ada, ben)
        accept = next(c for c in custom_ids(posted) if c.endswith(":accept"))
        shown = await server.click(ben, posted, accept)
        # The challenger withdraws it meanwhile.
        decline = next(c for c in custom_ids(posted) if c.endswith(":decline"))
        await server.click(ada, posted, decline)
        late = await server.submit(ben, shown, {"cut": "too late"})
        assert late.callback_type == 4 and late.ephemeral
        assert "no longer open" in late.callback["content"]
        assert query(db, "SELECT id FROM matches") == []
        assert not server.errors
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
