"""A message given back by its nonce is read for how many announcements it holds. Merged
behind one whose first move ends as a "your turn" line does (a member named "x, your turn"
last in a game's result), an announcement with no turn line of its own (the match over) left
that move line first: read as a turn line, the message held none, and was posted again. Read
as a move line, it holds both: posted once. SimCord, SQLite file, Discord's nonces enforced."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson
import pytest

from cogs.umtali.announcing import held, merged, your_turn
from cogs.umtali.mentions import ping
from cogs.umtali.nonces import match_nonce
from cogs.umtali.outbox import Batch
from tests.discord_helpers import World, flush, start_match, thread_of
from tests.test_lang_announce_once import enforced_nonces  # noqa: F401 (a fixture)
from umtali.i18n import EN

HOSTILE = "x, your turn"


def _texts(first: str, ping_id: int) -> list[str]:
    a = your_turn(EN, ping(ping_id)) + (
        f"\nGame 1 to {first}, 100-40. Games: {first} 1 – 0 {HOSTILE}.\n{first} deals.")
    b = f"{first} goes out.\nMatch over: {first} wins 2-0."  # no turn line: nobody's turn
    c = f"Session over: {first} wins 1-0."  # saved behind them since
    return [a, b, c]


def test_a_move_line_that_ends_as_a_turn_line_does_is_read_as_a_move() -> None:
    texts = _texts("ada", 2)
    for count in (1, 2, 3):
        content, merging = merged(texts[:count])
        assert merging == count and content.split("\n")[0].endswith(", your turn.")
        assert held(texts, content) == count
    # A message holding the first one alone, its turn line first, still reads as one.
    assert held([*texts, your_turn(EN, ping(1))], texts[0]) == 1


@pytest.mark.usefixtures("enforced_nonces")
async def test_a_merged_message_given_back_with_a_hostile_name_is_not_posted_twice(
        world: World, db_path: Path) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    await flush(world)
    thread = thread_of(world, live)
    before = {m.id for m in thread.history()}
    with sqlite3.connect(db_path) as db:
        [(announced, unsent)] = db.execute("SELECT announced, unsent FROM matches WHERE id = ?",
                                           (live.id,)).fetchall()
    assert orjson.loads(unsent) == []
    texts = _texts(live.names[0], live.player_ids[1])
    content, _ = merged(texts[:2])
    # The first two posted, then the process stopped before clearing them; the third saved
    # since: sent again, Discord gives the message back by its nonce.
    channel = svc.client.get_partial_messageable(live.channel_id)
    await channel.send(content, nonce=match_nonce(live, announced, texts[0]))
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE matches SET unsent = ? WHERE id = ?",
                   (orjson.dumps(texts).decode(), live.id))
    live.unsent[:] = texts
    svc.delivery.enqueue(live, Batch(announce=True))
    await flush(world)
    shown = [str(m.content) for m in sorted(thread.history(), key=lambda m: m.id)
             if m.id not in before and m.content]
    assert shown == [content, texts[2]], shown
    with sqlite3.connect(db_path) as db:
        [(now, left)] = db.execute("SELECT announced, unsent FROM matches WHERE id = ?",
                                   (live.id,)).fetchall()
    assert (now, orjson.loads(left)) == (announced + 3, [])
