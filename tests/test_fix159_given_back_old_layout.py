"""fix159: a message an older version posted (its "your turn" line last), given back by
Discord by its nonce right after the upgrade, is read for what it holds, not by laying its
announcements out as this version would: read so, it held none, and every announcement
merged behind it since was taken as posted too, never shown. SimCord, SQLite file, Discord's
nonces enforced; the reading on its own, near Discord's 2,000 characters too."""

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
from umtali.i18n import EN, tr_for

RU = tr_for("ru")


def _old(body: str, turn: str) -> str:
    """An announcement as older versions saved it: its turn line last."""
    return f"{body}\n{turn}"


def _old_merged(texts: list[str]) -> str:
    """What older versions posted for ``texts`` merged: each earlier one's pinging turn line
    dropped, the last one whole (its line last), a line naming its player kept."""
    out = texts[0]
    for text in texts[1:]:
        lines = out.split("\n")
        if lines[-1].startswith("<@") and lines[-1].endswith((", your turn.", ", ваш ход.")):
            lines.pop()
        out = "\n".join([*lines, text])
    return out


def test_an_older_versions_message_is_read_for_what_it_holds() -> None:
    a = _old("ada draws from the stock.\nada discards K♣.", your_turn(EN, ping(2)))
    b = _old("ben takes the K♣.\nben melds [J♣ Q♣ K♣].", your_turn(RU, ping(1)))
    c = your_turn(EN, ping(2)) + "\nada discards 5♥."  # saved by this version
    texts = [a, b, c]
    assert held(texts, _old_merged([a])) == 1
    assert held(texts, _old_merged([a, b])) == 2, _old_merged([a, b])
    # A line naming a player out of reach stayed where it was in an older version's merge.
    named = _old("ben discards 9♣.", your_turn(EN, "ben"))
    assert held([named, a, c], _old_merged([named, a])) == 2
    # This version's own merges still read as many as they hold.
    for count in (1, 2, 3):
        assert held(texts, merged(texts[:count])[0]) == count


def test_near_the_limit_an_older_versions_merge_is_read_for_what_it_holds() -> None:
    """Two announcements filling the 2,000 characters between them, a third behind it."""
    turn, last = your_turn(EN, ping(2)), your_turn(EN, ping(1))
    moves = "\n".join(f"ada melds [{n}♣ {n}♦ {n}♥]." for n in range(2, 10))
    a = _old(moves, turn)
    b = _old("ben discards " + "x" * (2000 - len(moves) - 2 - len(last) - 13), last)
    c = _old("ada draws from the stock.", turn)
    posted = _old_merged([a, b])
    assert len(posted) == 2000, len(posted)
    assert held([a, b, c], posted) == 2
    assert held([a, b, c], " \n" + posted + "\n") == 2  # (Discord trims its blank ends)


def test_a_message_laid_out_otherwise_reads_as_the_most_whose_moves_it_says() -> None:
    a = your_turn(EN, ping(2)) + "\nada discards K♣."
    b = your_turn(EN, ping(1)) + "\nben draws.\nben discards 9♣."
    c = your_turn(EN, ping(2)) + "\nada draws."
    # (some other layout: every turn line kept, a heading)
    odd = "Moves:\nada discards K♣.\n<@2>, your turn.\nben draws.\nben discards 9♣.\n<@1>"
    assert held([a, b, c], odd) == 2
    assert held([a, b, c], "something else") == 0


@pytest.mark.usefixtures("enforced_nonces")
async def test_announcements_merged_behind_an_older_versions_message_are_posted(
        world: World, db_path: Path) -> None:
    live = await start_match(world)
    svc = world.bot.matches
    assert svc is not None
    await flush(world)
    thread = thread_of(world, live)
    before = {m.id for m in thread.history()}
    names, ids = live.names, live.player_ids
    with sqlite3.connect(db_path) as db:
        [(announced, unsent)] = db.execute("SELECT announced, unsent FROM matches WHERE id = ?",
                                           (live.id,)).fetchall()
    assert orjson.loads(unsent) == []
    # The older version posted two turns merged, then stopped before clearing them; a third
    # turn was saved behind them since.
    a = _old(f"{names[0]} draws from the stock.\n{names[0]} discards K♣.",
             your_turn(EN, ping(ids[1])))
    b = _old(f"{names[1]} draws from the stock.\n{names[1]} discards 9♣.",
             your_turn(EN, ping(ids[0])))
    c = your_turn(EN, ping(ids[1])) + f"\n{names[0]} discards 5♥."
    channel = svc.client.get_partial_messageable(live.channel_id)
    await channel.send(_old_merged([a, b]), nonce=match_nonce(live, announced, a))
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE matches SET unsent = ? WHERE id = ?",
                   (orjson.dumps([a, b, c]).decode(), live.id))
    live.unsent[:] = [a, b, c]
    svc.delivery.enqueue(live, Batch(announce=True))
    await flush(world)
    shown = [str(m.content) for m in sorted(thread.history(), key=lambda m: m.id)
             if m.id not in before and m.content]
    # The old message once, as it was, and the third turn after it: none lost, none twice.
    assert shown == [_old_merged([a, b]), c], shown
    with sqlite3.connect(db_path) as db:
        [(now, left)] = db.execute("SELECT announced, unsent FROM matches WHERE id = ?",
                                   (live.id,)).fetchall()
    assert (now, orjson.loads(left)) == (announced + 3, [])
