"""Members playing a session through the loopback server, as they would in Discord.

Moves are chosen from the match state the bot saved in its database (every move is saved
before the bot answers), so the same driver works for a bot in this process or in another.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.loopback.records import Fault
from tests.loopback.saved_db import TIMEOUT, Target, exists
from tests.loopback.saved_db import query as query  # (read here by the tests)
from tests.loopback.server import Interaction, LoopbackDiscord, Member
from umtali.codec import session_from_json
from umtali.players import GreedyPlayer
from umtali.session import Session

#: The line that opens a message when a member is to play next (ended it before fix157); strip
#: it to compare the rest of an announcement (it is added to whichever message goes out last).
YOUR_TURN = re.compile(r"^<@[0-9]+>, your turn\.\n?|\n?<@[0-9]+>, your turn\.")


@dataclass
class SavedMatch:
    id: int
    channel_id: int
    table_message_id: int | None
    player_ids: tuple[int, int]
    status: str
    version: int
    session: Session
    #: The database it was read from (``table_settled`` reads what is still to announce).
    db: Target | None = None


def read_match(db: Target, match_id: int | None = None) -> SavedMatch | None:
    """The match as saved (the newest one when ``match_id`` is None)."""
    sql = "SELECT * FROM matches " + (
        "WHERE id = ?" if match_id is not None else "ORDER BY id DESC LIMIT 1")
    rows = query(db, sql, *(() if match_id is None else (match_id,)))
    if not rows:
        return None
    row = rows[0]
    return SavedMatch(row["id"], row["channel_id"], row["table_message_id"],
                      (row["player0_id"], row["player1_id"]), row["status"], row["version"],
                      session_from_json(json.loads(row["state"])), db)


async def write(db: Path, sql: str, *args: Any) -> None:
    """One change made to the SQLite file by another hand, off the event loop: the bot in this
    process may be inside a transaction that needs the loop to commit, and a write waiting on
    the loop's own thread would wait it out ("database is locked")."""
    def change() -> None:
        with closing(sqlite3.connect(db, timeout=TIMEOUT)) as c, c:
            c.execute(sql, args)
    await asyncio.to_thread(change)


async def until(check: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Poll ``check`` until it gives something true (generous timeout, no timing asserted)."""
    async def poll() -> Any:
        while not (found := check()):
            await asyncio.sleep(0.01)
        return found
    try:
        return await asyncio.wait_for(poll(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def until_steady(check: Callable[[], Any], what: str, timeout: float = 20.0,
                       steady: float = 1.0) -> None:
    """Poll ``check`` until it holds ``steady`` seconds in a row: a send held back and let go
    may show an older version a moment after (corrected as overtaken)."""
    loop = asyncio.get_running_loop()

    async def poll() -> None:
        since = None
        while True:
            if not check():
                since = None
            elif since is None:
                since = loop.time()
            elif loop.time() - since >= steady:
                return
            await asyncio.sleep(0.01)
    try:
        await asyncio.wait_for(poll(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def custom_ids(message: dict[str, Any] | None) -> list[str]:
    return [c["custom_id"] for row in (message or {}).get("components", [])
            for c in row.get("components", []) if "custom_id" in c]


async def end_match_as(server: LoopbackDiscord, admin: int,
                       options: dict[str, Any]) -> Interaction:
    """``/umtali-admin end-match`` by ``admin`` in the first guild's channel and, when it asks
    first (fix154), its **End it** clicked: the click's answer (the question replaced by what
    became of the match); the command's own where it answered at once."""
    asked = await server.slash(admin, server.channel_id, "umtali-admin end-match", options)
    end = [c for c in custom_ids(asked.response) if c.startswith("umtali:end:")
           and c.endswith(":end")]
    if not end or asked.response is None:
        return asked
    return await server.click(admin, asked.response, end[0])


async def start_practice(server: LoopbackDiscord, db_path: Target, member: int,
                         level: str = "easy") -> SavedMatch:
    """``/umtali practice`` at ``level``, the deck cut, and the table posted: the saved match."""
    offer = await server.slash(member, server.channel_id, "umtali practice", {"level": level})
    assert offer.response is not None, offer.text()
    await cut_deck(server, member, offer.response)
    found: SavedMatch = await until(
        lambda: (m := read_match(db_path)) and m.table_message_id and m, "the table")
    return found


