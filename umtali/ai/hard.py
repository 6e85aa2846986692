"""The ``hard`` level: the ``normal`` policy's best few moves, each tried by search.

Only decisions with a real choice are searched: the draw (stock or discard pile) and the
discard. Melds within a turn follow the ``normal`` plan, which already lays the richest series.
The search budget is a fixed number of playouts, not a time, so a seed and a view always give
the same move.
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
    def __init__(
        self,
        seed: int | str = 0,
        playouts: int = 160,
        width: int = 6,
        z: float = 1.0,
        stakes: bool = True,
    ) -> None:
        self.seed = seed
        #: Playouts per searched decision, shared among the candidates.
        self.playouts = playouts
        #: How many of the best-judged discards are searched.
        self.width = width
        #: How clearly a searched move must beat the ``normal`` choice to replace it.
        self.z = z
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
            i = search(view, candidates, rng, self.playouts, model, rules, value, self.z)
            move = candidates[i]
        self.memory.note(view, move)
        return move

    def candidates(self, o: Outlook, legal: tuple[Move, ...]) -> list[Move]:
        """The moves worth searching, best-judged first."""
        if len(legal) == 1:
            return [legal[0]]
        kind = legal[0].kind
        if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            first = policy.choose_draw(o, legal)
            return [first, *(m for m in legal if m != first)]
        lays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
        if lays:
            return self.meld_candidates(o, lays)
        if o.hand.bit_count() == 1:
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
