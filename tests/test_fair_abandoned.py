"""A match that ends with no result after its deal (abandoned: a player out of reach once its
channel is lost; cancelled part-way) is revealed as a finished session is: its seed and salt
where its players can still be reached, its deals file from their DM panel and from
/umtali history, and ``python -m umtali verify`` says FAIR for the hands dealt so far (and
NOT VERIFIED once one card is changed). The seed stays secret while the match runs; a match
cancelled before any card was dealt has nothing to reveal. All over the loopback Discord."""

from __future__ import annotations

import io
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot import UmtaliBot
from cogs.umtali.fair import verify_file
from cogs.umtali.live import LiveMatch
from cogs.umtali.service import MatchService
from data.record_reads import UNFINISHED_SQL
from data.store import Store
from tests.loopback import payloads as p
from tests.loopback.driver import (
    SavedMatch,
    custom_ids,
    play_move,
    query,
    read_match,
    start_session,
    until,
)
from tests.loopback.driver import accept as accept_it
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member
from tests.test_fair_deals_bot import REAL_NEW_SEED
from umtali.cli import main
from umtali.fairness import commit
from umtali.players import GreedyPlayer
from umtali.rules import RuleSet
from umtali.session import Session


@pytest.fixture(autouse=True)
def secret_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's own 128-bit seeds: a seed found in a message was put there, not guessed."""
    monkeypatch.setattr(MatchService, "new_seed", REAL_NEW_SEED)


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def verify_cli(tmp_path: Path, data: bytes) -> tuple[int, str]:
    """``python -m umtali verify`` on the file as a player saved it."""
    path = tmp_path / "downloaded-deals.json"
    path.write_bytes(data)
    out = io.StringIO()
    code = main(["verify", str(path)], io.StringIO(), out)
    return code, out.getvalue()


def tampered(data: bytes) -> bytes:
    """One card of the first deal swapped with the stock's top."""
    d = json.loads(data)
    deal = d["hands"][0]["deal"]
    deal["hands"][0][0], deal["stock"][0] = deal["stock"][0], deal["hands"][0][0]
    return json.dumps(d).encode()


def everything_said(server: LoopbackDiscord) -> str:
    """Every message anyone can read (channels, threads, DMs, answers), as the server has it."""
    return "\n".join(json.dumps(m, ensure_ascii=False) for m in server.messages.values())


def revealing(dms: Callable[[int], list[dict[str, Any]]], member: int,
              seed: str) -> dict[str, Any] | None:
    """The member's DM message whose embeds show ``seed``, if any."""
    return next((m for m in dms(member) if seed in json.dumps(m["embeds"])), None)


def live_of(bot: UmtaliBot, match_id: int) -> LiveMatch:
    assert bot.matches is not None
    return bot.matches.matches[match_id]


def secrets_of(bot: UmtaliBot, match_id: int) -> tuple[str, str, str]:
    live = live_of(bot, match_id)
    return str(live.session.seed), live.salt, live.commitment


async def mid_hand(server: LoopbackDiscord, db: Path, match_id: int, moves: int) -> SavedMatch:
    """``moves`` moves into the first hand, the match still running."""
    for _ in range(moves):
        await play_move(server, db, match_id)
    saved = read_match(db, match_id)
    assert saved is not None and saved.status == "active" and saved.session.hand_no == 1
    return saved


@dataclass(frozen=True)
class MidHand:
    """A match of ada and ben over the loopback Discord, four moves into its first hand, its
    panels sent."""

    server: LoopbackDiscord
    bot: UmtaliBot
    svc: MatchService
    saved: SavedMatch
    members: tuple[int, int]

    @property
    def live(self) -> LiveMatch:
        return live_of(self.bot, self.saved.id)


@asynccontextmanager
async def a_match_mid_hand(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                           **options: Any) -> AsyncIterator[MidHand]:
    """``MidHand``, the bot's database in ``tmp_path``; ``options``: the challenge's."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob, **options)
        await mid_hand(server, db, saved.id, 4)
        svc = bot.matches
        assert svc is not None
        # (the last move's panels sent first: an edit in flight as the match ends would mark
        # the panel shown at this version, the ending's own edit then skipped)
        await svc.flush()
        yield MidHand(server, bot, svc, saved, (alice, bob))


async def history_file(server: LoopbackDiscord, member: int, channel_id: int,
                       match_id: int) -> bytes:
    """The deals file of ``match_id`` as ``member`` gets it from /umtali history."""
    history = await server.slash(member, channel_id, "umtali history")
    assert history.ephemeral and history.response is not None, history.text()
    assert str(match_id) in offered(history.response)
    chosen = await server.click(member, history.response, f"umtali:rp:{server.guild_id}",
                                [str(match_id)])
    assert chosen.ephemeral and chosen.response is not None, chosen.text()
    data = server.attachment(chosen.response, f"umtali-{match_id}-deals.json")
    assert data is not None, chosen.text()
    return data


def offered(message: dict[str, Any] | None) -> list[str]:
    """The match ids a history's menu offers."""
    return [o["value"] for row in (message or {}).get("components", [])
            for c in row["components"] if c.get("custom_id", "").startswith("umtali:rp:")
            for o in c["options"]]


