"""The ``hard`` level: the ``normal`` policy, with its discards looking one draw ahead
(``lookahead``), and its discards and meld choices checked by search (``search``) in worlds
dealt to fit what the seat has seen (``determinize``).

What each part gains, and what was tried and not kept, with the figures and the commands that
reproduce them: ``docs/AI.md``. In short: against ``normal``, +0.66 points a hand and 53.8% of
1,000 games; the ceiling with the opponent's real hand in the worlds is 61%.

The budget counts moves played in playouts, not time, so a seed and a view always give the
same move.
"""

from __future__ import annotations

import random

from umtali.ai import lookahead, policy, stakes, value
from umtali.ai.determinize import OpponentModel, rules_of
from umtali.ai.memory import Memory
from umtali.ai.outlook import Outlook, of_view
from umtali.ai.particles import ParticleMemory
from umtali.ai.search import Dealer, search
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
    """Plays as ``normal``, but draws and discards looking one draw ahead (``lookahead``),
    sheds another of ``normal``'s best discards, or lays another of its best melds, where a
    search finds it clearly better by the points of the hand."""

    def __init__(
        self,
        seed: int | str = 0,
        budget: int = 2000,
        width: int = 3,
        z: float = 1.0,
        for_the_game: bool = True,
        discard_budget: int = 4000,
        discard_width: int = 3,
        particles: int = 0,
        sharpness: float = 30.0,
        blend: float = 4.0,
        learned: bool = False,
    ) -> None:
        self.seed = seed
        #: Moves played in playouts per searched meld choice, shared among the candidates
        #: (some 65 to 200 playouts, fewer early in a hand when playouts are longer): about
        #: 0.1 s. Halved from 4,000 when the search was left only meld choices, which weigh
        #: little (a random choice of meld costs ``normal`` 0.35 points a hand) while its
        #: longest searches took most of a second.
        self.budget = budget
        #: How many of the best-judged meld choices are searched.
        self.width = width
        #: How clearly a searched move must beat the ``normal`` choice to replace it, in
        #: standard errors.
        self.z = z
        #: Whether the last hand of a game is played for the game (``stakes``).
        self.for_the_game = for_the_game
        #: Moves played in playouts per discard, searching the look ahead's choice against
        #: the others of ``normal``'s best ``discard_width``; 0: the look ahead alone.
        #: 4,000 gains +0.05 points a discard in some 50 ms (see above).
        self.discard_budget = discard_budget
        self.discard_width = discard_width
        #: Guesses of the opponent's hand carried through the hand (``particles``) that deal
        #: the searches' worlds; 0: worlds sampled from the view alone.
        self.memory = (
            ParticleMemory(seed, particles, sharpness, blend=blend) if particles else Memory()
        )
        #: Whether discards are chosen by the value learned from self-play (``value``) in
        #: place of the look ahead (off: see ``docs/AI.md``).
        self.learned = learned

    def choose(self, view: PlayerView) -> Move:
        move = self.decide(view, self.memory.observe(view))
        self.memory.note(view, move)
        return move

    def decide(self, view: PlayerView, model: OpponentModel) -> Move:
        """The move for ``view``, knowing ``model`` of the opponent (from ``memory``), without
        remembering it (the coach judges moves the player did not make)."""
        return self.judge(view, model)[0]

    def judge(self, view: PlayerView, model: OpponentModel) -> tuple[Move, Move]:
        """``decide``'s move, and the move played for points alone: they differ only where the
        last hand of a close game is played for the game (``stakes``), which the coach says."""
        rules = rules_of(view)
        outlook = of_view(view, model.known, rules.optional_melding)
        signals = (
            value.signals_of(view.discard_pile, model.discards) if self.learned else None
        )
        candidates = self.candidates(outlook, view.legal_moves, signals)
        key = decision_key(view)
        move = candidates[0]
        if len(candidates) > 1:
            rng = random.Random(f"{self.seed}:{key}")
            budget = self.discard_budget if move.kind is MoveKind.DISCARD else self.budget
            deal = self.worlds(view)
            move = candidates[search(view, candidates, rng, budget, model, rules, self.z, deal)]
        if not self.for_the_game:
            return move, move
        # In the last hand of an open game, a draw or discard may be worth more for the game.
        return stakes.for_the_game(view, outlook, move, model, rules, self.seed, key), move

    def worlds(self, view: PlayerView) -> Dealer | None:
        """Where the searches' worlds come from: None, sampled from the view. A bench may deal
        them from the truth instead (``bench/ceiling.py``), which no player may."""
        if isinstance(self.memory, ParticleMemory):
            return self.memory.dealer(view, rules_of(view))
        return None

    def candidates(
        self, o: Outlook, legal: tuple[Move, ...], signals: value.Signals | None = None
    ) -> list[Move]:
        """The moves worth searching, best-judged first (``signals``: the opponent's turns,
        for the learned value)."""
        if len(legal) == 1:
            return [legal[0]]
        if legal[0].kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            return [lookahead.choose_draw(o, legal)]
        lays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
        if lays:
            return self.meld_candidates(o, lays)
        # Discards look one draw ahead; with a ``discard_budget``, the search then checks the
        # look ahead's choice against ``normal``'s other best discards.
        if signals is not None and not o.last_turn and o.hand.bit_count() > 2 and o.live:
            chosen = value.choose_discard(o, legal, signals)
        else:
            chosen = lookahead.choose_discard(o, legal)
        if not self.discard_budget or o.last_turn or o.hand.bit_count() <= 1:
            return [chosen]
        ranked = policy.rank_discards(o, legal)[: self.discard_width]
        return [chosen, *(m for m in ranked if m != chosen)]

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
