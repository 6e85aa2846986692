"""The engine compiled by mypyc (``compile_engine.py``, run by ``make``) is the engine of the
sources: the same listings, moves and scores; and a source changed since it was compiled runs
from its source, never from the old compiled code."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import umtali
from umtali import Session
from umtali.compiled import HERE, SUFFIX, check, read_manifest
from umtali.players import GreedyPlayer, Player, RandomPlayer

ROOT = Path(__file__).resolve().parent.parent
needs_compiled = pytest.mark.skipif(
    not read_manifest(), reason="the engine is not compiled here (make compiles it)"
)


def digest(sessions: int = 24) -> str:
    """A hash of whole sessions of random and greedy play in three rule sets: every listing
    each seat's view shows, every move and every hand's scores; and of every listing of the
    positions where the take-two search works hardest."""
    from tests.test_take_two_search import CASES, RULES, hardest_position

    h = hashlib.sha256()
    for i in range(sessions):
        rules = list(RULES.values())[i % len(RULES)]
        session = Session(rules, f"compiled-{i}")
        players: tuple[Player, Player] = (
            (RandomPlayer(i), GreedyPlayer()) if i % 2 else (RandomPlayer(i), RandomPlayer(-i))
        )
        while not session.over:
            seat = session.hand.turn
            view = session.view(seat)
            h.update(" ".join(map(str, view.legal_moves)).encode())
            move = players[seat].choose(view)
            h.update(f"|{move}|".encode())
            session.apply(move)
        h.update(repr(session.hand_log).encode())
    for variant, hand, pile, phase, _ in CASES:
        position = hardest_position(variant, hand, pile, phase)
        h.update(" ".join(map(str, position.legal_moves())).encode())
    return h.hexdigest()


def _run(code: str, *, env: dict[str, str] | None = None, path: Path = ROOT) -> str:
    """``code`` run in a new interpreter in ``path``, first on its path; what it prints."""
    full = {**os.environ, **(env or {}), "PYTHONPATH": str(path)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=path, env=full, capture_output=True, text=True,
        check=True, timeout=300,
    )
    return out.stdout.strip()


@needs_compiled
def test_the_compiled_engine_is_what_runs() -> None:
    import umtali.listing
    import umtali.turns

    assert check() == (True, f"{len(read_manifest())} modules, by mypyc")
    assert umtali.ENGINE.startswith("compiled")
    assert umtali.turns.__file__ is not None and umtali.turns.__file__.endswith(SUFFIX)
    assert umtali.listing.__file__ is not None and umtali.listing.__file__.endswith(SUFFIX)


@needs_compiled
def test_compiled_and_interpreted_play_the_same() -> None:
    code = "import umtali, tests.test_compiled as t; print(umtali.ENGINE); print(t.digest())"
    engine, theirs = _run(code, env={"UMTALI_ENGINE": "interpreted"}).splitlines()
    assert engine == "interpreted: UMTALI_ENGINE=interpreted"
    assert digest() == theirs


def test_a_digest_tells_a_changed_game() -> None:
    # (The comparison above can fail: other sessions give another hash.)
    assert digest(2) != digest(3)


@needs_compiled
def test_a_source_changed_since_compiling_runs_from_its_source(tmp_path: Path) -> None:
    """A copy of the package, compiled as here; one source then changed: every compiled
    module runs from its source, and the game still plays."""
    copy = tmp_path / "umtali"
    shutil.copytree(HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    probe = (
        "import umtali, umtali.turns, umtali.listing\n"
        "from umtali import Session, RuleSet\n"
        "from umtali.players import RandomPlayer\n"
        "s = Session(RuleSet.english(), 1); p = RandomPlayer(1)\n"
        "while not s.over: s.apply(p.choose(s.view(s.hand.turn)))\n"
        "print(umtali.ENGINE); print(umtali.turns.__file__); print(umtali.listing.__file__)\n"
        "print(s.hand_log[-1])\n"
    )
    engine, turns, listing, last = _run(probe, path=tmp_path).splitlines()
    assert engine.startswith("compiled") and turns.endswith(SUFFIX), engine
    assert turns.startswith(str(copy))
    source = copy / "turns.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    engine, turns, listing, changed = _run(probe, path=tmp_path).splitlines()
    assert engine == (
        "interpreted: umtali/turns.py changed since it was compiled; make compiles it again"
    )
    assert turns == str(source) and listing == str(copy / "listing.py")
    assert changed == last


@needs_compiled
def test_no_manifest_runs_every_module_from_its_source(tmp_path: Path) -> None:
    copy = tmp_path / "umtali"
    shutil.copytree(HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "compiled.txt").unlink()
    out = _run(
        "import umtali, umtali.melds, umtali.search; print(umtali.ENGINE); "
        "print(umtali.melds.__file__); print(umtali.search.__file__)",
        path=tmp_path,
    ).splitlines()
    assert out == [
        "interpreted: not compiled; make compiles it",
        str(copy / "melds.py"),
        str(copy / "search.py"),
    ]


def test_the_engine_says_which_runs() -> None:
    compiled, why = check()
    engine = umtali.ENGINE
    assert engine == f"{'compiled' if compiled else 'interpreted'}: {why}"
