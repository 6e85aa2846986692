"""The soak's invariants (tests/loopback/soak.py), each read from the bot's database, the
loopback Discord or the bot's log; each gives what it found broken, in sentences."""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogs.umtali.nonces import nonce_of
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


def names_problems(server: LoopbackDiscord, db: Target, match_id: int) -> list[str]:
    """The session's result and its players' stats name each member as recorded: on the
    board of all servers by their Discord-wide display name (``global_name``), on their
    server's by their nickname there (the loopback gives each member both, apart)."""
    results = query(db, "SELECT * FROM session_results WHERE match_id = ? AND recorded = 1",
                    match_id)
    found = []
    for result in results:
        for seat in (0, 1):
            user = result[f"player{seat}_id"]
            if seat == result["computer_seat"] or user not in server.nicks:
                continue
            wide, nick = server.users[user]["global_name"], server.nicks[user]
            if (result[f"player{seat}_name"], result[f"player{seat}_global_name"]) != (nick,
                                                                                    wide):
                found.append(f"match {match_id}: the result names seat {seat} "
                             f"{result[f'player{seat}_name']!r} (Discord-wide "
                             f"{result[f'player{seat}_global_name']!r}), not {nick!r} "
                             f"({wide!r})")
            practice = int(result["computer_level"] is not None)
            for scope, want in ((0, wide), (result["guild_id"], nick)):
                rows = query(db, "SELECT name FROM player_stats WHERE scope = ? AND user_id = ? "
                             "AND practice = ?", scope, user, practice)
                if [r["name"] for r in rows] != [want]:
                    where = "all servers" if scope == 0 else "the server"
                    found.append(f"match {match_id}: the stats of {where} name {user} "
                                 f"{[r['name'] for r in rows]}, not {want!r}")
    return found


def counted_problems(db: Target) -> list[str]:
    """Every recorded session counted once into its players' stats: each one's sessions won
    and lost, on all servers and on each server, rated and practice apart, are the results
    that seat them (recounted from the results)."""
    want: dict[tuple[int, int, int], list[int]] = {}
    for r in query(db, "SELECT * FROM session_results WHERE recorded = 1"):
        practice = int(r["computer_level"] is not None)
        for seat in (0, 1):
            if seat == r["computer_seat"]:
                continue
            won = int(r["winner_seat"] == seat)
            for scope in (0, r["guild_id"]):
                tally = want.setdefault((scope, r[f"player{seat}_id"], practice), [0, 0])
                tally[1 - won] += 1
    got = {(r["scope"], r["user_id"], r["practice"]): [r["sessions_won"], r["sessions_lost"]]
           for r in query(db, "SELECT * FROM player_stats")}
    return [f"user {user}, {'all servers' if scope == 0 else f'server {scope}'}"
            f"{', practice' if practice else ''}: stats count {got.get(key)} sessions won and "
            f"lost, the results {want.get(key)}"
            for key in sorted(set(want) | set(got)) for scope, user, practice in [key]
            if want.get(key) != got.get(key)]


#: The channel's notice that a player's DMs refused the bot (channel_loss.tell_refused).
DMS_REFUSED = "I can't send you direct messages"


