"""A move clicked on the ephemeral panel whose answer is still being drawn while the match moves
on (the opponent plays their turn, as the computer does at once) or ends (a resignation):
the answer's edit showed the older position over the newer one the match's own refresh had
put there, and the panel was then kept as showing the newest: never edited again, it offered
no move on the player's turn (or moves after the ending). Over the loopback Discord, the
answer's drawing held meanwhile."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.held_panels import HeldPanels
from tests.loopback.driver import custom_ids, play_move, read_match, start_session, until
from tests.loopback.harness import bot_in_process, loopback_server
from tests.test_fair_abandoned import live_of
from umtali.moves import MoveKind
from umtali.players import GreedyPlayer


@pytest.mark.parametrize("meanwhile", ["the opponent's turn", "a resignation"])
async def test_a_click_answered_while_the_match_moves_on_leaves_the_pane_current(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, meanwhile: str) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db) as bot:
        alice, bob = server.add_member("ada"), server.add_member("ben")
        saved = await start_session(server, db, alice, bob)
        svc = bot.matches
        assert svc is not None

        def greedy() -> Any:
            now = read_match(db, saved.id)
            assert now is not None
            return GreedyPlayer().choose(now.session.view(now.session.to_act))

        def now_view() -> Any:
            now = read_match(db, saved.id)
            assert now is not None
            return now.session.view(now.session.to_act)

        # On to a discard that ends the turn (the hand goes on).
        while greedy().kind is not MoveKind.DISCARD or len(now_view().hand) < 2:
            await play_move(server, db, saved.id)
        await svc.flush()
        live = live_of(bot, saved.id)
        seat = live.session.to_act
        member, other = live.player_ids[seat], live.player_ids[1 - seat]
        discard = greedy()
        assert saved.table_message_id is not None
        table = server.messages[saved.table_message_id]
        mine = await server.click(member, table, f"umtali:m:{saved.id}:hand")
        panel = mine.response
        assert mine.ephemeral and panel is not None
        panel_id = int(panel["id"])
        menu = f"umtali:m:{saved.id}:{live.version}:discard"
        assert menu in custom_ids(panel)
        # The answer's panel is drawn only once the match has moved on.
        panels = HeldPanels(monkeypatch, first_only=True, maker="hand_shown")
        click = asyncio.ensure_future(server.click(member, panel, menu, [str(discard)]))
        await until(lambda: bool(panels.held), "the answer's drawing under way")
        assert live.session.to_act == 1 - seat
        if meanwhile == "a resignation":
            assert await svc.resign(live, 1 - seat)
        else:
            while not live.over and live.session.to_act == 1 - seat:
                move = GreedyPlayer().choose(live.session.view(1 - seat))
                assert (await svc.act(live, other, move)).ok
            assert not live.over and live.session.to_act == seat
        await svc.flush()  # the match's own refreshes, made before the answer's edit
        panels.release()
        answered = await click
        assert answered.callback_type in (6, 7), answered.text()
        await svc.flush()

        def current() -> dict[str, Any] | None:
            shown = server.messages[panel_id]
            if live.over:
                return shown if "Session over" in json.dumps(shown["embeds"]) and not [
                    c for c in custom_ids(shown) if ":discard" in c or ":draw" in c] else None
            prefix = f"umtali:m:{saved.id}:{live.version}:"
            return shown if any(c.startswith(prefix) for c in custom_ids(shown)) else None

        await until(current, "the panel showing the match as it is")
