"""fix136: ``/umtali table`` asked while the other player's post of the table is still on its
way. Told at once "posted again a moment ago" (with the old table's link), or "being posted
again right now", the second player was never told when that post then failed (the bot
refused in the channel meanwhile): no table came, and they were held back by a post taken
back. Now they wait for its outcome: failed, theirs is posted. The loopback Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali import in_time, tables, under_way
from tests.loopback.driver import SavedMatch, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Interaction
from tests.loopback.server import LoopbackDiscord
from tests.test_in_time import settled

#: The bot refused in the channel meanwhile (the brief's "missing permission").
MISSING = 50013


def _post_held(monkeypatch: pytest.MonkeyPatch) -> tuple[asyncio.Event, asyncio.Event]:
    """The next table posted by ``/umtali table`` waits for the second event once it is
    about to go (the first): under way meanwhile."""
    real = in_time.post_public
    going, go = asyncio.Event(), asyncio.Event()

    async def post_public(interaction: Any, **fields: Any) -> Any:
        if not going.is_set():
            going.set()
            await go.wait()
        return await real(interaction, **fields)

    monkeypatch.setattr(tables, "post_public", post_public)  # (as imported there)
    return going, go


def _outcome_waited(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Set once a member held back waits for the outcome of a post under way."""
    real = under_way.UnderWay.outcome
    waiting = asyncio.Event()

    async def outcome(self: under_way.UnderWay, key: int) -> bool | None:
        if self.pending(key) is not None:
            waiting.set()
        return await real(self, key)

    monkeypatch.setattr(under_way.UnderWay, "outcome", outcome)
    return waiting


async def _race(server: LoopbackDiscord, saved: SavedMatch, monkeypatch: pytest.MonkeyPatch,
                fails: bool) -> tuple[Interaction, Interaction]:
    """Ada's ``/umtali table`` under way as Ben asks for it; then it is posted, or
    (``fails``) Discord refuses it."""
    ada, ben = saved.player_ids
    going, go = _post_held(monkeypatch)
    waiting = _outcome_waited(monkeypatch)
    first = asyncio.ensure_future(server.slash(ada, saved.channel_id, "umtali table"))
    await asyncio.wait_for(going.wait(), 5)
    second = asyncio.ensure_future(server.slash(ben, saved.channel_id, "umtali table"))
    # Held back by it, waiting for its outcome (not a guess at how long Ben's command takes:
    # under load, the post let go first, or the failure meant for it given to his answer).
    await asyncio.wait_for(waiting.wait(), 20)
    if fails:
        server.fail("POST", r"^/interactions/.*/callback$", status=403, code=MISSING)
    go.set()
    return await first, await second


def _live_table(bot: UmtaliBot, saved: SavedMatch) -> int | None:
    assert bot.matches is not None
    return bot.matches.matches[saved.id].table_message_id


@asynccontextmanager
async def _match(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[
        tuple[LoopbackDiscord, UmtaliBot, SavedMatch]]:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        ada, ben = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, ada, ben)
        await settled(bot)
        yield server, bot, saved


