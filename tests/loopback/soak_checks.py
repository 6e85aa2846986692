"""The soak's invariants (tests/loopback/soak.py), each read from the bot's database, the
loopback Discord or the bot's log; each gives what it found broken, in sentences."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.loopback.driver import custom_ids, query
from tests.loopback.saved_db import Target, in_one_read
from tests.loopback.server import LoopbackDiscord
from umtali.codec import session_from_json, session_to_json
from umtali.moves import Move
from umtali.session import Session

#: A line the bot logged that the soak reads: ERROR and worse, and an unhandled exception.
SERIOUS = re.compile(r" (ERROR|CRITICAL) |Traceback|Task exception was never retrieved"
                     r"|Exception in callback|Unhandled exception")

#: ERRORs an admin should see, for causes the soak makes on purpose: (pattern, the cause).
MEANT: list[tuple[re.Pattern[str], str]] = []


@dataclass
class LogWatch:
    """The bot's log, read on from where the last look ended (a restart appends to it)."""

    path: Path
    offset: int = 0
    #: The ERRORs logged for a cause the soak made, by cause.
    meant: dict[str, int] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """The serious lines logged since the last look that no fault of the soak explains."""
        if not self.path.exists():
            return []
        with self.path.open("rb") as log:
            log.seek(self.offset)
            data = log.read()
        # Only whole lines: the bot may be writing the next one.
        end = data.rfind(b"\n") + 1
        self.offset += end
        found = []
        for line in data[:end].decode(errors="replace").splitlines():
            if not SERIOUS.search(line):
                continue
            cause = next((why for pattern, why in MEANT if pattern.search(line)), None)
            if cause is None:
                found.append(f"the bot logged: {line}")
            else:
                self.meant[cause] = self.meant.get(cause, 0) + 1
        return found


def saved_session(db: Target, match_id: int) -> Session:
    [row] = query(db, "SELECT state FROM matches WHERE id = ?", match_id)
    return session_from_json(json.loads(row["state"]))


