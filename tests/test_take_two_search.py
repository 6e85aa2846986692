"""The take-two search gives the same answers as before it was made fast.

Each case is a position where the search worked hardest (found by the random hunt in
``bench/engine.py``), with the moves the exhaustive search listed before memoising on the
table's melds in any order and pruning stranded required cards. The player to act holds the
hand, the discard pile is the two cards (the top last), and ``after take 2`` is the position
once that player has taken both.
"""

from __future__ import annotations

import pytest

from tests.helpers import cards, mask
from umtali import RuleSet
from umtali.hand import HandState
from umtali.moves import Move
from umtali.search import _may_meld_all

RULES = {
    "english": RuleSet.english(),
    "russian": RuleSet.russian(),
    "english-optional": RuleSet.english(optional_melding=True),
}

CASES = [
    ('russian', '9S 10S JS QS KS 10H 10D JD 10C JC', 'KC JH', 'draw',
     ['draw', 'take']),
    ('english-optional', '10C QS QD JD KD JH JC JS 10H KS', '10S 9H', 'draw',
     ['draw', 'take']),
    ('russian', '9H QD KD JD JS JH 9D 5H 9C JC', 'KS 9S', 'draw',
     ['draw', 'take']),
    ('russian', 'JS 10D 9S 9D KD JD QD 9C JH JC', '10H KH', 'draw',
     ['draw', 'take']),
    ('english', 'JS QH 10H 9C 9S JC JD 9D 5C JH', '9H 8C', 'draw',
     ['draw', 'take']),
    ('russian', 'JH JD JS 9D 9C 9S JC KD QC KS', '8S KC', 'draw',
     ['draw', 'take']),
    ('english', '9D QC 10D 10C KC JC 9S 9H JH JD', 'KD 9C', 'draw',
     ['draw', 'take']),
    ('english', '10S QS 10C JC 9C JS JH JD QC KS', 'KH 9S', 'draw',
     ['draw', 'take']),
    ('russian', 'QC JH KC JC 9S 9H 9D 10C 8S JD', 'KD JS', 'draw',
     ['draw', 'take']),
    ('russian', '3H JS JC 9D 9S 10C JH QH KH JD', '9H 8H', 'draw',
     ['draw', 'take']),
    ('russian', 'QS 10C JS JH JC 10S JD QH KD KH', '9C 10H', 'draw',
     ['draw', 'take']),
    ('english', 'KH 9H 9C QS JH JC JD 2H QH 9D', 'JS 8D', 'draw',
     ['draw', 'take']),
    ('english-optional', '9D 9C KS JS AD JD JC JH 9S QH', '8D QS', 'draw',
     ['draw', 'take']),
    ('english', 'JS JC 4S 10D JH KS QH JD 10C 10H', 'QS KC', 'draw',
     ['draw', 'take']),
    ('english', '9C KD 9S 9H JH QD QS JD JS 2D', 'JC KH', 'draw',
     ['draw', 'take']),
    ('english-optional', 'QD 10D JC QS 10H JD JH 10S JS AS', 'KH KD', 'draw',
     ['draw', 'take']),
    ('russian', 'JH 10H KH KD QH JD 10S 9S 8S JC', '9D QD', 'draw',
     ['draw', 'take']),
    ('russian', 'JH JS 9H 10C JC JD 9S KH 9D 6H', '8D 9C', 'draw',
     ['draw', 'take']),
    ('english-optional', '4C JS 10C QS JC 9C KD 10S JD QD', 'JH KC', 'draw',
     ['draw', 'take']),
    ('english-optional', 'QD JC 10S 10C KC KS JD JS KH 10H', '9S KD', 'draw',
     ['draw', 'take']),
    ('russian', 'JS QC 10C 9D KC JD KS 10S JH QS', 'JC KD', 'after take 2',
     ['meld JC', 'meld JD', 'meld JH', 'meld JS', 'meld KS KD KC']),
    ('russian', 'JD 9C QC JH KC QS JC 9S 10C JS', '10D KD', 'draw',
     ['draw', 'take']),
    ('english', 'JH JS KD QH QD 10D AD QC KH JD', 'KS JC', 'after take 2',
     ['meld JC', 'meld JD', 'meld JH', 'meld JS', 'meld KS KH KD', 'meld QH QD QC']),
    ('russian', 'JH KC QS 10C QD JD JS KD 9H QC', 'KH JC', 'after take 2',
     ['meld JC', 'meld JD', 'meld JH', 'meld JS', 'meld KH KD KC', 'meld QS QD QC']),
    # KC goes out only in a pair with KD, leaving QD to discard; under compulsory melding no
    # meld may then take QD, so JD must lie in a group of jacks and 10D has no way out.
    ('english', 'KD JD 9D JC JS 9C 9H JH 10D QD', 'KC 9S', 'draw',
     ['draw', 'take']),
    ('english-optional', 'KD JD 9D JC JS 9C 9H JH 10D QD', 'KC 9S', 'draw',
     ['draw', 'take', 'take 2']),
    # The taken card that goes out only in a pair would leave the other taken card (married to
    # the pair's king, or with its run through the pair's ten) as the discard.
    ('russian', 'KH 9D 10S 10D JD 9S JH JS JC QS', 'QH KD', 'draw',
     ['draw', 'take']),
    ('russian', '10C JD JH 9C JS 10D JC QH KS', 'QS KC', 'draw',
     ['draw', 'take']),
    ('english-optional', 'QD KH QH JH QC 10C KD JC JS QS', '9C 10D', 'draw',
     ['draw', 'take']),
    # 9D goes out only in a pair with 9S, leaving 8S to discard; 10S makes 8-9-10 with them
    # all the while, so it may not extend JS and has no way out.
    ('english', 'KH 8S 10S KD JH QH JC JS JD QD', '9S 9D', 'draw',
     ['draw', 'take']),
]