def forged_menu(server: LoopbackDiscord, match_id: int) -> dict[str, Any]:
    """A history menu offering ``match_id``, as a client could forge one."""
    body = {"content": "", "embeds": [{"title": "Umtali history"}], "components": [
        {"type": 1, "components": [{"type": 3, "custom_id": f"umtali:rp:{server.guild_id}",
                                    "options": [{"label": "#", "value": str(match_id)}]}]}]}
    message = p.message(server.snowflake(), server.channel_id, server.bot_user, body,
                        server.guild_id)
    server.messages[int(message["id"])] = message
    return message


def lose_channel(server: LoopbackDiscord, channel_id: int) -> None:
    """The match's thread is deleted: every post and edit there answers 404."""
    for method in ("POST", "PATCH"):
        server.fail(method, rf"^/channels/{channel_id}/", times=10**6, status=404, code=10003)


async def test_an_abandoned_match_is_revealed_to_whoever_can_still_be_reached(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        server.refuse_dms(bob)  # ben can be told only in the match's channel
        saved = await start_session(server, db, alice, bob)
        await mid_hand(server, db, saved.id, 3)
        seed, salt, commitment = secrets_of(bot, saved.id)
        assert commitment == commit(seed, salt)
        # Then the thread is deleted: ben is out of reach, and the match is abandoned at
        # the next turn's end, part-way through its first hand.
        lose_channel(server, saved.channel_id)
        while (now := read_match(db, saved.id)) is not None and now.status == "active":
            seat = now.session.to_act
            move = GreedyPlayer().choose(now.session.view(seat))
            # (the match may be abandoned between the read and the move: "over" then)
            await server.slash(now.player_ids[seat], now.channel_id, "umtali play",
                               {"move": str(move)})
        ended = read_match(db, saved.id)
        assert ended is not None and not ended.session.over
        assert [tuple(r) for r in query(db, "SELECT how, winner_seat FROM matches")] == [
            ("abandoned", None)]
        assert query(db, "SELECT COUNT(*) FROM session_results")[0][0] == 0

        # ada's DM panel, where she is told, reveals the seed as a finished session does...
        panel = await until(partial(revealing, server.dm_messages, alice, seed),
                            "the reveal on ada's DM panel")
        said = json.dumps(panel["embeds"], ensure_ascii=False)
        assert "abandoned" in said and "Deals revealed" in said
        assert salt in said and commitment in said
        # ...with the replay file a click away, there in the DM.
        button = f"umtali:rf:{server.guild_id}:{saved.id}"
        assert button in custom_ids(panel)
        clicked = await server.click(alice, panel, button)
        assert clicked.ephemeral and clicked.response is not None, clicked.text()
        from_dm = server.attachment(clicked.response, f"umtali-{saved.id}-deals.json")
        assert from_dm is not None
        data = json.loads(from_dm)
        assert data["reveal"] == {"seed": seed, "salt": salt}
        assert data["result"] == {"winner": -1, "games_won": [0, 0], "how": "abandoned"}
        assert data["hands"][0]["scores"] is None  # the hand stopped where play stopped
        code, out = verify_cli(tmp_path, from_dm)
        assert code == 0 and "FAIR" in out and "no result (abandoned)" in out, out
        code, out = verify_cli(tmp_path, tampered(from_dm))
        assert code == 1 and "NOT VERIFIED" in out, out

        # ben, never reachable, finds it in his history (in another channel of the server).
        from_history = await history_file(server, bob, server.channel_id, saved.id)
        assert from_history == from_dm
        # Nobody else's DM can fetch it: a DM click is the match's players' alone.
        outsider = server.add_member("cy")
        refused = await server.click(outsider, panel, button)
        assert refused.ephemeral and refused.response is not None
        assert server.attachment(refused.response, f"umtali-{saved.id}-deals.json") is None


async def test_a_match_cancelled_mid_hand_reveals_its_seed_in_its_channel(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with a_match_mid_hand(monkeypatch, tmp_path, variant="russian") as mid:
        server, bot, svc, saved, (alice, bob) = mid.server, mid.bot, mid.svc, mid.saved, mid.members
        seed, salt, commitment = secrets_of(bot, saved.id)
        # Stopped by the bot's choice (as an admin's or a practice's stop would).
        assert await svc.abandon(live_of(bot, saved.id), "cancelled")
        await svc.flush()
        # The thread is told, with the same line a finished session ends with (after the
        # lines of the turn in progress, posted first as a resignation's are: fix150).
        said = await until(lambda: next((m["content"] for m in server.channel_messages(
            saved.channel_id) if seed in m["content"]), None), "the reveal in the thread")
        assert "Deals revealed" in said and salt in said and commitment in said
        # Both DM panels say the match was cancelled, reveal it, and offer its file.
        for member in (alice, bob):
            panel = await until(partial(revealing, server.dm_messages, member, seed),
                                "a DM panel's reveal")
            assert "cancelled" in json.dumps(panel["embeds"])
            assert custom_ids(panel) == [f"umtali:rf:{server.guild_id}:{saved.id}"]
        # The table keeps no button to play on.
        table = server.messages[saved.table_message_id or 0]
        await until(lambda: not custom_ids(table), "the table's buttons gone")
        data = await history_file(server, alice, saved.channel_id, saved.id)
        assert json.loads(data)["result"]["how"] == "cancelled"
        code, out = verify_cli(tmp_path, data)
        assert code == 0 and "FAIR" in out, out
        code, out = verify_cli(tmp_path, tampered(data))
        assert code == 1 and "NOT VERIFIED" in out, out
        # Posted once, and the match is let go.
        assert sum(seed in m["content"] for m in server.channel_messages(saved.channel_id)) == 1
        await until(lambda: not svc.tracked(saved.id), "the match let go")


async def test_the_seed_of_a_running_match_is_never_given_out(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        await mid_hand(server, db, saved.id, 3)
        seed, salt, commitment = secrets_of(bot, saved.id)
        assert commitment in everything_said(server)
        # ada's history does not offer it, and a forged choice of it is refused.
        history = await server.slash(alice, server.channel_id, "umtali history")
        assert not offered(history.response) and "has not finished" in history.text()
        asked = await server.click(alice, forged_menu(server, saved.id),
                                   f"umtali:rp:{server.guild_id}", [str(saved.id)])
        assert asked.ephemeral and "not over" in asked.text(), asked.text()
        assert asked.response is not None and not asked.response.get("attachments")
        # Nothing anyone can read holds the seed or the salt while the match runs.
        said = everything_said(server)
        assert seed not in said and salt not in said
        assert query(db, "SELECT status FROM matches")[0][0] == "active"


async def test_a_match_cancelled_before_its_deal_has_nothing_to_reveal(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No card reached anyone: nothing to check, and its seed stays unsaid. The next match of
    the same two, cancelled after its deal, is revealed."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        svc = bot.matches
        assert svc is not None
        # The channel refuses the match's first post: no table, no hand, no card seen.
        server.fail("POST", r"^/channels/[0-9]+/messages$", times=1, status=403, code=50013)
        answer = await server.slash(alice, server.channel_id, "umtali challenge",
                                    {"opponent": Member(bob)})
        assert answer.response is not None
        await accept_it(server, bob, answer.response)
        row = await until(lambda: next(iter(query(db, "SELECT * FROM matches WHERE status = "
                                                  "'finished'")), None), "the cancellation")
        assert row["how"] == "cancelled" and row["table_message_id"] is None
        assert not server.dm_messages(alice) and not server.dm_messages(bob)
        # Nothing to check: no reveal, no file, not in the history.
        seed = str(json.loads(row["state"])["seed"])
        assert seed not in everything_said(server) and row["salt"] not in everything_said(server)
        history = await server.slash(alice, server.channel_id, "umtali history")
        assert not offered(history.response) and "has not finished" in history.text()
        asked = await server.click(alice, forged_menu(server, row["id"]),
                                   f"umtali:rp:{server.guild_id}", [str(row["id"])])
        assert asked.ephemeral and "not kept" in asked.text(), asked.text()

        # Their next match is dealt, then cancelled: that one is revealed.
        svc.clock = lambda: time.time() + 60  # past the cooldown between challenges
        dealt = await start_session(server, db, alice, bob)
        await mid_hand(server, db, dealt.id, 2)
        await svc.flush()
        assert await svc.abandon(live_of(bot, dealt.id), "cancelled")
        history = await server.slash(alice, server.channel_id, "umtali history")
        assert offered(history.response) == [str(dealt.id)]
        assert "cancelled, no result" in history.text()
        code, out = verify_cli(tmp_path, await history_file(server, alice, server.channel_id,
                                                            dealt.id))
        assert code == 0 and "FAIR" in out, out
        assert seed not in everything_said(server)


def test_a_file_of_a_match_with_no_result_names_no_winner(tmp_path: Path) -> None:
    """``verify`` takes a match stopped part-way as it is (FAIR), but not a file that gives it
    a winner, or says it was played out."""
    salt = "ab" * 16
    session = Session(RuleSet.english(), 77)
    for _ in range(5):
        session.apply(GreedyPlayer().choose(session.view(session.to_act)))
    assert not session.over
    data = verify_file(session, ("ada", "ben"), salt, "abandoned")
    code, out = verify_cli(tmp_path, data)
    assert code == 0 and "FAIR" in out and "no result (abandoned)" in out, out
    for result in ({"winner": 0, "games_won": [0, 0], "how": "abandoned"},
                   {"winner": 1, "games_won": [0, 0], "how": "cancelled"},
                   {"winner": -1, "games_won": [0, 0], "how": "played out"}):
        claimed = json.loads(data)
        claimed["result"] = result
        code, out = verify_cli(tmp_path, json.dumps(claimed).encode())
        assert code == 1 and "NOT VERIFIED" in out, (result, out)
    with pytest.raises(AssertionError):
        verify_file(session, ("ada", "ben"), salt)  # in play: its seed stays secret


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def _match(store: Store, players: tuple[int, int], at: float, *,
                 commitment: str = "c" * 64, table: int | None = 7) -> int:
    match_id = await store.create_match(
        guild_id=10, channel_id=5, players=((players[0], "Ada"), (players[1], "Ben")),
        variant="english", turn_timer=300, state="{}", deadline=None, now=at,
        commitment=commitment)
    if table is not None:
        await store.set_table_message(match_id, table)
    return match_id


async def test_a_members_unfinished_matches_are_the_dealt_and_sealed_ones(store: Store) -> None:
    """On each backend: a match ended with no result is listed for both its players once its
    table was posted (or play went on in DMs), newest first; not one still running, never
    dealt, never sealed, or played to a result."""
    async def ended(players: tuple[int, int], how: str, at: float, lost: bool = False,
                    **options: Any) -> int:
        match_id = await _match(store, players, at - 50, **options)
        if lost:
            await store.set_channel_lost(match_id, 5)
        assert await store.abandon_match(match_id, how, now=at) is not None
        return match_id

    abandoned = await ended((1, 2), "abandoned", 100.0)
    in_dms = await ended((3, 1), "cancelled", 200.0, lost=True, table=None)
    await ended((1, 4), "cancelled", 300.0, table=None)  # never dealt
    await ended((1, 5), "abandoned", 400.0, commitment="")  # from before deals were sealed
    running = await _match(store, (1, 6), 500.0)
    lines = await store.records.unfinished(10, 1)
    assert [(u.match_id, u.how, u.finished_at) for u in lines] == [
        (in_dms, "cancelled", 200.0), (abandoned, "abandoned", 100.0)]
    assert lines[0].player_ids == (3, 1) and lines[0].names == ("Ada", "Ben")
    assert [u.match_id for u in await store.records.unfinished(10, 2)] == [abandoned]
    assert await store.records.unfinished(11, 1) == []
    assert [u.match_id for u in await store.records.unfinished(10, 1, limit=1)] == [in_dms]
    assert running not in [u.match_id for u in await store.records.unfinished(10, 6)]


@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite's plan; PostgreSQL's varies with size
async def test_the_unfinished_read_uses_its_index(store: Store) -> None:
    plan = [str(r["detail"]) for r in await store.db.fetchall(
        "EXPLAIN QUERY PLAN " + UNFINISHED_SQL, (1, 2, 5))]
    assert plan == ["SEARCH matches USING INDEX matches_unfinished (guild_id=?)"], plan


async def test_a_reveal_not_yet_posted_when_the_bot_stops_is_posted_at_its_next_start(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Saved with the ending, as a last turn's announcement is: never lost to a restart."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        async with bot_in_process(server, db) as bot:
            saved = await start_session(server, db, alice, bob)
            await mid_hand(server, db, saved.id, 2)
            assert bot.matches is not None
            await bot.matches.flush()
            seed = secrets_of(bot, saved.id)[0]
            # Discord fails every post to the thread for now (a 5xx: tried again later).
            down = server.fail("POST", rf"^/channels/{saved.channel_id}/messages$",
                               times=10**6, status=503)
            assert await bot.matches.abandon(live_of(bot, saved.id), "cancelled")
            await until(lambda: down.hits, "a post tried")
            [row] = query(db, "SELECT status, unsent FROM matches")
            assert row["status"] == "finished" and seed in row["unsent"]
        server.faults.remove(down)
        async with bot_in_process(server, db):
            said = await until(lambda: [m["content"] for m in server.channel_messages(
                saved.channel_id) if seed in m["content"]], "the reveal after the restart")
            assert len(said) == 1 and "Deals revealed" in said[0]
            await until(lambda: query(db, "SELECT unsent FROM matches")[0][0] == "[]",
                        "the reveal marked posted")