def _moves_and_state(db: Target, match_id: int) -> tuple[list[Any], str]:
    """The match's saved moves and state, read in one transaction: a move the bot saves
    between two reads would set them apart (the soak read them so, and reported a state one
    move ahead of its moves, the computer having played meanwhile)."""
    rows, [[state]] = in_one_read(db, [
        ("SELECT ply, move FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)),
        ("SELECT state FROM matches WHERE id = ?", (match_id,))])
    return rows, str(state)


def replay_problems(db: Target, match_id: int) -> list[str]:
    """The saved state is the engine's replay of the saved moves (and of the resignation or
    the time out that ended it, which is no move)."""
    rows, state = _moves_and_state(db, match_id)
    plies = [r["ply"] for r in rows]
    if plies != list(range(len(plies))):
        return [f"match {match_id}: the saved moves' plies are {plies[:5]}... not 0..{len(plies)}"]
    saved = session_from_json(json.loads(state))
    replayed = Session(saved.rules, saved.seed, saved.first_deal)
    for i, row in enumerate(rows):
        try:
            replayed.apply(Move.parse(row["move"]))
        except Exception as e:
            return [f"match {match_id}: saved move {i} {row['move']!r} does not replay ({e})"]
    if saved.over and not replayed.over:
        replayed.resign(1 - saved.winner, saved.how)
    want, got = session_to_json(saved), session_to_json(replayed)
    if want != got:
        differ = sorted(k for k in want if want[k] != got.get(k))
        return [f"match {match_id}: the saved state is not the replay of its {len(rows)} "
                f"moves (differs in {differ})"]
    return []


def ordinals(db: Target, users: tuple[int, ...]) -> dict[int, float]:
    """Each member's rating over all servers (0.0 before any rated session)."""
    found = {r["user_id"]: float(r["ordinal"]) for r in query(
        db, "SELECT user_id, ordinal FROM ratings WHERE scope = 0")}
    return {u: found.get(u, 0.0) for u in users}


def result_problems(db: Target, match_id: int, practice: bool,
                    before: dict[int, float]) -> list[str]:
    """One result recorded for the finished session, and each player's rating moved once (a
    practice session's not at all). ``before``: the players' ratings as the session began."""
    [match] = query(db, "SELECT * FROM matches WHERE id = ?", match_id)
    session = saved_session(db, match_id)
    results = query(db, "SELECT * FROM session_results WHERE match_id = ?", match_id)
    if match["status"] != "finished":
        return [f"match {match_id}: {match['status']}, not finished, at the end"]
    if not session.over:
        # Abandoned, no result: right once Discord said the channel and a player's DMs are
        # closed to the bot (a 403 or 404 the soak answered), as nobody can be told to play.
        gone = match["channel_lost"] and (match["dm_refused0"] or match["dm_refused1"])
        if match["how"] == "abandoned" and gone and not results:
            return []
        return [f"match {match_id}: finished {match['how']} with no winner "
                f"(channel lost: {match['channel_lost']}, DMs refused: "
                f"{match['dm_refused0']}, {match['dm_refused1']}; {len(results)} results)"]
    if len(results) != 1:
        return [f"match {match_id}: {len(results)} results recorded"]
    result = results[0]
    found = []
    if (result["winner_seat"], result["how"]) != (session.winner, session.how):
        found.append(f"match {match_id}: the result says seat {result['winner_seat']} "
                     f"{result['how']}, the state seat {session.winner} {session.how}")
    now = ordinals(db, tuple(before))
    players = {r["user_id"]: r for r in query(
        db, "SELECT * FROM session_players WHERE match_id = ?", match_id)}
    for user, was in before.items():
        if practice:
            if now[user] != was:
                found.append(f"match {match_id}: practice moved {user}'s rating")
            continue
        row = players.get(user)
        if row is None or row["rating_before"] is None:
            found.append(f"match {match_id}: no rating change kept for {user}")
        elif abs(row["rating_before"] - was) > 1e-9 or abs(row["rating_after"] - now[user]) > 1e-9:
            found.append(f"match {match_id}: {user}'s rating went {was} -> {now[user]}, "
                         f"the session says {row['rating_before']} -> {row['rating_after']}")
        elif now[user] == was:
            found.append(f"match {match_id}: {user}'s rating did not move")
    return found


def shown_problems(server: LoopbackDiscord, db: Target, match_id: int) -> list[str]:
    """What the finished match's table and panels show matches the database: the result on
    the table, no button to play on anywhere (a DM, the table, a table posted before),
    nothing left unsent."""
    [match] = query(db, "SELECT * FROM matches WHERE id = ?", match_id)
    found = []
    if match["unsent"] != "[]":
        found.append(f"match {match_id}: announcements never posted: {match['unsent'][:300]}")
    playing = re.compile(rf"^umtali:m:{match_id}:([0-9]+:|hand$)")
    table = server.messages.get(match["table_message_id"] or 0)
    if not match["channel_lost"] and match["table_message_id"]:
        text = json.dumps(table and table["embeds"], ensure_ascii=False)
        winner = saved_session(db, match_id).winner
        name = match[f"player{winner}_name"] if winner >= 0 else ""
        if table is None:
            found.append(f"match {match_id}: its table message is gone")
        elif winner >= 0 and f"{name} wins" not in text:
            found.append(f"match {match_id}: the table does not show {name}'s win: {text[:300]}")
    # A lost channel is not written to any more: what it shows stays as it was.
    public = [] if match["channel_lost"] else server.channel_messages(match["channel_id"])
    for seat, user in enumerate((match["player0_id"], match["player1_id"])):
        # DMs refused (a 403 or 404 the soak answered) are not written to any more either.
        dms = [] if match[f"dm_refused{seat}"] else server.dm_messages(user)
        for message in [*dms, *public]:
            if int(message["id"]) in refused(server):
                continue  # the bot may not edit it (Discord said so): a new one took its place
            if live := [c for c in custom_ids(message) if playing.match(c)]:
                found.append(f"match {match_id}: a message {message['id']} still offers "
                             f"{live[:3]} after the end")
    return found


def refused(server: LoopbackDiscord) -> set[int]:
    """The messages an edit of which Discord refused (403, 404: no access, gone)."""
    return {int(c.path.rsplit("/", 1)[1]) for c in server.calls
            if c.method == "PATCH" and c.status in (403, 404)
            and re.fullmatch(r"/channels/[0-9]+/messages/[0-9]+", c.path)}
