"""Issue 14's proof: two bot processes (subprocesses), one PostgreSQL database, the sharded
loopback Discord.

Process ``a`` runs shard 0 of 2, process ``b`` shard 1. The sessions are played in a guild on
shard 1: its commands and the table reach ``b``, while every click in a DM reaches ``a`` (DMs go
to shard 0), so a match moves between the processes all the time. A first session is played
to its end that way; in a second, the process holding the match is SIGKILLed with a turn's
announcement on its way, and the session is finished through the other one, which takes over
the match's timer and posts what was never posted. Results, ratings and announcements count
once; no public message names a card in a hand.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from data.records import GLOBAL
from data.store import Store
from tests.loopback.driver import YOUR_TURN, custom_ids
from tests.loopback.driver import accept as accept_it
from tests.loopback.gateway import shard_of
from tests.loopback.harness import BotProcess, loopback_server
from tests.loopback.launch import LEASE_VAR, RENEW_VAR
from tests.loopback.secrecy import Secrecy, in_hands
from tests.loopback.server import LoopbackDiscord, Member
from umtali.codec import session_from_json
from umtali.moves import Move, MoveKind
from umtali.players import GreedyPlayer
from umtali.session import Session

pytestmark = pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgresql)])

#: The matches' lease in both processes (bot.py's 15 s, shorter: the takeover waits it out),
#: renewed every third of it (``owners.RENEW_EVERY``'s 5 s came under a second before the
#: lease ran out: a stall that long on a loaded machine gave a live process's match away).
LEASE = 6.0
RENEW = LEASE / 3
DRAWS = {MoveKind.DRAW: "draw", MoveKind.TAKE: "take", MoveKind.TAKE_TWO: "take2"}


async def until(check: Callable[[], Awaitable[Any]], what: str, timeout: float = 20.0) -> Any:
    """Poll the (async) ``check`` until it gives something true."""
    deadline = time.monotonic() + timeout
    while not (found := await check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return found


class Table(Secrecy):
    """The test's view of the shared database and of what was said in public."""

    def __init__(self, server: LoopbackDiscord, store: Store) -> None:
        super().__init__(server)
        self.store = store

    async def session(self, match_id: int) -> tuple[Any, Session]:
        row = await self.store.match(match_id)
        assert row is not None
        return row, session_from_json(json.loads(row.state))

    async def owner(self, match_id: int) -> str:
        found = await self.store.db.fetchone("SELECT owner FROM matches WHERE id = ?",
                                             (match_id,))
        assert found is not None
        return str(found["owner"])


async def challenge(table: Table, channel_id: int, challenger: int, opponent: int,
                    **options: Any) -> int:
    """``/umtali challenge`` and Accept in the guild on shard 1: the new match, its table up."""
    server = table.server
    answer = await server.slash(challenger, channel_id, "umtali challenge",
                                {"opponent": Member(opponent), **options})
    assert answer.callback_type == 4 and not answer.ephemeral, answer.text()
    assert answer.response is not None
    clicked = await accept_it(server, opponent, answer.response)
    assert clicked.callback_type == 7, clicked.text()

    async def opened() -> int | None:
        found = await table.store.db.fetchone(
            "SELECT id, table_message_id, channel_id FROM matches WHERE player0_id IN (?, ?) "
            "AND status = 'active'", (challenger, opponent))
        if found is None or not found["table_message_id"]:
            return None
        table.public.add(int(found["channel_id"]))
        return int(found["id"])
    match_id: int = await until(opened, "the table of the new match")
    table.skip_scan()  # the draw for first dealer names cards before any is dealt
    return match_id


async def dm_panel(server: LoopbackDiscord, user: int, wanted: str) -> dict[str, Any]:
    async def found() -> dict[str, Any] | None:
        return next((m for m in reversed(server.dm_messages(user)) if wanted in custom_ids(m)),
                    None)
    panel: dict[str, Any] = await until(found, f"a DM panel with {wanted}")
    return panel


