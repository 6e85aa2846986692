"""The ORDER of the listed legal moves is pinned, not only the set.

Computer players pick from the list by index and recorded seeds replay through them, so a
faster listing must list the same moves in the same order. The digests were computed on the
engine before it was made faster; a change of order (or of any move, event or score) fails.
(Computed again on 2026-12-02 when ``WentOut`` gained ``ends_hand``, and on 2026-12-06 when
``HandEnded`` gained ``rebuilt``: with the new field left out of the events' text, the old
digests still held each time, so no move or order changed.)

Three sources of positions: random play in each rule set; play that takes two and melds
whenever it can (so the search behind ``take 2`` and the melds it then forces are listed
often); and hands biased to jacks, tens and court cards, where that search works hardest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from tests.test_take_two_search import RULES, hardest_position
from umtali import RuleSet, Session
from umtali.cards import CARDS
from umtali.hand import HandState
from umtali.moves import Move, MoveKind

_MELDING = (MoveKind.TAKE_TWO, MoveKind.MELD, MoveKind.EXTEND)


def _line(h: HandState) -> str:
    # ``repr`` of a move is its full notation, face-down discards included.
    return " | ".join(repr(m) for m in h.legal_moves())


def _played(rules: RuleSet, seeds: range, greedy: bool) -> str:
    digest = hashlib.sha256()
    for seed in seeds:
        session = Session(rules, seed)
        rng = random.Random(seed)
        while not session.over:
            digest.update(_line(session.hand).encode())
            legal = session.legal_moves()
            keen = [m for m in legal if m.kind in _MELDING] if greedy else []
            move = rng.choice(keen or legal)
            for e in session.apply(move):
                digest.update(repr(e).encode())
        digest.update(repr(session.hand_log).encode())
    return digest.hexdigest()


PLAYED = {
    ("english", False):
        "6112eb5a1f64cc908d8b4666999a6f1c015e45d92da48ef47bae1d8155e54e1d",
    ("russian", False):
        "e20cad00665712f340cdf5e5341398547dad8ebecbec30e347291760a24db349",
    ("optional", False):
        "3b6953a74c0bd072a2edbe9abc275d0b5417b09077dc46096a53ca0a93f8412a",
    ("english", True):
        "35f2e513f03ed6544632728ab8620b7481e59c27c0553a620b01944cac08e65e",
    ("russian", True):
        "6b3e46d54ee4a0bbc9db114f81faf6f0a8a89e279ee0badd47b0c4adbe1ce561",
    ("optional", True):
        "7a3dd6d69f438539acb724cfb8ca66c18092afe7c837e39774874dc18fad750e",
}
_RULE_SETS = {"english": RuleSet.english(), "russian": RuleSet.russian(),
              "optional": RuleSet.english(optional_melding=True)}


@pytest.mark.parametrize(("name", "greedy"), list(PLAYED))
def test_legal_moves_keep_their_order_in_play(name: str, greedy: bool) -> None:
    assert _played(_RULE_SETS[name], range(3), greedy) == PLAYED[name, greedy]


def _hunted(count: int, seed: int) -> str:
    """Biased random hands, listed in the draw phase and, where legal, after ``take 2``."""
    rng = random.Random(seed)
    weights = [6 if c % 13 + 1 >= 9 else 1 for c in range(52)]
    digest = hashlib.sha256()
    for _ in range(count):
        variant = rng.choice(list(RULES))
        picked: list[int] = []
        while len(picked) < 12:
            c = rng.choices(range(52), weights)[0]
            if c not in picked:
                picked.append(c)
        hand = " ".join(CARDS[c].code for c in picked[:10])
        pile = " ".join(CARDS[c].code for c in picked[10:])
        h = hardest_position(variant, hand, pile, "draw")
        digest.update(_line(h).encode())
        if Move.take_two() in h.legal_moves():
            seat = h.turn
            h.apply(Move.take_two())
            # Lay the listed melds one by one, as long as there are any: every step listed.
            while not h.over and h.turn == seat:
                digest.update(_line(h).encode())
                melds = [m for m in h.legal_moves() if m.kind in _MELDING]
                if not melds:
                    break
                h.apply(melds[rng.randrange(len(melds))])
    return digest.hexdigest()


HUNTED = "2198ea6d9fe1dfe7ea41b1ac3a26046f602032a619998dc89c5de106ec6aeb1d"


def test_legal_moves_keep_their_order_in_hard_positions() -> None:
    assert _hunted(400, 7) == HUNTED
