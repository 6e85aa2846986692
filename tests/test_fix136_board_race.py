"""fix136: a board or stats asked while another member's public post of one is still on its
way in the same channel. Told at once "posted less than a minute ago", the second member was
sent away with a falsehood whenever that first post then failed (the bot refused in the
channel): nothing was posted. Now they wait for its outcome: failed, theirs is posted; posted,
theirs comes privately, truly so. The loopback Discord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali import under_way
from data.record_reads import Records
from tests.loopback.driver import until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.records import Interaction
from tests.loopback.server import LoopbackDiscord
from tests.test_in_time import settled

#: The bot refused in the channel meanwhile (the brief's "missing permission").
MISSING = 50013


def _board_read_held(bot: UmtaliBot, monkeypatch: pytest.MonkeyPatch) -> tuple[asyncio.Event,
                                                                              asyncio.Event]:
    """The first leaderboard's read waits for the second event once it began (the first
    event): its post is under way meanwhile (the channel's minute taken for it)."""
    real = Records.leaderboard
    reading, go = asyncio.Event(), asyncio.Event()

    async def leaderboard(self: Records, *args: Any, **kwargs: Any) -> Any:
        reading.set()
        await go.wait()
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Records, "leaderboard", leaderboard)
    return reading, go


async def _race(server: LoopbackDiscord, bot: UmtaliBot, monkeypatch: pytest.MonkeyPatch,
                fails: bool) -> tuple[Interaction, Interaction]:
    """Cy's leaderboard under way as Ben asks for his stats in the channel; then it is
    posted, or (``fails``) Discord refuses it."""
    cy, ben = server.add_member("cy"), server.add_member("ben")
    reading, go = _board_read_held(bot, monkeypatch)
    first = asyncio.ensure_future(server.slash(cy, server.channel_id, "umtali leaderboard"))
    await asyncio.wait_for(reading.wait(), 5)
    second = asyncio.ensure_future(server.slash(ben, server.channel_id, "umtali stats"))
    await asyncio.wait({second}, timeout=0.3)
    if fails:
        server.fail("POST", r"^/interactions/.*/callback$", status=403, code=MISSING)
    go.set()
    return await first, await second


async def test_the_first_post_failing_the_one_held_back_posts_theirs(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        board, stats = await _race(server, bot, monkeypatch, fails=True)
        assert board.ephemeral and "permission" in board.text(), board.text()
        # Not told a board was posted (none was): his stats are the channel's.
        assert not stats.ephemeral, stats.text()
        assert "Umtali · ben" in stats.text() and "less than a minute" not in stats.text()
        # Within the minute of that post, the next one is held back by it.
        again = await server.slash(server.add_member("ada"), server.channel_id,
                                   "umtali leaderboard")
        assert again.ephemeral and "less than a minute ago" in again.text(), again.text()


async def test_the_first_post_made_the_one_held_back_is_told_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        board, stats = await _race(server, bot, monkeypatch, fails=False)
        assert not board.ephemeral and "Umtali leaderboard" in board.text()
        assert stats.ephemeral and "Umtali · ben" in stats.text()
        assert "less than a minute ago" in stats.text()
        assert not server.errors


async def test_the_first_post_still_on_its_way_the_one_held_back_is_told_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Discord slow: past the wait, the truth as it stands, not "posted"."""
    monkeypatch.setattr(under_way, "OUTCOME_WAIT", 0.2)
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        cy, ben = server.add_member("cy"), server.add_member("ben")
        reading, go = _board_read_held(bot, monkeypatch)
        first = asyncio.ensure_future(server.slash(cy, server.channel_id, "umtali leaderboard"))
        await asyncio.wait_for(reading.wait(), 5)
        stats = await server.slash(ben, server.channel_id, "umtali stats")
        assert stats.ephemeral and "Umtali · ben" in stats.text()
        assert "are being posted in this channel right now" in stats.text(), stats.text()
        go.set()
        assert not (await first).ephemeral
        await settled(bot)
        assert "could not be posted" not in stats.text()
        assert not server.errors


async def test_the_first_post_on_its_way_then_failing_the_one_held_back_is_told(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(under_way, "OUTCOME_WAIT", 0.2)
    async with loopback_server(monkeypatch) as server, \
            bot_in_process(server, tmp_path / "umtali.sqlite3") as bot:
        cy, ben = server.add_member("cy"), server.add_member("ben")
        reading, go = _board_read_held(bot, monkeypatch)
        first = asyncio.ensure_future(server.slash(cy, server.channel_id, "umtali leaderboard"))
        await asyncio.wait_for(reading.wait(), 5)
        stats = await server.slash(ben, server.channel_id, "umtali stats")
        assert "are being posted in this channel right now" in stats.text(), stats.text()
        server.fail("POST", r"^/interactions/.*/callback$", status=403, code=MISSING)
        go.set()
        assert (await first).ephemeral
        await until(lambda: "could not be posted: ask again to post yours" in stats.text()
                    or None, "Ben told")
        assert stats.followups[-1]["flags"] & 64
