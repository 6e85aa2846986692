"""Issue 14 over real sockets and a real process: the bot (``main``, a subprocess) is killed with
SIGKILL mid-match while another process (``p2``, here) shares its database. The loopback
Discord serves one gateway connection, so ``p2`` talks to Discord's REST API alone (as a
process whose shards receive none of this match's clicks would)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.umtali.service import MatchService
from data.store import Store
from tests.loopback.driver import (
    YOUR_TURN,
    custom_ids,
    play_out,
    play_until_held,
    query,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_process
from tests.loopback.launch import LEASE_VAR, RENEW_VAR
from tests.loopback.server import LoopbackDiscord
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer

#: The matches' lease, both processes' (bot.py's 15 s, shorter: the takeover waits it out),
#: renewed every third of it (``owners.RENEW_EVERY``, 5 s: a renewal then came under a second
#: before the lease ran out, and a stall that long on a loaded machine gave a live process's
#: match away).
LEASE = 6.0
RENEW = LEASE / 3


@contextlib.asynccontextmanager
async def second_process(db: Path) -> AsyncIterator[MatchService]:
    """``p2``: a match service on its own connection to the database, its timer ticking."""
    client = discord.Client(intents=discord.Intents.none())
    await client.login("loopback-token")
    store = await Store.open(db)
    svc = MatchService(client, store, computer_pause=0, owner="p2")
    await svc.load_active()

    async def tick() -> None:
        while True:
            await svc.check_timers()
            await asyncio.sleep(0.2)

    ticking = asyncio.create_task(tick())
    try:
        yield svc
    finally:
        ticking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticking
        await svc.close()
        await store.close()
        await client.close()


def owner(db: Path, match_id: int) -> str:
    return str(query(db, "SELECT owner FROM matches WHERE id = ?", match_id)[0]["owner"])


async def to_turn_start(svc: MatchService, match_id: int) -> None:
    """The player to act finishes their turn through ``svc``'s process (their clicks reach it,
    say)."""
    while True:
        live = svc.matches[match_id]
        seat = live.session.to_act
        move = GreedyPlayer().choose(live.session.view(seat))
        if move.kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            return
        assert (await svc.act(live, live.player_ids[seat], move)).ok
        await svc.flush()


async def draw_from_dm(server: LoopbackDiscord, db: Path, match_id: int) -> None:
    """The player to act draws with their DM panel's button."""
    saved = read_match(db, match_id)
    assert saved is not None
    seat = saved.session.to_act
    move = GreedyPlayer().choose(saved.session.view(seat))
    assert move.kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO), move
    action = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}
    wanted = f"umtali:m:{match_id}:{saved.version}:{action[move.kind]}"
    user = saved.player_ids[seat]
    panel: dict[str, Any] = await until(
        lambda: next((m for m in reversed(server.dm_messages(user))
                      if wanted in custom_ids(m)), None), "the DM panel of the turn")
    await server.click(user, panel, wanted)
    await until(lambda: (now := read_match(db, match_id)) and now.version > saved.version,
                "the draw saved")


async def test_a_killed_process_is_taken_over_by_another_within_seconds(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(LEASE_VAR, str(LEASE))
    monkeypatch.setenv(RENEW_VAR, str(RENEW))
    monkeypatch.setattr("cogs.umtali.claims.LEASE", LEASE)
    monkeypatch.setattr("cogs.umtali.owners.LEASE", LEASE)
    monkeypatch.setattr("cogs.umtali.owners.RENEW_EVERY", RENEW)
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob), \
            second_process(db) as p2:
        saved = await start_session(server, db, alice, bob)
        await play_out(server, db, saved.id, moves=4)
        assert owner(db, saved.id) == "main" and not p2.matches
        # The bot dies with a turn's announcement on its way (held, never answered).
        held = server.hold("POST", rf"^/channels/{saved.channel_id}/messages$")
        await play_until_held(server, db, saved.id, held, "an announcement on its way")
        bot.kill()
        killed_at = time.monotonic()
        server.release()
        # The other process holds the match within a lease and a tick, and posts what was
        # never posted.
        await until(lambda: owner(db, saved.id) == "p2", "the other process taking over",
                    timeout=LEASE + 10)
        assert time.monotonic() - killed_at < LEASE + 5
        lost = YOUR_TURN.sub("", held.held[0].body["content"]).strip()

        def posted() -> bool:
            return any(lost in YOUR_TURN.sub("", m["content"] or "")
                       for m in server.channel_messages(saved.channel_id))
        await until(posted, "the lost announcement, posted by the other process")
        await until(lambda: query(db, "SELECT unsent FROM matches WHERE id = ?",
                                  saved.id)[0]["unsent"] == "[]", "the announcement cleared")
        assert saved.id in p2.matches
        # The bot comes back; the next click reaches it: it plays the move from the database
        # and holds the match again; the other process lets it go.
        await bot.start()
        await to_turn_start(p2, saved.id)
        await draw_from_dm(server, db, saved.id)
        assert owner(db, saved.id) == "main"
        await until(lambda: saved.id not in p2.matches, "the other process letting go")
        await play_out(server, db, saved.id, moves=6)
        # A player resigns there: the session's result is counted once.
        mid = read_match(db, saved.id)
        assert mid is not None
        quitter = mid.player_ids[mid.session.to_act]
        asked = await server.slash(quitter, mid.channel_id, "umtali resign")
        assert asked.response is not None, asked.text()
        yes = next(c for c in custom_ids(asked.response) if c.endswith(":resign"))
        await server.click(quitter, asked.response, yes)
        final = await until(lambda: (f := read_match(db, saved.id)) and f.status == "finished"
                            and f, "the session's end")
        await until(lambda: table_settled(server, final), "the final table")
    plies = [r["ply"] for r in query(db, "SELECT ply FROM moves WHERE match_id = ? ORDER BY ply",
                                     saved.id)]
    assert plies == list(range(final.version))
    assert [r["match_id"] for r in query(db, "SELECT * FROM session_results")] == [saved.id]
    # The lost announcement was posted once.
    assert sum(lost in YOUR_TURN.sub("", m["content"] or "")
               for m in server.channel_messages(saved.channel_id)) == 1
    log = bot.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
