"""The ORDER of the listed legal moves is pinned, not only the set.

Computer players pick from the list by index and recorded seeds replay through them, so a
faster listing must list the same moves in the same order. The digests were computed on the
engine before it was made faster; a change of order (or of any move, event or score) fails.
(Computed again on 2026-12-02 when ``WentOut`` gained ``ends_hand``: with that field left out
of the events' text, the old digests still held, so no move or order changed.)

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
        "656f9a7969fa7dbba543c8fc6e96c5a9eb6b77e30136a5ad30cc57d6d84d168e",
    ("russian", False):
        "b1ebbad8b1c8682b422a64483166223a4a782728762b015427edd4a961f4b0b4",
    ("optional", False):
        "f9c3d3747abb551c1135ffaf1250501be1dc410af86e9091b6fc341f6a27cd9c",
    ("english", True):
        "f752deec228a787037d78c50a184b71a20ca3707fcf13607f5b72774c01c7c0c",
    ("russian", True):
        "15760d093318423ac8b58d3f6545a53bbf1f60f40f5daad2a257de0adae34548",
    ("optional", True):
        "6709b530569759194b74d929b2878e35d8c4974ce6a75317dbca3d78dc7c48cb",
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
