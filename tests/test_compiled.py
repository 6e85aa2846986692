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
from umtali import RuleSet, Session
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


def from_sources(module: str, call: str) -> str:
    """What ``module``'s ``call`` returns when the engine runs from its sources
    (``UMTALI_ENGINE=interpreted``, in a new interpreter)."""
    code = f"import umtali, {module} as t; print(umtali.ENGINE); print(t.{call})"
    engine, out = _run(code, env={"UMTALI_ENGINE": "interpreted"}).splitlines()
    assert engine == "interpreted: UMTALI_ENGINE=interpreted"
    return out


@needs_compiled
def test_compiled_and_interpreted_play_the_same() -> None:
    assert digest() == from_sources("tests.test_compiled", "digest()")


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


def test_hands_and_views_pickle_and_copy_whole() -> None:
    """The computer players' processes get views by pickle, the coach deep-copies players, and
    a compiled class pickles only by what it says (``__reduce__``): each comes back whole."""
    import copy
    import pickle

    session = Session(RuleSet.english(), "pickled")
    players = (GreedyPlayer(), GreedyPlayer())
    while len(session.hand.plays) < 3:
        session.apply(players[session.hand.turn].choose(session.view(session.hand.turn)))
    hand, view = session.hand, session.view(session.hand.turn)
    for again in (pickle.loads(pickle.dumps(hand)), copy.deepcopy(hand), hand.copy()):
        assert again is not hand and again.hands is not hand.hands
        for name in ("hands", "stock", "discard_pile", "melds", "plays", "points", "turn",
                     "phase", "taken", "must_meld", "drawn", "out", "turns"):
            assert getattr(again, name) == getattr(hand, name), name
        assert again.legal_moves() == hand.legal_moves()
    for seen in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view)):
        assert (seen.hand, seen.legal_moves, seen.discard_pile) == (
            view.hand, view.legal_moves, view.discard_pile)
        assert (seen.plays, seen.melds, seen.to_act) == (view.plays, view.melds, view.to_act)
        assert seen.plays and seen.melds


def test_a_build_that_fails_leaves_the_sources_to_run(tmp_path: Path) -> None:
    """Code mypyc cannot compile (or no compiler): with ``--or-interpreted`` (``make run``,
    ``make play``) the build says so and succeeds, leaving nothing compiled, and the game
    runs from its sources; without it (``make test``) the build fails."""
    shutil.copy(ROOT / "compile_engine.py", tmp_path)
    shutil.copytree(HERE, tmp_path / "umtali",
                    ignore=shutil.ignore_patterns("__pycache__", f"*{SUFFIX}", "compiled.txt"))
    melds = tmp_path / "umtali" / "melds.py"
    melds.write_text(melds.read_text(encoding="utf-8")
                     + "\n\nclass Uncompilable(int):\n    pass\n", encoding="utf-8")

    def build(*flags: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "compile_engine.py", *flags], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)

    forgiving = build("--or-interpreted")
    assert forgiving.returncode == 0, forgiving.stderr
    assert "engine: NOT compiled" in forgiving.stderr
    assert not list((tmp_path / "umtali").glob(f"*{SUFFIX}"))
    assert not (tmp_path / "umtali" / "compiled.txt").exists()
    assert _run("import umtali; print(umtali.ENGINE)", path=tmp_path) == (
        "interpreted: not compiled; make compiles it")
    assert build().returncode != 0
