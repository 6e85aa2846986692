"""fix141: a member told a board, stats or the table are "being posted right now" was to be
told privately if that post then failed; but its outcome was looked up only once the answer
had gone (a Discord request): the post failing meanwhile, its entry was gone and nothing was
said. Now the post's outcome is taken as "being posted" is decided. The loopback Discord."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from cogs.umtali import tables, under_way
from tests.discord_helpers import Clock
from tests.loopback.driver import until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Fault, Interaction
from tests.loopback.server import LoopbackDiscord
from tests.test_fix136_board_race import MISSING, _board_read_held
from tests.test_fix136_table_race import _match, _post_held
from tests.test_in_time import settled

CALLBACK = r"^/interactions/.*/callback$"


async def _answer_held(server: LoopbackDiscord, asking: asyncio.Future[Interaction],
                       delayed: Fault) -> None:
    """``asking``'s answer sent, and held by Discord (``delayed``)."""
    await until(lambda: delayed.held or None, "the answer held")
    assert not asking.done()


async def test_a_board_failing_while_the_being_posted_answer_goes_is_said_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(under_way, "OUTCOME_WAIT", 0.2)
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        cy, ben = server.add_member("cy"), server.add_member("ben")
        reading, go = _board_read_held(bot, monkeypatch)
        first = asyncio.ensure_future(server.slash(cy, server.channel_id, "umtali leaderboard"))
        await asyncio.wait_for(reading.wait(), 5)
        delayed = server.delay("POST", CALLBACK)  # (Ben's answer: Cy's is not sent yet)
        second = asyncio.ensure_future(server.slash(ben, server.channel_id, "umtali stats"))
        await _answer_held(server, second, delayed)
        server.fail("POST", CALLBACK, status=403, code=MISSING)  # (Cy's post)
        go.set()
        assert (await first).ephemeral
        server.release()
        stats = await second
        assert "are being posted in this channel right now" in stats.text(), stats.text()
        await until(lambda: "could not be posted: ask again to post yours" in stats.text()
                    or None, "Ben told", timeout=5)
        assert stats.followups[-1]["flags"] & 64


async def test_a_table_failing_while_the_being_posted_answer_goes_is_said_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(under_way, "OUTCOME_WAIT", 0.2)
    async with _match(monkeypatch, tmp_path) as (server, _, saved):
        ada, ben = saved.player_ids
        going, go = _post_held(monkeypatch)
        first = asyncio.ensure_future(server.slash(ada, saved.channel_id, "umtali table"))
        await asyncio.wait_for(going.wait(), 5)
        delayed = server.delay("POST", CALLBACK)
        second = asyncio.ensure_future(server.slash(ben, saved.channel_id, "umtali table"))
        await _answer_held(server, second, delayed)
        server.fail("POST", CALLBACK, status=403, code=MISSING)
        go.set()
        assert (await first).ephemeral
        server.release()
        asked = await second
        assert "is being posted again right now" in asked.text(), asked.text()
        await until(lambda: "could not be posted: ask again" in asked.text() or None,
                    "Ben told", timeout=5)
        assert asked.followups[-1]["flags"] & 64


async def test_a_table_posted_after_a_long_wait_says_the_wait_left(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Held back by a post under way, the member waited for it: "post it again in" counts
    from the answer, not from before that wait."""
    monkeypatch.setattr(tables, "TABLE_AGAIN", 10.0)
    async with _match(monkeypatch, tmp_path) as (server, _, saved):
        ada, ben = saved.player_ids
        going, go = _post_held(monkeypatch)
        first = asyncio.ensure_future(server.slash(ada, saved.channel_id, "umtali table"))
        await asyncio.wait_for(going.wait(), 5)
        second = asyncio.ensure_future(server.slash(ben, saved.channel_id, "umtali table"))
        # Past Ben's two seconds before a defer; within Ada's three, her post the answer.
        await asyncio.sleep(2.5)
        go.set()
        assert not (await first).ephemeral
        asked = await second
        assert asked.callback_type == 5  # (deferred: the wait was past two seconds)
        said = await until(lambda: next((json.dumps(m) for m in asked.messages
                                         if "posted again a moment ago" in json.dumps(m)),
                                        None), "the answer edited in")
        found = re.search(r"post it again in (\d+) s", said)
        assert found is not None, said
        assert int(found[1]) <= 8, said


async def test_a_member_given_the_new_tables_link_is_not_told_it_is_replaced(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The look of a moment ago is per table: one given the table posted since from its own
    look is not told, with the look of the table before, that the link they got is no longer
    the live one. The service's clocks are the test's, moved on by it: commands slowed by load
    overran windows of real time (a limit over, a look due, before the test meant it)."""
    monkeypatch.setattr(tables, "SEEN_FOR", 0.4)  # (how often a held look finds it not due)
    monkeypatch.setattr(tables, "TABLE_AGAIN", 0.15)
    async with _match(monkeypatch, tmp_path) as (server, bot, saved):
        svc = bot.matches
        assert svc is not None
        clock = Clock()
        monkeypatch.setattr(svc, "clock", clock)
        monkeypatch.setattr(svc, "ticks", clock.ticks)
        live = svc.matches[saved.id]
        ada, ben = saved.player_ids

        async def posted() -> int:
            table = await server.slash(ada, saved.channel_id, "umtali table")
            assert not table.ephemeral and table.response is not None, table.text()
            return int(table.response["id"])

        t1 = await posted()
        assert (await server.slash(ben, saved.channel_id, "umtali table")).ephemeral  # (looked)
        ada_sent = await server.slash(ada, saved.channel_id, "umtali table")  # (from the look)
        assert ada_sent.ephemeral and f"/{t1}" in ada_sent.text(), ada_sent.text()
        clock.advance(0.2)  # (the limit over; T1's look not due)
        t2 = await posted()
        assert (await server.slash(ben, saved.channel_id, "umtali table")).ephemeral  # (looked)
        ben_sent = await server.slash(ben, saved.channel_id, "umtali table")  # (from the look)
        assert ben_sent.ephemeral and f"/{t2}" in ben_sent.text(), ben_sent.text()
        # Ada, given T1's link, is told of T2 once T1's look is due (T2's is not).
        clock.advance(0.2)
        await until(lambda: "no longer the live one" in ada_sent.text() or None, "Ada told")
        assert f"/{t2}" in ada_sent.followups[-1]["content"]
        await settled(bot)
        assert ben_sent.followups == [], ben_sent.text()
        # T2's own look, once due, finds it there: nothing said.
        clock.advance(0.2)
        await until(lambda: live.table_seen == (t2, clock.ticks()) or None, "T2 looked at")
        await settled(bot)
        assert ben_sent.followups == [], ben_sent.text()