async def move(table: Table, match_id: int, turn: int, *, dms: bool = True) -> Move:
    """The player to act makes the greedy move: a draw and (on even turns) a discard from
    their DM panel (process ``a``), the rest typed with ``/umtali play`` in the match's thread
    (process ``b``). Returns when it is saved; scans what was said in public."""
    server = table.server
    row, session = await table.session(match_id)
    seat = session.to_act
    user = row.player_ids[seat]
    chosen = GreedyPlayer().choose(session.view(seat))
    before = in_hands(session)
    table.show(session)
    prefix = f"umtali:m:{match_id}:{row.version}"
    if dms and chosen.kind in DRAWS:
        wanted = f"{prefix}:{DRAWS[chosen.kind]}"
        clicked = await server.click(user, await dm_panel(server, user, wanted), wanted)
        assert clicked.callback_type == 7, clicked.text()
    elif dms and chosen.kind is MoveKind.DISCARD and turn % 2 == 0:
        wanted = f"{prefix}:discard"
        clicked = await server.click(user, await dm_panel(server, user, wanted), wanted,
                                     values=[str(chosen)])
        assert clicked.callback_type == 7, clicked.text()
    else:
        typed = await server.slash(user, row.channel_id, "umtali play", {"move": str(chosen)})
        assert typed.ephemeral, typed.text()
    after, now = await table.session(match_id)
    assert after.version == row.version + 1, (chosen, after.version, row.version)
    if (now.game, now.hand_no) != (session.game, session.hand_no) or after.status != "active":
        # A hand's end shows its hands; the next deal is new: judge none of it.
        await settle(table, match_id)
        table.skip_scan()
    else:
        if chosen.kind is MoveKind.DISCARD:
            await settle(table, match_id)
        table.scan(before & in_hands(now) - table.show(now))
    return chosen


async def settle(table: Table, match_id: int) -> None:
    """The turn's announcement is posted."""
    async def posted() -> bool:
        found = await table.store.db.fetchone("SELECT unsent FROM matches WHERE id = ?",
                                              (match_id,))
        return found is not None and found["unsent"] == "[]"
    await until(posted, "the turn's announcement posted")


def announcements(server: LoopbackDiscord, channel_id: int) -> Counter[str]:
    """Each text posted in the match's thread (its table aside), how many times."""
    return Counter(YOUR_TURN.sub("", m["content"] or "").strip()
                   for m in server.channel_messages(channel_id) if m["content"])


def posted(server: LoopbackDiscord, channel_id: int) -> list[str]:
    """The nonces of the announcements posted (answered 200) in the match's thread."""
    return [str(c.body["nonce"]) for c in server.calls
            if c.method == "POST" and c.path == f"/channels/{channel_id}/messages"
            and c.status == 200 and isinstance(c.body, dict) and c.body.get("nonce")]


@pytest.fixture
async def shared(store_target: str) -> AsyncIterator[Store]:
    store = await Store.open(store_target)
    yield store
    await store.close()


