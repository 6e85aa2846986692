"""The soak's database faults (tests/loopback/soak_faults.py): the database the bot saves to
busy for a few seconds (another writer holding the SQLite file's write lock, or the matches'
table locked on PostgreSQL: a backup, a long report, a migration), past the bot's busy
timeout now and then; and on PostgreSQL its connections cut (the server restarted, a
network cut), the pool's alone or every one of the bot's. Saves wait, and those past the
timeout fail: nothing may be half saved, memory may not run ahead of the database, and a
member is told to look again, never that the bot has a bug."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import asyncpg

from cogs.umtali.errors import APOLOGY, BUSY, NOT_ANSWERED
from data.db import BUSY_TIMEOUT
from tests.loopback.driver import SavedMatch, read_match, until
from tests.loopback.records import Interaction
from tests.loopback.saved_db import Target
from umtali.moves import Move

if TYPE_CHECKING:
    from tests.loopback.soak_faults import SoakState


@asynccontextmanager
async def busy(db: Target, seconds: float) -> AsyncIterator[None]:
    """The database held busy for ``seconds`` from now; the block's end waits for it to be
    let go."""
    if isinstance(db, Path):
        # On a thread: BEGIN IMMEDIATE waits for a write of the bot's under way, and the
        # loopback Discord shares this event loop.
        other = await asyncio.to_thread(_write_lock, db)
        try:
            async with _for(seconds):
                yield
        finally:
            await asyncio.to_thread(_let_go, other)
        return
    conn = await asyncpg.connect(db)
    try:
        async with conn.transaction():
            # Reads (ACCESS SHARE) go on; every save of a match waits, then fails at the
            # bot's lock timeout.
            await conn.execute("LOCK TABLE matches IN EXCLUSIVE MODE")
            async with _for(seconds):
                yield
    finally:
        await conn.close()


async def cut(db: str, rng: random.Random) -> str:
    """The bot's connections to PostgreSQL ended by the server: the pools' (a network cut),
    or every one of them, those holding the processes' names too (a restart): which."""
    every = rng.random() < 0.3
    conn = await asyncpg.connect(db)
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND "
            + ("application_name LIKE 'umtali%'" if every else "application_name = 'umtali'"))
    finally:
        await conn.close()
    return "every connection" if every else "the pools' connections"


@asynccontextmanager
async def _for(seconds: float) -> AsyncIterator[None]:
    """The block's end waits until ``seconds`` from its start have passed."""
    release = asyncio.create_task(asyncio.sleep(seconds))
    try:
        yield
    finally:
        await release


def _write_lock(db: Path) -> sqlite3.Connection:
    other = sqlite3.connect(db, isolation_level=None, timeout=10, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    return other


def _let_go(other: sqlite3.Connection) -> None:
    other.execute("ROLLBACK")
    other.close()


async def play_again(db: Target, match_id: int, done: int,
                     answer: Interaction | None) -> bool:
    """Whether a member told the database failed (``told``) should play their move again:
    it was not saved, a few seconds on (a save in doubt may land late)."""
    if answer is None:
        return False

    def saved() -> bool:
        now = read_match(db, match_id)
        return now is not None and (len(now.session.moves) > done or now.status != "active")
    # Saved at once as a rule; else the words of a deferred answer come in an edit of it.
    with contextlib.suppress(AssertionError):
        await until(lambda: saved() or told(said(answer)), "the move saved or the member told",
                    timeout=5)
    if saved() or not told(said(answer)):
        return False
    with contextlib.suppress(AssertionError):
        await until(saved, "the move saved after all", timeout=5)
    return not saved()


def said(answer: Interaction) -> str:
    """Everything the bot answered, an edit of a deferred answer included."""
    return answer.text() + json.dumps(answer.messages, ensure_ascii=False)


def told(text: str) -> bool:
    """Whether the member was told the database failed (in doubt, or busy)."""
    return NOT_ANSWERED[:40] in text or BUSY[:40] in text


async def fault(state: SoakState, note: Callable[[str], None], saved: SavedMatch,
                mover: tuple[int, Move]) -> bool:
    """The database busy a few seconds, or on PostgreSQL its connections cut, with the
    member to act playing meanwhile now and then: a move answered as made is saved, one told
    to look again may be either, and nobody is told the bot has a bug. True if the move was
    made."""
    rng = state.rng
    user, chosen = mover
    moving = user != state.server.app_id and rng.random() < 0.6
    done = len(saved.session.moves)
    pending: asyncio.Task[Interaction | None] | None = None

    def move() -> asyncio.Task[Interaction | None]:
        return asyncio.create_task(state.answered(state.server.slash(
            user, saved.channel_id, "umtali play", {"move": str(chosen)}, timeout=30),
            f"/umtali play {chosen}, the database failing"))
    if isinstance(state.db, str) and rng.random() < 0.35:
        what = await cut(state.db, rng)
        note(f"database: {what} cut")
        if moving:
            pending = move()
    else:
        # The bot's timeout is BUSY_TIMEOUT times the soak's pace (``Soak``), as these waits.
        seconds = rng.uniform(0.5, 2 * BUSY_TIMEOUT)
        note(f"database busy {'past' if seconds > BUSY_TIMEOUT else 'within'} its timeout")
        async with busy(state.db, seconds * state.pace):
            if moving:
                await asyncio.sleep(rng.uniform(0, 1) * state.pace)
                pending = move()
    if pending is None:
        return False
    answer = await pending
    if answer is None:
        return False  # (noted as broken)

    def made() -> bool:
        now = read_match(state.db, saved.id)
        return now is not None and (now.session.moves[done:done + 1] == [chosen]
                                    or now.status != "active")
    with contextlib.suppress(AssertionError):
        await until(lambda: made() or told(said(answer)),
                    "the move made or the member told", timeout=30)
    text = said(answer)
    saved_it = made()
    note("a move, the database failing: " + ("made" if saved_it else "told to look again"
                                              if told(text) else "neither"))
    if APOLOGY[:40] in text:
        state.broken.append(f"{chosen}, the database failing, was answered as a bug: "
                            f"{text[:300]}")
    elif not answer.ephemeral:
        state.broken.append(f"{chosen}, the database failing, was answered in public")
    elif not saved_it and not told(text):
        state.broken.append(f"{chosen}, the database failing: not made, and answered "
                            f"{text[:300]}")
    return saved_it
