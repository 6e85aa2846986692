"""Two accepts racing (a double click, each opening the cut's modal, both submitted, over real
sockets: the loopback Discord delivers them together) make one match with one cut: the submit
that won the database's accept (nothing typed: its id), saved with the match before anything is
dealt or shown. So do two on a practice session's Cut the deck."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.service import MatchService
from tests.loopback.driver import custom_ids, query, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member
from tests.test_fair_cut import REAL_CUT


async def test_a_double_click_on_accept_makes_one_match_and_one_cut(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MatchService, "cut_of", REAL_CUT)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada, ben = server.add_member("ada"), server.add_member("ben")
        posted = await _challenge(server, ada, ben)
        accept = next(c for c in custom_ids(posted) if c.endswith(":accept"))
        # Each click opens the cut's modal (nothing read or changed yet); the two submits race.
        shown = await asyncio.gather(server.click(ben, posted, accept),
                                     server.click(ben, posted, accept))
        assert [s.callback_type for s in shown] == [9, 9]
        clicks = await asyncio.gather(*(server.submit(ben, s, {"cut": ""}) for s in shown))
        [match] = await until(lambda: query(
            db, "SELECT id, cut, state FROM matches WHERE table_message_id IS NOT NULL")
            or None, "the table")
        [challenge] = query(db, "SELECT status, match_id, seed FROM challenges")
        assert challenge["status"] == "accepted" and challenge["match_id"] == match["id"]
        won = [c for c in clicks if not c.ephemeral]
        lost = [c for c in clicks if c.ephemeral]
        assert len(won) == 1 and len(lost) == 1, [c.callback for c in clicks]
        assert "no longer open" in lost[0].callback["content"]
        # The winning submit's id is the cut, in the saved match and in its session's seed.
        assert match["cut"] == str(won[0].id)
        assert f'"{challenge["seed"]}/{won[0].id}"' in match["state"]
        shown = server.messages[int(posted["id"])]["embeds"][0]["description"]
        assert f"cut `{won[0].id}`" in shown and str(lost[0].id) not in shown
        assert not server.errors


async def _challenge(server: LoopbackDiscord, challenger: int, opponent: int) -> dict[str, Any]:
    answer = await server.slash(challenger, server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent)})
    assert answer.response is not None and not answer.ephemeral, answer.text()
    return answer.response


async def test_a_double_click_on_cut_the_deck_starts_one_practice(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MatchService, "cut_of", REAL_CUT)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        ada = server.add_member("ada")
        answer = await server.slash(ada, server.channel_id, "umtali practice", {})
        assert answer.response is not None and not answer.ephemeral, answer.text()
        posted = answer.response
        button = next(c for c in custom_ids(posted) if c.startswith("umtali:cut:"))
        shown = await asyncio.gather(server.click(ada, posted, button),
                                     server.click(ada, posted, button))
        assert [s.callback_type for s in shown] == [9, 9]
        clicks = await asyncio.gather(*(server.submit(ada, s, {"cut": ""}) for s in shown))
        [match] = await until(lambda: query(
            db, "SELECT id, cut FROM matches WHERE table_message_id IS NOT NULL") or None,
            "the table")
        [practice] = query(db, "SELECT status, match_id FROM challenges")
        assert practice["status"] == "accepted" and practice["match_id"] == match["id"]
        won = [c for c in clicks if not c.ephemeral]
        lost = [c for c in clicks if c.ephemeral]
        assert len(won) == 1 and len(lost) == 1, [c.callback for c in clicks]
        assert "no longer waiting" in lost[0].callback["content"]
        assert match["cut"] == str(won[0].id)
        assert len(query(db, "SELECT id FROM matches")) == 1
        assert not server.errors