async def test_two_processes_play_sessions_and_one_is_killed_mid_match(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, store_target: str,
        shared: Store) -> None:
    async with loopback_server(monkeypatch) as server:
        if shard_of(server.guild_id, 2) == 1:
            channel = server.channel_id
        else:
            _, channel = server.add_guild("Chess Club", shard=(1, 2))
        members = [server.add_member(n) for n in ("ada", "ben", "cy", "dee")]
        bots = {}
        for shard, name in ((0, "a"), (1, "b")):
            (tmp_path / name).mkdir()
            bots[name] = BotProcess(server, tmp_path / name / "unused.sqlite3", tmp_path / name,
                                    env={"UMTALI_DATABASE_URL": store_target,
                                         "UMTALI_SHARD_COUNT": "2",
                                         "UMTALI_SHARD_IDS": str(shard),
                                         "UMTALI_PROCESS": name,
                                         LEASE_VAR: str(LEASE), RENEW_VAR: str(RENEW)})
        table = Table(server, shared)
        try:
            for bot in bots.values():
                await bot.start()
            assert server.gateway.identified == [[0, 2], [1, 2]]
            started = time.monotonic()

            # -- a whole session, its clicks and commands reaching both processes ------------
            first = await challenge(table, channel, members[0], members[1])
            assert await table.owner(first) == "b"
            holders = set()
            turn = 0
            while (await table.session(first))[0].status == "active":
                made = await move(table, first, turn)
                turn += made.kind is MoveKind.DISCARD
                holders.add(await table.owner(first))
            assert holders == {"a", "b"}, "the match moved between the processes"
            done, _ = await table.session(first)
            assert done.status == "finished"
            first_thread = done.channel_id
            first_took = time.monotonic() - started

            # -- a second session; its holder is killed with an announcement on its way -----
            second = await challenge(table, channel, members[2], members[3], turn_timer=5)
            # Play to the next discard made from a DM panel: process ``a`` saves it, and dies
            # before its announcement is answered.
            turn = 0
            while True:
                row, session = await table.session(second)
                chosen = GreedyPlayer().choose(session.view(session.to_act))
                if chosen.kind is MoveKind.DISCARD and len(session.hand.stock) > 8:
                    break
                made = await move(table, second, turn)
                turn += made.kind is MoveKind.DISCARD
            held = server.hold("POST", rf"^/channels/{row.channel_id}/messages$")
            seat = session.to_act
            user = row.player_ids[seat]
            wanted = f"umtali:m:{second}:{row.version}:discard"
            await server.click(user, await dm_panel(server, user, wanted), wanted,
                               values=[str(chosen)])

            async def on_its_way() -> bool:
                return bool(held.held)
            await until(on_its_way, "the announcement on its way")
            assert await table.owner(second) == "a"
            killed_row, _ = await table.session(second)
            assert json.loads(killed_row.unsent), "saved, never posted"
            bots["a"].kill()
            killed_at = time.monotonic()
            server.release()
            lost = YOUR_TURN.sub("", held.held[0].body["content"]).strip()

            # Within a lease and a tick, ``b`` holds it: the timer given back the time lost,
            # the lost announcement posted.
            async def taken() -> bool:
                return await table.owner(second) == "b"
            await until(taken, "the other process taking over", timeout=LEASE + 10)
            took_over = time.monotonic() - killed_at
            assert took_over < LEASE + 5
            await settle(table, second)
            taken_row, _ = await table.session(second)
            assert killed_row.deadline is not None and taken_row.deadline is not None
            assert taken_row.deadline >= killed_row.deadline + LEASE - 1
            assert announcements(server, row.channel_id)[lost] == 1
            # The session is finished through ``b`` alone (DMs reach the dead ``a``): typed.
            table.skip_scan()
            while (await table.session(second))[0].status == "active":
                await move(table, second, 0, dms=False)
            assert await table.owner(second) == "b"
            second_row, _ = await table.session(second)
            assert second_row.status == "finished"
        finally:
            for bot in bots.values():
                await bot.stop()

    # Exactly once: each result, each rating, each announcement.
    results = await shared.db.fetchall("SELECT match_id FROM session_results ORDER BY match_id")
    assert [r["match_id"] for r in results] == [first, second]
    for member in members:
        record = await shared.records.record(GLOBAL, member)
        assert record.rated.sessions == 1, member
    for match_id, thread in ((first, first_thread), (second, second_row.channel_id)):
        plies = [r["ply"] for r in await shared.db.fetchall(
            "SELECT ply FROM moves WHERE match_id = ? ORDER BY ply", (match_id,))]
        assert plies == list(range(len(plies)))
        # Each message carries its nonce (an announcement's is the same whichever process
        # posts it): none posted twice; and no announcement posted again merged into the next
        # (what two processes posting the same unsent turns at once would do).
        texts = [YOUR_TURN.sub("", str(c.body.get("content"))).strip() for c in server.calls
                 if c.method == "POST" and c.path == f"/channels/{thread}/messages"
                 and c.status == 200 and isinstance(c.body, dict)]
        nonces = posted(server, thread)
        assert len(nonces) == len(texts) > 20 and max(Counter(nonces).values()) == 1
        again = [(a, b) for a, b in itertools.pairwise(texts) if a and b.startswith(a)]
        assert not again, again
    assert table.scans > 100
    for name, bot in bots.items():
        log = bot.log.read_text(errors="replace")
        assert "Traceback" not in log, (name, log[-3000:])
    print(f"first session {first_took:.1f}s; taken over {took_over:.1f}s after the kill")