def dm_problems(server: LoopbackDiscord, db: Target, match_id: int,
                starts: list[float], processes: int = 1) -> list[str]:
    """A seat whose DMs refused the bot is tried there again once a hand at most (one try
    more for each start of a bot process; and each of ``processes`` may find them closed once,
    a copy of the match shown again as saved sending to them as its holder does), and told so in the
    channel once while they stay closed: one notice for each time they closed (a refusal after
    a message reached them, or the match's first), neither one a hand nor none (but for a
    refusal in the last hand, whose notice failing for now is dropped at the match's end).
    ``starts``: when a bot process was started. Nothing to say with the channel lost (no notice
    is posted there; a seat refused then abandons the match: ``result_problems``)."""
    [match] = query(db, "SELECT * FROM matches WHERE id = ?", match_id)
    moves = query(db, "SELECT move, at FROM moves WHERE match_id = ? ORDER BY ply", match_id)
    session = saved_session(db, match_id)
    replayed = Session(session.rules, session.seed, session.first_deal)
    # The hand the match was in from each time on: after each saved move.
    times, hands = [float("-inf")], [(replayed.game, replayed.hand_no)]
    for row in moves:
        replayed.apply(Move.parse(row["move"]))
        times.append(float(row["at"]))
        hands.append((replayed.game, replayed.hand_no))
    begun, end = float(match["created_at"]), float(match["finished_at"] or float("inf"))

    def hand_at(at: float) -> tuple[int, int]:
        return hands[bisect.bisect_right(times, at) - 1]
    found = []
    for seat in (0, 1):
        user = match[f"player{seat}_id"]
        dm = server.dms.get(user)
        if seat == match["computer_seat"] or dm is None:
            continue
        # What the match sent or edited there: its hand panels, the turns told by DM (an
        # edit refused is answered by a new panel, whose refusal counts), a practice's
        # reviews (the coach's: one refused is a refusal found, as a panel's is).
        to_dm = re.compile(rf"/channels/{dm}/messages(/[0-9]+)?")
        calls = [c for c in server.calls if begun <= c.at <= end and c.status
                 and c.method in ("POST", "PATCH") and to_dm.fullmatch(c.path)
                 and isinstance(c.body, dict)]
        by_hand: dict[tuple[int, int], list[float]] = {}
        # Each time they closed: a new message refused after one reached them (``closings``);
        # or an edit refused (403), which the bot may take for it too (``perhaps``).
        closings, perhaps, open_, open_perhaps = [], 0, True, True
        for call in calls:
            posted = call.method == "POST" and call.status in (403, 404)
            if posted:
                by_hand.setdefault(hand_at(call.at), []).append(call.at)
                if open_:
                    closings.append(call.at)
                open_ = False
            if posted or call.status == 403:
                perhaps += open_perhaps
                open_perhaps = False
            elif call.status < 300:
                open_ = open_perhaps = True
        for hand, tries in by_hand.items():
            restarts = sum(tries[0] < at < tries[-1] for at in starts)
            if len(tries) > processes + restarts:
                found.append(f"match {match_id}: seat {seat}'s DMs refused the bot {len(tries)} "
                             f"times in game {hand[0]}, hand {hand[1]} ({restarts} restarts "
                             f"between)")
        if match["channel_lost"]:
            continue
        # This match's, by their nonce (the match, its hand, the channel posted in): another
        # session's in the same channel, held and let through later, is not this one's.
        numbers = {str(game * 100 + hand) for game, hand in hands}
        notices = [c for c in server.calls
                   if begun <= c.at and c.method == "POST" and c.status == 200
                   and not c.given_back and isinstance(c.body, dict)
                   and DMS_REFUSED in str(c.body.get("content"))
                   and f"<@{user}>" in str(c.body.get("content"))
                   and str(c.body.get("nonce")) in {
                       nonce_of(match_id, match["commitment"], "dms refused", seat, number,
                                c.path.split("/")[2]) for number in numbers}]
        last = hand_at(end) if end != float("inf") else None
        owed = len([at for at in closings if hand_at(at) != last])
        if not owed <= len(notices) <= perhaps:
            found.append(f"match {match_id}: seat {seat}'s DMs closed {len(closings)} times "
                         f"({owed} before the last hand; {perhaps} with the edits refused), "
                         f"told in the channel {len(notices)} times")
    return found


def dm_seen(server: LoopbackDiscord, db: Target, match_id: int) -> dict[str, int]:
    """What the match's DMs went through, for the soak's report: hand panels refused, the
    channel's notices, and panels that reached DMs opened again ("... direct messages
    again")."""
    [match] = query(db, "SELECT * FROM matches WHERE id = ?", match_id)
    begun, end = float(match["created_at"]), float(match["finished_at"] or float("inf"))
    panel = re.compile(rf"^umtali:m:{match_id}:")
    dms = {server.dms[u] for u in (match["player0_id"], match["player1_id"]) if u in server.dms}
    seen = {"seen: DM panels refused": 0, "seen: DMs refused told in the channel": 0,
            "seen: DM panels back in DMs opened again": 0}
    for call in server.calls:
        if not begun <= call.at <= end or call.method != "POST" or \
                not isinstance(call.body, dict):
            continue
        channel = int(call.path.split("/")[2]) if call.path.startswith("/channels/") else 0
        if channel in dms and any(panel.match(i) for i in custom_ids(call.body)):
            if call.status in (403, 404):
                seen["seen: DM panels refused"] += 1
            elif call.status == 200 and "direct messages again" in json.dumps(call.body):
                seen["seen: DM panels back in DMs opened again"] += 1
        elif channel == match["channel_id"] and call.status == 200 and \
                DMS_REFUSED in str(call.body.get("content")):
            seen["seen: DMs refused told in the channel"] += 1
    return {what: n for what, n in seen.items() if n}
