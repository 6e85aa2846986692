"""The ``hard`` level: the ``normal`` policy, with its discards and its meld choices checked by
search (``search``) in worlds dealt to fit what the seat has seen (``determinize``).

Where the search pays was measured on a few hundred positions from self-play, against values
from 600 worlds per move: the ``normal`` choice of draw was as good as the best (a gain of 0.01
points a decision), while a better discard was worth about half a point. So the draw is not
searched and the discards get the whole budget. Against the opponent's real hand, though, the
sampled worlds mislead the search once the opponent is near going out, so it stops there.

The gain is modest: about three quarters of a point a hand over ``normal`` (``bench/ai.py``);
the opponent's hidden hand decides far more than a better discard does.

The budget counts moves played in playouts, not time, so a seed and a view always give the
same move.
"""

from __future__ import annotations

import random

from umtali.ai import policy
from umtali.ai.determinize import rules_of
from umtali.ai.memory import Memory
from umtali.ai.outlook import Outlook, of_view
from umtali.ai.search import search
from umtali.cards import mask_of
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView

#: Discards are searched only while the opponent holds at least this many cards.
SEARCH_MIN_OPPONENT_CARDS = 4


def decision_key(view: PlayerView) -> str:
    """What identifies a decision, from the view alone: it seeds the search for that decision,
    so a player restarted mid-hand chooses as the original would have."""
    pile = ",".join("?" if c is None else c.code for c in view.discard_pile)
    return (
        f"{view.game}/{view.hand_no}/{view.phase}/{mask_of(view.hand)}/{len(view.plays)}/"
        f"{view.stock_size}/{pile}"
    )


class HardPlayer:
    """Plays as ``normal`` unless a search of its best few alternatives finds one clearly
    better by the points of the hand."""

    def __init__(
        self,
        seed: int | str = 0,
        budget: int = 4500,
        width: int = 6,
        z: float = 1.5,
    ) -> None:
        self.seed = seed
        #: Moves played in playouts per searched decision, shared among the candidates (some
        #: 150 to 450 playouts, fewer early in a hand when playouts are longer).
        self.budget = budget
        #: How many of the best-judged discards are searched.
        self.width = width
        #: How clearly a searched move must beat the ``normal`` choice to replace it, in
        #: standard errors (in games against ``normal``, 1.5 did better than 1 or 2).
        self.z = z
        self.memory = Memory()

    def choose(self, view: PlayerView) -> Move:
        model = self.memory.observe(view)
        rules = rules_of(view)
        outlook = of_view(view, model.known, rules.optional_melding)
        candidates = self.candidates(outlook, view.legal_moves)
        if len(candidates) == 1:
            move = candidates[0]
        else:
            rng = random.Random(f"{self.seed}:{decision_key(view)}")
            i = search(view, candidates, rng, self.budget, model, rules, self.z)
            move = candidates[i]
        self.memory.note(view, move)
        return move

    def candidates(self, o: Outlook, legal: tuple[Move, ...]) -> list[Move]:
        """The moves worth searching, best-judged first."""
        if len(legal) == 1:
            return [legal[0]]
        if legal[0].kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            return [policy.choose_draw(o, legal)]
        lays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
        if lays:
            return self.meld_candidates(o, lays)
        if o.hand.bit_count() == 1 or o.last_turn:
            # Nothing to search: the hand ends with this discard, and in the last turn shedding
            # the highest card is simply best.
            return [policy.choose(o, legal)]
        if o.opponent_size < SEARCH_MIN_OPPONENT_CARDS:
            # An opponent this near going out holds a hand waiting to go out, which the sampled
            # worlds fail to show: measured against the real hands, the search then chose worse
            # than ``normal``.
            return [policy.choose(o, legal)]
        return policy.rank_discards(o, legal)[: self.width]

    def meld_candidates(self, o: Outlook, lays: list[Move]) -> list[Move]:
        """One meld for each different hand the turn's melds can leave: most meld choices only
        change the order of the same melds, and those need no search."""
        out: list[Move] = []
        left_by: set[int] = set()
        for move, left in policy.rank_melds(o, lays):
            if left not in left_by:
                left_by.add(left)
                out.append(move)
        return out[: self.width]
