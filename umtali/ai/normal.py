"""The ``normal`` level: one careful look at the position, no search."""

from __future__ import annotations

from umtali.ai import policy
from umtali.ai.determinize import rules_of
from umtali.ai.memory import Memory
from umtali.ai.outlook import of_view
from umtali.moves import Move
from umtali.view import PlayerView


class NormalPlayer:
    """Judges every card by what keeping it may earn and what discarding it may give away
    (``heuristics``), and plans each turn's melds; remembers what the opponent took."""

    def __init__(self, seed: int | str = 0) -> None:
        self.memory = Memory()

    def choose(self, view: PlayerView) -> Move:
        model = self.memory.observe(view)
        outlook = of_view(view, model.known, rules_of(view).optional_melding)
        move = policy.choose(outlook, view.legal_moves)
        self.memory.note(view, move)
        return move
