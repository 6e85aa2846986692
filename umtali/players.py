"""Computer players. They see only their seat's ``PlayerView``, never the full state."""

from __future__ import annotations

import random
from typing import Protocol

from umtali.cards import CARDS, JACKS, mask_of
from umtali.melds import cover
from umtali.moves import Move, MoveKind
from umtali.reach import NEIGHBOURS
from umtali.view import PlayerView


class Player(Protocol):
    def choose(self, view: PlayerView) -> Move: ...


#: The bits ``choice`` draws for a sequence of each length: more than any listing holds (at most
#: 144 sequences, 60 groups, 4 marriages, 4 jacks, 52 extensions and 53 discards).
_BIT_LENGTH = tuple(n.bit_length() for n in range(512))


class RandomPlayer:
    """Plays a uniformly random legal move: the baseline, and the fuzzer of the rules."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        # ``self.rng.choice(view.legal_moves)`` written out (the same draws, so the same moves
        # for a seed): it is called for every move of a simulation, and its calls (the property
        # too: the view's slot is read instead) cost more than the rest of it.
        legal = view._legal
        n = len(legal)
        # The method called on its generator each time: no bound method is made.
        rng = self.rng
        try:
            k = _BIT_LENGTH[n]
        except IndexError:
            k = n.bit_length()  # (no listing is that long: see ``_BIT_LENGTH``)
        r = rng.getrandbits(k)
        while r >= n:
            if not n:  # (``getrandbits(0)`` is 0: checked only then)
                raise IndexError("Cannot choose from an empty sequence")
            r = rng.getrandbits(k)
        return legal[r]


def _table_accepts(view: PlayerView) -> int:
    acc = 0
    for m in view.melds:
        acc |= mask_of(m.accepts())
    return acc


class GreedyPlayer:
    """The ``easy`` level: takes a discard it can use, lays the biggest melds first, and throws
    away the card least likely to join a meld, high points first."""

    def choose(self, view: PlayerView) -> Move:
        legal = view.legal_moves
        kinds = {m.kind: m for m in legal}
        hand = mask_of(view.hand)
        if MoveKind.TAKE_TWO in kinds:
            return kinds[MoveKind.TAKE_TWO]
        if MoveKind.TAKE in kinds or MoveKind.DRAW in kinds:
            top = view.top_discard
            if MoveKind.TAKE in kinds and top is not None and self._usable(view, hand, top):
                return kinds[MoveKind.TAKE]
            return kinds.get(MoveKind.DRAW, legal[0])
        melds = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
        if melds:
            return max(melds, key=lambda m: (_meld_value(m), m.cards))
        discards = [m for m in legal if m.kind is MoveKind.DISCARD]
        if len(view.hand) == 1:
            down = [m for m in discards if m.face_down]
            if down:
                return down[0]
        return min(discards, key=lambda m: self._keep_value(hand, m.card))

    @staticmethod
    def _usable(view: PlayerView, hand: int, card: int) -> bool:
        bit = 1 << card
        return bool(bit & (JACKS | _table_accepts(view)) or cover(hand | bit) & bit)

    @staticmethod
    def _keep_value(hand: int, card: int) -> tuple[int, int]:
        # Cards with neighbours in hand may complete a meld; among the rest, shed high points.
        links = (NEIGHBOURS[card] & hand).bit_count()
        return (links, -CARDS[card].points)


def _meld_value(move: Move) -> int:
    points = sum(CARDS[c].points for c in move.card_list)
    return points * 10 + move.cards.bit_count()
