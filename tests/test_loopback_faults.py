"""Faults on the wire: 429s with Retry-After, a dropped gateway, a refused DM.

The same session (same seed, same moves) is played twice on one bot: once on a clean line, once
with faults. Everything public must come out the same, once each, plus one notice about the
closed DMs.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from cogs.umtali.service import MatchService
from tests.loopback.driver import (
    YOUR_TURN,
    play_out,
    query,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord

NOTICE = "can't send you direct messages"
#: Each session's salt and commitment are its own, even on the same seed (and the short form of
#: the commitment a sentence names it by, "beginning 1795d1c2").
SECRET = re.compile(r"\b[0-9a-f]{32}\b|\b[0-9a-f]{64}\b|(?<=beginning )[0-9a-f]{8}\b")
#: A link to a message (the final card's, at a session's end): each match has its own.
LINK = re.compile(r"https://discord\.com/channels/[0-9]+/[0-9]+/[0-9]+")


def public_texts(server: LoopbackDiscord, channel_id: int) -> list[str]:
    """What a reader of the match's thread sees, in order, without the DM notice: each line of
    text, and each embed."""
    out: list[str] = []
    for m in server.channel_messages(channel_id):
        if NOTICE in m["content"]:
            continue
        # When sends queue up behind a rate limit, the bot folds the turns waiting into one
        # message and mentions only the player whose turn it is when it goes out: "your turn"
        # lines and where messages break may differ, nothing else.
        content = LINK.sub("<link>", SECRET.sub("<hex>", YOUR_TURN.sub("", m["content"])))
        out.extend(line for line in content.split("\n") if line)
        # The table's embed carries the match number; the rest must be identical.
        # (and the final card's ratings, which the first session moved before the second)
        out.extend(SECRET.sub("<hex>", json.dumps(
            {k: [f for f in v if f["name"] != "Ratings"] if k == "fields" else v
             for k, v in e.items() if k != "footer"}, ensure_ascii=False, sort_keys=True))
            for e in m["embeds"])
    return out


async def test_a_session_survives_429s_a_dropped_gateway_and_a_refused_dm(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(MatchService, "new_seed", lambda self: 4242)
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")

        clean = await start_session(server, db, alice, bob)
        clean_moves = await play_out(server, db, clean.id)
        done = read_match(db, clean.id)
        assert done is not None
        await until(lambda: table_settled(server, done), "the first session's final table")

        server.refuse_dms(bob)
        # A session played at test speed is shorter than the cooldown between challenges.
        assert bot.matches is not None
        bot.matches.clock = lambda: time.time() + 60
        faulty = await start_session(server, db, alice, bob)
        calls_before = len(server.calls)
        faults: list[Any] = []

        async def trouble(made: int) -> None:
            if made == 6:
                # Rate limits on every kind of call a move makes.
                faults.extend([
                    server.fail("POST", r"^/channels/[0-9]+/messages$", times=3),
                    server.fail("PATCH", r"^/channels/[0-9]+/messages/[0-9]+$", times=3),
                    server.fail("POST", r"^/interactions/.*/callback$", times=2),
                ])
            if made == 15:
                # The next /umtali play is sent while the bot is away, and replayed on RESUME.
                await server.drop_gateway()

        faulty_moves = await play_out(server, db, faulty.id, before_move=trouble)
        finished = read_match(db, faulty.id)
        assert finished is not None and finished.status == "finished"
        await until(lambda: table_settled(server, finished), "the second session's final table")

        assert all(f.hits == f.times for f in faults), "every fault was hit"
        assert server.resumes == 1 and server.identifies == 1
        retried = [c for c in server.calls[calls_before:] if c.status == 429]
        assert len(retried) == 8
        # The same moves, the same result, recorded once each.
        assert faulty_moves == clean_moves
        assert query(db, "SELECT move FROM moves WHERE match_id = ? ORDER BY ply", faulty.id) \
            == query(db, "SELECT move FROM moves WHERE match_id = ? ORDER BY ply", clean.id)
        results = query(db, "SELECT * FROM session_results ORDER BY match_id")
        assert [r["match_id"] for r in results] == [clean.id, faulty.id]
        keys = ("winner_seat", "how", "games_won0", "games_won1")
        assert [results[1][k] for k in keys] == [results[0][k] for k in keys]
        # Nothing lost, nothing repeated: the thread reads as on the clean line ...
        assert public_texts(server, faulty.channel_id) == public_texts(server, clean.channel_id)
        # ... and bob was told once that his DMs are closed; he got none, ada got hers.
        notices = [m for m in server.channel_messages(faulty.channel_id)
                   if NOTICE in m["content"]]
        assert len(notices) == 1 and f"<@{bob}>" in notices[0]["content"]
        assert len(server.dm_messages(bob)) == 1  # from the first session only
        assert len(server.dm_messages(alice)) == 2
        # Refused when the table opened, then tried again once a hand at most (review43).
        refused = [c for c in server.calls if c.status == 403]
        hands = sum(1 for text in public_texts(server, faulty.channel_id)
                    if re.match(r"Game \d+, hand \d+:", text))
        assert 1 <= len(refused) <= hands, (len(refused), hands)
        assert all(c.method == "POST" and c.path == refused[0].path for c in refused)
        assert refused[0].path.startswith("/channels/")
