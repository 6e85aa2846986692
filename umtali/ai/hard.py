"""The ``hard`` level: the ``normal`` policy, with its discards and its meld choices checked by
search (``search``) in worlds dealt to fit what the seat has seen (``determinize``).

Where the search pays was measured on a few hundred positions from self-play, against values
from 600 worlds per move: the ``normal`` choice of draw was as good as the best (a gain of 0.01
points a decision), while a better discard was worth about half a point. So the draw is not
searched and the discards get the whole budget. The budget counts moves played in playouts, not
time, so a seed and a view always give the same move.
"""

from __future__ import annotations

import random

from umtali.ai import policy
from umtali.ai.determinize import rules_of
from umtali.ai.memory import Memory
from umtali.ai.outlook import Outlook, of_view
from umtali.ai.search import search
from umtali.ai.stakes import Stakes
from umtali.cards import mask_of
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView


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
    better, scored by the chance of winning the game (``stakes``) rather than by points."""

    def __init__(
        self,
        seed: int | str = 0,
        budget: int = 4500,
        width: int = 6,
        z: float = 1.0,
        stakes: bool = True,
    ) -> None:
        self.seed = seed
        #: Moves played in playouts per searched decision, shared among the candidates (some
        #: 150 to 450 playouts, fewer early in a hand when playouts are longer).
        self.budget = budget
        #: How many of the best-judged discards are searched.
        self.width = width
        #: How clearly a searched move must beat the ``normal`` choice to replace it.
        self.z = z
        #: Score playouts by the chance of winning the game (else by the hand's points).
        self.stakes = stakes
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
            value = Stakes.of(view, rules.hands_per_game).value if self.stakes else float
            i = search(view, candidates, rng, self.budget, model, rules, value, self.z)
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
