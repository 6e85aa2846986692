"""A crash: the bot process is killed with SIGKILL mid-hand and started again on its database."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

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
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


async def test_a_killed_bot_comes_back_and_finishes_the_match(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        before = await play_out(server, db, saved.id, moves=20)
        # The deal is random in the bot process: play on until a hand is under way.
        while (now := read_match(db, saved.id)) and now.session.hand.turn == 0:
            before += await play_out(server, db, saved.id, moves=1)
            assert before < 200
        mid = read_match(db, saved.id)
        assert mid is not None and mid.status == "active" and mid.version == before
        assert mid.session.hand.turn > 0, "the kill comes in the middle of a hand"
        bot.kill()

        await bot.start()
        assert server.identifies == 2
        # The table's button from before the crash works on the new process.
        assert saved.table_message_id is not None
        table = server.messages[saved.table_message_id]
        hand = next(c for c in custom_ids(table) if c.endswith(":hand"))
        seat = mid.session.to_act
        panel = await server.click(mid.player_ids[seat], table, hand)
        assert panel.ephemeral and panel.response is not None
        assert panel.response["embeds"][0]["title"].startswith("Your hand")

        after = await play_out(server, db, saved.id)
        final = read_match(db, saved.id)
        assert final is not None and final.status == "finished"
        await until(lambda: table_settled(server, final), "the final table")
    moves = query(db, "SELECT ply FROM moves WHERE match_id = ? ORDER BY ply", saved.id)
    # Every move saved once, none lost or repeated across the crash.
    assert [r["ply"] for r in moves] == list(range(before + after))
    results = query(db, "SELECT * FROM session_results")
    assert [r["match_id"] for r in results] == [saved.id]
    assert results[0]["winner_seat"] == final.session.winner
    log = bot.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert "1 active match(es) restored" in log


async def test_an_announcement_in_flight_at_the_crash_is_posted_after_the_restart(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        await play_out(server, db, saved.id, moves=6)
        # The next announcement in the thread never gets an answer: the bot dies waiting.
        held = server.hold("POST", rf"^/channels/{saved.channel_id}/messages$")
        await play_until_held(server, db, saved.id, held, "an announcement on its way")
        bot.kill()
        server.release()
        await bot.start()
        await play_out(server, db, saved.id)
        final = read_match(db, saved.id)
        assert final is not None
        await until(lambda: table_settled(server, final), "the final table")
    # Posted whole, though perhaps folded with later turns (and then without its mention).
    lost = YOUR_TURN.sub("", held.held[0].body["content"]).strip()
    posted = [YOUR_TURN.sub("", m["content"]) for m in server.channel_messages(saved.channel_id)]
    assert any(lost in text for text in posted), f"never posted: {lost!r}"


async def test_a_panel_replaced_as_the_bot_is_killed_loses_its_buttons_after_the_restart(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With the channel lost, a turn's end sends the next player a new DM panel, then takes the
    buttons off the one it replaced. Killed between the two, the bot takes them off once it is
    back, at the seat's next delivery (the soak found old panels offering moves for good)."""
    async with bot_process(monkeypatch, tmp_path) as (server, bot, db, alice, bob):
        saved = await start_session(server, db, alice, bob)
        for method in ("POST", "PATCH"):  # the thread is deleted
            server.fail(method, rf"^/channels/{saved.channel_id}/", times=10**9, status=404,
                        code=10003)

        def lost() -> bool:
            return bool(query(db, "SELECT channel_lost FROM matches")[0]["channel_lost"])
        while not lost():
            await play_out(server, db, saved.id, moves=1)
        # The turn's last move (a discard, the hand going on): ``other`` gets a new panel;
        # the old one's edit never ends. Where ``other`` was not looking at it, their panel is
        # edited in place instead: not the case looked for, so on to the next such turn.
        for _ in range(20):
            while (now := read_match(db, saved.id)) and not (
                    GreedyPlayer().choose(now.session.view(now.session.to_act)).kind is
                    MoveKind.DISCARD and len(now.session.hand.stock) > 8 and
                    min(now.session.view(now.session.to_act).hand_sizes) > 2):
                await play_out(server, db, saved.id, moves=1)
            assert now is not None
            other = 1 - now.session.to_act
            [row] = query(db, "SELECT * FROM matches")
            dm, old = row[f"dm{other}_channel_id"], row[f"dm{other}_message_id"]
            assert custom_ids(server.messages[old])
            held = server.hold("PATCH", rf"^/channels/{dm}/messages/{old}$")
            await play_out(server, db, saved.id, moves=1)
            await until(partial(getattr, held, "held"), "the old panel's edit")
            if query(db, "SELECT * FROM matches")[0][f"dm{other}_message_id"] != old:
                break  # replaced: the edit held is the old panel's stripping
            server.release(hold_later=True)
        else:
            raise AssertionError("no turn's end sent a new panel")
        bot.kill()
        server.release()
        await bot.start()
        # ``other`` plays a turn: the old panel has nothing left to press.
        while (now := read_match(db, saved.id)) and now.session.to_act == other:
            await play_out(server, db, saved.id, moves=1)
        await until(lambda: not custom_ids(server.messages[old]), "the old panel stripped")