async def start_session(server: LoopbackDiscord, db_path: Target, challenger: int,
                        opponent: int, *, channel_id: int | None = None,
                        **options: Any) -> SavedMatch:
    """``/umtali challenge`` (in the first guild's channel unless given), Accept, and the table
    posted: the saved match."""
    before = read_match(db_path) if exists(db_path) else None
    answer = await server.slash(challenger, channel_id or server.channel_id, "umtali challenge",
                                {"opponent": Member(opponent), **options})
    assert answer.callback_type == 4 and not answer.ephemeral, answer.text()
    assert answer.response is not None
    clicked = await accept(server, opponent, answer.response)
    assert clicked.callback_type == 7, clicked.text()

    def opened() -> SavedMatch | None:
        saved = read_match(db_path)
        fresh = saved is not None and (before is None or saved.id != before.id)
        return saved if fresh and saved is not None and saved.table_message_id else None
    found: SavedMatch = await until(opened, "the table of the new match")
    return found


async def accept(server: LoopbackDiscord, member: int, challenge: dict[str, Any],
                 typed: str = "", timeout: float = 20.0) -> Interaction:
    """``member``'s click on the ``challenge`` message's Accept and, if it opened the cut's
    modal, its submit with ``typed`` (none: the submit's id is the cut): the submit (the click,
    if it opened no modal)."""
    button = next(c for c in custom_ids(challenge) if c.endswith(":accept"))
    return await submit_cut(server, member, await server.click(member, challenge, button,
                                                               timeout=timeout), typed, timeout)


async def cut_deck(server: LoopbackDiscord, member: int, practice: dict[str, Any],
                   typed: str = "", timeout: float = 20.0) -> Interaction:
    """``member``'s click on a practice message's Cut the deck, and the modal's submit."""
    button = next(c for c in custom_ids(practice)
                  if c.startswith("umtali:cut:") and not c.endswith(":cancel"))
    return await submit_cut(server, member, await server.click(member, practice, button,
                                                               timeout=timeout), typed, timeout)


async def submit_cut(server: LoopbackDiscord, member: int, clicked: Interaction,
                     typed: str = "", timeout: float = 20.0) -> Interaction:
    """The cut's modal ``clicked`` opened, submitted with ``typed``; ``clicked`` if none."""
    if clicked.callback_type != 9:
        return clicked
    return await server.submit(member, clicked, {"cut": typed}, timeout=timeout)


async def play_move(server: LoopbackDiscord, db_path: Target, match_id: int) -> Interaction:
    """The seat to act plays the greedy move with ``/umtali play`` in the match's channel."""
    saved = read_match(db_path, match_id)
    assert saved is not None and saved.status == "active"
    seat = saved.session.to_act
    move = GreedyPlayer().choose(saved.session.view(seat))
    answer = await server.slash(saved.player_ids[seat], saved.channel_id, "umtali play",
                                {"move": str(move)})
    after = read_match(db_path, match_id)
    # Played: the next move saved is this one (a computer may have answered it already).
    done = len(saved.session.moves)
    assert after is not None and after.version > saved.version, (move, answer.text())
    assert after.session.moves[done:done + 1] == [move], (move, answer.text())
    # The player sees their hand privately; nothing about it is public.
    assert answer.ephemeral, answer.text()
    return answer


async def play_out(server: LoopbackDiscord, db_path: Target, match_id: int,
                   moves: int | None = None,
                   before_move: Callable[[int], Any] | None = None) -> int:
    """Play until the session ends (or ``moves`` were made); the number of moves made."""
    made = 0
    while moves is None or made < moves:
        saved = read_match(db_path, match_id)
        assert saved is not None
        if saved.status != "active":
            break
        if before_move is not None:
            await before_move(made)
        await play_move(server, db_path, match_id)
        made += 1
        assert made < 5000, "the session does not end"
    return made


async def play_until_held(server: LoopbackDiscord, db_path: Target, match_id: int, held: Fault,
                          what: str) -> None:
    """Play a move at a time until the call ``held`` holds (``LoopbackDiscord.hold``) is made:
    the one the test waits on, which a move brings sooner or later."""
    for _ in range(40):
        if held.held:
            break
        await play_out(server, db_path, match_id, moves=1)
    await until(lambda: bool(held.held), what)


def table_settled(server: LoopbackDiscord, saved: SavedMatch) -> bool:
    """The finished table shows the result and no button (its last edit arrived), and the
    match's announcements are posted (they go after the table and the hands)."""
    assert saved.table_message_id is not None
    table = server.messages.get(saved.table_message_id)
    # (its one button left is the final card's replay file: no "My hand" any more)
    if table is None or any(":hand" in c for c in custom_ids(table)) or \
            "wins" not in json.dumps(table["embeds"], ensure_ascii=False):
        return False
    if saved.db is None:
        return True
    unsent = query(saved.db, "SELECT unsent FROM matches WHERE id = ?", saved.id)
    return bool(unsent) and unsent[0]["unsent"] == "[]"