def hardest_position(variant: str, hand: str, pile: str, phase: str) -> HandState:
    mine = mask(hand)
    discard = cards(pile)
    rest = [c for c in range(52) if not mine >> c & 1 and c not in discard]
    theirs = sum(1 << c for c in rest[:10])
    h = HandState.from_position(RULES[variant], 1, (mine, theirs), rest[10:], discard, "t")
    if phase == "after take 2":
        h.apply(Move.take_two())
    return h


@pytest.mark.parametrize(("variant", "hand", "pile", "phase", "expected"), CASES)
def test_hardest_take_two_positions_list_the_same_moves(
    variant: str, hand: str, pile: str, phase: str, expected: list[str]
) -> None:
    h = hardest_position(variant, hand, pile, phase)
    assert sorted(str(m) for m in h.legal_moves()) == expected


def test_quick_check_sees_the_discard_after_a_pair_must_be_unmeldable() -> None:
    """The hardest position of the hunt (the search tried some 38 million instructions' worth
    of orders of laying jacks and nines before): the quick check alone now says no, and says
    yes under optional melding, where the discard after a pair may be any card."""
    hand = mask("KD JD 9D JC JS 9C 9H JH 10D QD KC 9S")
    two = mask("KC 9S")
    assert not _may_meld_all(hand, (), two, False)
    assert _may_meld_all(hand, (), two, True)
    # Without the queen the pair leaves 10D, which a chain from JD may lay: still a maybe.
    assert _may_meld_all(hand & ~mask("QD"), (), two, False)


def test_quick_check_never_leaves_a_taken_card_as_the_discard_after_a_pair() -> None:
    """KD goes out only in a pair with KH, and QH, married to KH, could then only be the
    discard; but QH was taken too and must be melded."""
    hand = mask("KH 9D 10S 10D JD 9S JH JS JC QS QH KD")
    assert not _may_meld_all(hand, (), mask("QH KD"), True)
    # Had only KD been taken, QH could be the discard (under optional melding).
    assert _may_meld_all(hand, (), mask("KD"), True)


def test_quick_check_sees_a_card_covered_by_the_pair_and_the_discard() -> None:
    """10S makes a new sequence with 9S (kept for the pair) and 8S (the discard), so the
    priority rule never lets it extend a run from JS."""
    hand = mask("KH 8S 10S KD JH QH JC JS JD QD 9S 9D")
    assert not _may_meld_all(hand, (), mask("9S 9D"), True)
    # Without 10S nothing else is stuck: the check says maybe.
    assert _may_meld_all(hand & ~mask("10S"), (), mask("9S 9D"), True)
