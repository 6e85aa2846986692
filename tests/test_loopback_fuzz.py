"""Hypothesis-made slash commands from the players and a stranger, over the sockets.

Whatever they type, while a match is under way: an answer only they see (flags 64), the saved
match and the challenges unchanged, and no unhandled exception (the conftest fails a test
whose bot logged an error).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.umtali.errors import APOLOGY
from tests.loopback.driver import play_out, query, read_match, start_session
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import LoopbackDiscord, Member, RefusedByClient
from umtali.errors import UmtaliError
from umtali.moves import Move


@dataclass
class Scene:
    server: LoopbackDiscord
    db: Path
    match_id: int
    channel_id: int
    alice: int
    bob: int
    carol: int


@pytest.fixture
async def scene(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[Scene]:
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        alice, bob, carol = (server.add_member(n) for n in ("ada", "ben", "cy"))
        saved = await start_session(server, db, alice, bob)
        # A few moves in, so that melds and discards are on the table.
        await play_out(server, db, saved.id, moves=7)
        yield Scene(server, db, saved.id, saved.channel_id, alice, bob, carol)


WORDS = ["draw", "take", "take 2", "meld", "extend", "discard", "down", "8D", "9D", "10D",
         "QS", "KS", "AH", "2x", "JC", "10", "♦", "<@1>", "@everyone", "", " "]
MOVE_TEXT = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
    st.text(max_size=100),
)
WHO = st.sampled_from(["alice", "bob", "carol"])
# Only commands whose every answer here must be private: /umtali stats and /umtali table
# answer in public by design.
COMMANDS: st.SearchStrategy[tuple[str, dict[str, Any]]] = st.one_of(
    st.tuples(st.just("umtali play"), st.fixed_dictionaries({"move": MOVE_TEXT})),
    st.tuples(st.just("umtali challenge"), st.fixed_dictionaries(
        {"opponent": WHO},
        optional={"variant": st.sampled_from(["english", "russian", "klondike", ""]),
                  "turn_timer": st.integers(-10, 100), "optional_melding": st.booleans()})),
    st.tuples(st.just("umtali resign"), st.just({})),
    st.tuples(st.just("umtali rules"), st.fixed_dictionaries(
        {}, optional={"page": st.integers(-3, 30)})),
)


def _state(scene: Scene) -> tuple[Any, ...]:
    saved = read_match(scene.db, scene.match_id)
    assert saved is not None
    challenges = query(scene.db, "SELECT id, status FROM challenges")
    return (saved.version, saved.status, json.dumps(saved.session.view(0).legal_moves,
                                                    default=str),
            [tuple(r) for r in challenges])


def _legal_for(scene: Scene, user: int, text: str) -> bool:
    """Whether ``text`` is a move ``user`` may make now (that one would change the match)."""
    saved = read_match(scene.db, scene.match_id)
    assert saved is not None
    if saved.player_ids[saved.session.to_act] != user:
        return False
    try:
        move = Move.parse(text)
    except UmtaliError:
        return False
    return move in saved.session.view(saved.session.to_act).legal_moves


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(who=WHO, command=COMMANDS)
async def test_any_command_from_anyone_is_answered_privately_and_changes_nothing(
        scene: Scene, who: str, command: tuple[str, dict[str, Any]]) -> None:
    name, raw = command
    user: int = getattr(scene, who)
    options = {k: Member(getattr(scene, v)) if k == "opponent" else v for k, v in raw.items()}
    if name == "umtali play" and _legal_for(scene, user, str(options["move"])):
        return  # a legal move by the player to act is not a refusal
    before = _state(scene)
    try:
        answer = await scene.server.slash(user, scene.channel_id, name, options)
    except RefusedByClient:
        # Discord checks types, ranges and choices before a bot sees them: not sendable.
        return
    assert answer.callback_type in (4, 5), answer.text()
    assert answer.ephemeral, f"{name} {raw} from {who}: {answer.text()}"
    assert APOLOGY not in answer.text(), f"{name} {raw} from {who}: an unhandled error"
    assert _state(scene) == before
