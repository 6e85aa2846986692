"""Golden playthroughs: seed + moves -> events and scores, kept as text and checked exactly.

Regenerate after a deliberate rules change with
``UMTALI_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from umtali import RuleSet, Session
from umtali.players import GreedyPlayer, Player, RandomPlayer
from umtali.text import describe

GOLDEN = Path(__file__).parent / "golden"
NAMES = ("Ada", "Ben")
CASES = {
    "english-greedy-seed1": (RuleSet.english(), 1, "greedy"),
    "russian-greedy-seed2": (RuleSet.russian(), 2, "greedy"),
    "english-optional-random-seed3": (RuleSet.english(optional_melding=True), 3, "random"),
}


def _record(rules: RuleSet, seed: int, players: str) -> str:
    session = Session(rules, seed)
    seats: list[Player] = (
        [GreedyPlayer(), GreedyPlayer()] if players == "greedy"
        else [RandomPlayer(seed), RandomPlayer(seed + 1)]
    )
    lines = [describe(e, NAMES) for e in session.opening]
    while not session.over:
        seat = session.to_act
        move = seats[seat].choose(session.view(seat))
        lines.append(f"> {move}")
        lines.extend(describe(e, NAMES) for e in session.apply(move))
    header = [
        f"# Umtali golden playthrough: {rules.describe()}, seed {seed}, {players} players.",
        f"rules: {rules.name}{' optional' if rules.optional_melding else ''}",
        f"seed: {seed}",
        f"final: games {session.games_won[0]}-{session.games_won[1]}, winner {session.winner}",
    ]
    return "\n".join(header + lines) + "\n"


def _replay(text: str, rules: RuleSet, seed: int) -> str:
    """Rebuild the file from its own moves: the players are not consulted."""
    moves = [line[2:] for line in text.splitlines() if line.startswith("> ")]
    session = Session(rules, seed)
    lines = [describe(e, NAMES) for e in session.opening]
    for m in moves:
        lines.append(f"> {m}")
        lines.extend(describe(e, NAMES) for e in session.apply_text(m))
    header = text.splitlines()[:3]
    header.append(
        f"final: games {session.games_won[0]}-{session.games_won[1]}, winner {session.winner}"
    )
    return "\n".join(header + lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    rules, seed, players = CASES[name]
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UMTALI_UPDATE_GOLDEN"):
        path.write_text(_record(rules, seed, players), encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert _replay(expected, rules, seed) == expected
    # The players themselves are deterministic too.
    assert _record(rules, seed, players) == expected
