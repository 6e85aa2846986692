"""The computer players' hot modules (``umtali/ai``: the judgement of cards, the playouts, the
sampled worlds) compiled by mypyc with the engine are the same players: ``hard`` and
``normal`` choose the same moves compiled and from the sources, players still pickle and copy
whole, and a changed ``umtali/ai`` source runs every compiled module from its source."""

from __future__ import annotations

import copy
import hashlib
import pickle
import shutil
from pathlib import Path

import pytest

from tests.test_compiled import _run, from_sources
from umtali import RuleSet, Session
from umtali.ai import HardPlayer, NormalPlayer
from umtali.ai.determinize import rules_of
from umtali.ai.outlook import of_view
from umtali.compiled import HERE, SUFFIX, read_manifest
from umtali.players import Player

needs_compiled = pytest.mark.skipif(
    not read_manifest(), reason="the engine is not compiled here (make compiles it)"
)


def choices(games: int = 2) -> str:
    """A hash of every move ``hard`` and ``normal`` choose over the first game of ``games``
    sessions (each seat in turn, both rule sets; in the second, ``hard`` searches its discards
    too), and ``hard``'s judgement (its move and the move for points alone) of each of its
    positions."""
    h = hashlib.sha256()
    for i in range(games):
        rules = RuleSet.russian() if i % 2 else RuleSet.english()
        session = Session(rules, f"ai-compiled-{i}")
        hard = HardPlayer(f"hard-{i}", discard_budget=1000 if i % 2 else 0)
        normal = NormalPlayer()
        players: tuple[Player, Player] = (hard, normal) if i % 2 == 0 else (normal, hard)
        game = session.game
        while not session.over and session.game == game:
            seat = session.to_act
            view = session.view(seat)
            if players[seat] is hard and len(view.legal_moves) > 1:
                # The judgement with a memory copied aside: ``choose`` then remembers as usual.
                model = copy.deepcopy(hard.memory).observe(view)
                h.update(" ".join(map(str, hard.judge(view, model))).encode())
            move = players[seat].choose(view)
            h.update(f"|{move}|".encode())
            session.apply(move)
        h.update(repr(session.hand_log).encode())
    return h.hexdigest()


@needs_compiled
def test_the_ai_modules_run_compiled() -> None:
    import umtali.ai.heuristics
    import umtali.ai.search

    assert {"ai.heuristics", "ai.search", "ai.policy", "ai.determinize"} <= set(read_manifest())
    for module in (umtali.ai.search, umtali.ai.heuristics):
        assert module.__file__ is not None and module.__file__.endswith(SUFFIX)


@needs_compiled
def test_hard_chooses_the_same_moves_compiled_and_interpreted() -> None:
    assert choices() == from_sources("tests.test_compiled_ai", "choices()")


def test_the_choices_hash_tells_other_play() -> None:
    # (The comparison above can fail: another game gives another hash.)
    assert choices(1) != choices(2)


def test_players_pickle_and_copy_and_choose_as_before() -> None:
    """The computer pool pickles players, the coach deep-copies them: a copy made mid-hand,
    its memory included, chooses what the original chooses from there on; the outlook and the
    model of the opponent (classes of compiled modules) pickle too."""
    session = Session(RuleSet.english(), "pickled-players")
    players = (HardPlayer("p0"), NormalPlayer())
    while len(session.hand.plays) < 4 or session.to_act != 0:
        seat = session.to_act
        session.apply(players[seat].choose(session.view(seat)))
    view = session.view(0)
    model = copy.deepcopy(players[0].memory).observe(view)
    outlook = of_view(view, model.known, rules_of(view).optional_melding)
    assert pickle.loads(pickle.dumps(model)) == model and copy.deepcopy(model) == model
    assert pickle.loads(pickle.dumps(outlook)) == outlook
    assert model.known or model.meld_free  # a memory with something in it
    for player in players:
        for twin in (pickle.loads(pickle.dumps(player)), copy.deepcopy(player)):
            assert type(twin) is type(player) and twin.memory is not player.memory
            assert vars(twin.memory) == vars(player.memory)

    def rest_of_hand(pair: tuple[HardPlayer, NormalPlayer], game: Session) -> list[str]:
        moves, hand_no = [], game.hand_no
        while game.hand_no == hand_no and not game.over:
            move = pair[game.to_act].choose(game.view(game.to_act))
            moves.append(str(move))
            game.apply(move)
        return moves

    twins = (pickle.loads(pickle.dumps(players)), copy.deepcopy(players))
    theirs = [rest_of_hand(twin, session.copy()) for twin in twins]
    ours = rest_of_hand(players, session)
    assert len(ours) > 4 and theirs == [ours, ours]


@needs_compiled
def test_a_changed_ai_source_runs_every_module_from_its_source(tmp_path: Path) -> None:
    copy_of = tmp_path / "umtali"
    shutil.copytree(HERE, copy_of, ignore=shutil.ignore_patterns("__pycache__"))
    probe = (
        "import umtali, umtali.turns, umtali.ai.search, umtali.ai.policy\n"
        "print(umtali.ENGINE); print(umtali.turns.__file__); print(umtali.ai.search.__file__)\n"
        "print(umtali.ai.policy.__file__)\n"
    )
    engine, turns, search, policy = _run(probe, path=tmp_path).splitlines()
    assert engine.startswith("compiled")
    assert all(f.endswith(SUFFIX) for f in (turns, search, policy))
    source = copy_of / "ai" / "heuristics.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert _run(probe, path=tmp_path).splitlines() == [
        "interpreted: umtali/ai/heuristics.py changed since it was compiled; "
        "make compiles it again",
        str(copy_of / "turns.py"),
        str(copy_of / "ai" / "search.py"),
        str(copy_of / "ai" / "policy.py"),
    ]