async def test_the_post_held_back_by_failed_the_table_comes_all_the_same(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _match(monkeypatch, tmp_path) as (server, bot, saved):
        refused, asked = await _race(server, saved, monkeypatch, fails=True)
        assert refused.ephemeral and "permission" in refused.text(), refused.text()
        # Not sent to the old table, held back by a post that never went: the table is
        # posted.
        assert not asked.ephemeral, asked.text()
        assert asked.response is not None
        theirs = int(asked.response["id"])
        await until(lambda: _live_table(bot, saved) == theirs or None, "the table moved")


async def test_the_post_found_deleted_by_both_failed_the_table_comes_all_the_same(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The table deleted within the minute of its post: Ada's post replacing it under way,
    Ben (who found it deleted too) was told it was being posted; it failed, and he was not
    told."""
    async with _match(monkeypatch, tmp_path) as (server, bot, saved):
        ada, _ = saved.player_ids
        posted = await server.slash(ada, saved.channel_id, "umtali table")
        assert not posted.ephemeral and posted.response is not None, posted.text()
        first = int(posted.response["id"])
        await until(lambda: _live_table(bot, saved) == first or None, "the table moved")
        await settled(bot)
        # A moderator deletes it (on Discord's side: the bot hears nothing of it).
        del server.messages[first]
        server.log[saved.channel_id].remove(first)
        refused, asked = await _race(server, saved, monkeypatch, fails=True)
        assert refused.ephemeral and "permission" in refused.text(), refused.text()
        assert not asked.ephemeral, asked.text()
        assert asked.response is not None
        theirs = int(asked.response["id"])
        await until(lambda: _live_table(bot, saved) == theirs or None, "the table moved")


async def test_the_post_held_back_by_made_the_link_is_the_new_table(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with _match(monkeypatch, tmp_path) as (server, _, saved):
        posted, refused = await _race(server, saved, monkeypatch, fails=False)
        assert not posted.ephemeral and refused.ephemeral
        assert posted.response is not None
        said = refused.text()
        assert "posted again a moment ago" in said, said
        # The table just posted, not the one it replaced (retired as the link was given).
        assert f"/{saved.channel_id}/{posted.response['id']}" in said, said
        assert not server.errors


async def test_a_table_deleted_within_its_look_is_looked_at_once_for_all_sent_there(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Both players given the deleted table's link from the look of a moment before: one look
    once its time is over, and both told (``table_doubts``). That time is the test's own (the
    service's steady clock held still, then moved on), not a second of real time that three
    commands slowed by load could overrun."""
    monkeypatch.setattr(tables, "SEEN_FOR", 0.2)  # (how often the held look finds it not due)
    async with _match(monkeypatch, tmp_path) as (server, bot, saved):
        assert bot.matches is not None
        ticks = [bot.matches.ticks()]
        monkeypatch.setattr(bot.matches, "ticks", lambda: ticks[0])
        ada, ben = saved.player_ids
        posted = await server.slash(ada, saved.channel_id, "umtali table")
        assert not posted.ephemeral and posted.response is not None, posted.text()
        first = int(posted.response["id"])
        await until(lambda: _live_table(bot, saved) == first or None, "the table moved")
        # Its post's own sends (the hands, its picture) done before a moderator deletes it: an
        # edit still on its way would find it deleted and post it anew (a table replaced).
        await settled(bot)
        looked = f"/channels/{saved.channel_id}/messages/{first}"

        def looks() -> int:
            return sum(c.method == "GET" and c.path == looked for c in server.calls)

        assert (await server.slash(ben, saved.channel_id, "umtali table")).ephemeral
        del server.messages[first]  # (a moderator)
        server.log[saved.channel_id].remove(first)
        sent = [await server.slash(member, saved.channel_id, "umtali table")
                for member in (ada, ben)]
        for asked in sent:
            assert asked.ephemeral and f"/{first}" in asked.text(), asked.text()
        # Not looked at again while its time is not over, however long that takes for real.
        await asyncio.sleep(3 * tables.SEEN_FOR)
        assert looks() == 1
        ticks[0] += tables.SEEN_FOR
        for asked in sent:
            await until(lambda: "was deleted since" in asked.text() or None,  # noqa: B023
                        "the member told")
        assert looks() == 2


async def test_the_post_held_back_by_still_on_its_way_then_failing_is_said_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(under_way, "OUTCOME_WAIT", 0.2)
    async with _match(monkeypatch, tmp_path) as (server, _, saved):
        ada, ben = saved.player_ids
        going, go = _post_held(monkeypatch)
        first = asyncio.ensure_future(server.slash(ada, saved.channel_id, "umtali table"))
        await asyncio.wait_for(going.wait(), 5)
        asked = await server.slash(ben, saved.channel_id, "umtali table")
        assert asked.ephemeral and "is being posted again right now" in asked.text(), \
            asked.text()
        server.fail("POST", r"^/interactions/.*/callback$", status=403, code=MISSING)
        go.set()
        assert (await first).ephemeral
        await until(lambda: "could not be posted: ask again" in asked.text() or None,
                    "Ben told")
        assert asked.followups[-1]["flags"] & 64
