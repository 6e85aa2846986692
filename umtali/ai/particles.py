"""A particle filter over the opponent's hand: guesses of it carried forward turn by turn
through everything the view shows of the opponent's play.

Every turn of the opponent is public but for a card drawn from the stock: the cards they took
from the pile (or the top card they left there), the cards they laid, the card they shed. A
particle is one guess of their hand. At each of their turns it takes the cards they took, or,
for a stock draw, a card from its own unseen pool (the card they laid next if the guess lacked
it); it must hold what they laid and shed (a guess lacking it is repaired, and weighs less, as
if the card had had to come from the stock); it is weighed by how likely a sensible player
(``normal``'s judgement of cards, ``keep_values``, softly: ``exp(-sharpness * gap)``) would
have shed that card from it, and by whether it could have melded the top card they left at
once (``normal`` takes such a card); a hand left holding a meld (compulsory melding) weighs
almost nothing. Cards the seat later sees (its own stock draws) are repaired out of the
guesses. Guesses are resampled when their weights grow uneven, duplicates moved a card.

View-only: the filter reads only the seat's views, in the order they were shown, through its
``Memory`` (so ``resume`` rebuilds it by replaying them); its random numbers are seeded by the
player's seed and the view, so a seed and a sequence of views give the same guesses.
"""

from __future__ import annotations

import math
import random

from umtali.ai.determinize import (
    OpponentModel,
    hidden_cards,
    melds_after,
    rules_of,
    sample_world,
    visible_pile_mask,
)
from umtali.ai.heuristics import keep_values
from umtali.ai.memory import Memory, Pile, read_turn
from umtali.ai.outlook import Outlook
from umtali.ai.search import Dealer
from umtali.cards import FULL_DECK, JACKS, iter_cards, mask_of
from umtali.hand import HandState
from umtali.melds import Meld, cover
from umtali.moves import Move, MoveKind
from umtali.rules import RuleSet
from umtali.view import PlayerView

#: How much less likely a hand that could have melded the top discard at once left it.
PASS_LIKELIHOOD = 0.15
#: The weight of a hand left holding a meld or a card the table accepts.
MELD_LIKELIHOOD = 0.01


def _bits(mask: int) -> list[int]:
    return [int(c) for c in iter_cards(mask)]


def _pick(mask: int, rng: random.Random) -> int:
    cards = _bits(mask)
    return cards[rng.randrange(len(cards))]


def _accepts(melds: tuple[Meld, ...]) -> int:
    acc = 0
    for m in melds:
        acc |= m.accepts
    return acc


def _meld_free(hand: int, accepts: int) -> bool:
    return not cover(hand) and not hand & (accepts | JACKS)


class ParticleMemory(Memory):
    """``Memory`` that also carries ``count`` guesses of the opponent's hand."""

    def __init__(
        self, seed: int | str, count: int = 128, sharpness: float = 30.0,
        repair: float | None = 1.0, blend: float = 4.0,
    ) -> None:
        super().__init__()
        #: How the searches' worlds use the guesses: 0, their opponent holds one of them;
        #: above 0, ``hard``'s own worlds weighed by the guesses to this power (``blended``).
        self.blend = blend
        #: What ``observe`` last told of the opponent.
        self.model = OpponentModel()
        #: The weight of a guess lacking a card the opponent laid or shed, or holding one the
        #: seat sees, for each such card; None: one over the stock's size (the chance of
        #: having drawn it).
        self.repair = repair
        #: Whether a card drawn from the stock is guessed by how well it fits the discard.
        self.propose = True
        self.seed = seed
        self.count = count
        self.sharpness = sharpness
        self.hands: list[int] = []
        self.weights: list[float] = []
        #: Plays on the table when this seat's turn ended (-1: not known).
        self._noted_plays = -1

    def note(self, view: PlayerView, move: Move) -> None:
        super().note(view, move)
        if self._pile is not None:
            self._noted_plays = len(view.plays) + (move.kind in (MoveKind.MELD, MoveKind.EXTEND))

    def observe(self, view: PlayerView) -> OpponentModel:
        fresh = (view.game, view.hand_no) != self._hand
        pile, stock, reshuffled = self._pile, self._stock, self._reshuffled
        model = self.model = super().observe(view)
        if rules_of(view).optional_melding:
            self.hands = []
            return model
        rng = random.Random(
            f"{self.seed}:particles:{view.game}/{view.hand_no}/{view.phase}/{len(view.plays)}/"
            f"{view.stock_size}/{len(view.discard_pile)}/{mask_of(view.hand)}"
        )
        if fresh or not self.hands:
            self._start(view, model, rng)
        elif pile is not None and self._noted_plays >= 0 and view.reshuffled == reshuffled:
            self._turn(view, pile, stock, rng)
        self._fit(view, model, rng)
        if fresh:
            self._noted_plays = -1
        return model

    def _start(self, view: PlayerView, model: OpponentModel, rng: random.Random) -> None:
        """Guesses as ``hard`` deals its worlds (from the view and the memory)."""
        rules = rules_of(view)
        opp = 1 - view.seat
        self.hands = [
            sample_world(view, rng, model, rules).hands[opp] for _ in range(self.count)
        ]
        self.weights = [1.0] * self.count

    def _turn(self, view: PlayerView, pile: Pile, stock: int, rng: random.Random) -> None:
        """Carry every guess through the opponent's turn since this seat's last one."""
        opp = 1 - view.seat
        turn = read_turn(pile, view.discard_pile, stock, view.stock_size)
        readable = turn.taken or turn.discarded is not None or view.stock_size == stock - 1
        if not readable:
            return
        taken = mask_of(c for c in turn.taken if c is not None)
        shed = -1 if turn.discarded is None else int(turn.discarded)
        shed_bit = 0 if shed < 0 else 1 << shed
        laid = 0
        for p in view.plays[self._noted_plays:]:
            if p.player == opp:
                laid |= mask_of(p.cards)
        before = tuple(melds_after(view, self._noted_plays))
        after = tuple(melds_after(view, len(view.plays)))
        acc_before, acc_after = _accepts(before), _accepts(after)
        table = 0
        for m in after:
            table |= m.cards
        stock_draw = not turn.taken and view.stock_size == stock - 1
        top = pile[-1] if pile else None
        passed = -1 if not stock_draw or top is None else int(top)
        hidden = hidden_cards(view)
        pool = hidden | laid | shed_bit
        n_pool = max(1, pool.bit_count() - view.opponent_hand_size)
        cost = 1.0 / n_pool if self.repair is None else self.repair
        seen = table | (visible_pile_mask(view) & ~shed_bit)
        our_size = len(view.hand) - (view.phase != "draw")
        must = laid | shed_bit

        def likely(held: int) -> float:
            """How likely ``normal``'s judgement would shed ``shed`` from ``held``."""
            if shed < 0 or held.bit_count() <= 1:
                return 1.0
            o = Outlook(held, after, acc_after, FULL_DECK & ~held & ~seen, 0, our_size,
                        view.stock_size, -1, False)
            values = keep_values(o, held)
            lowest = min(
                (v for c, v in values.items() if not taken >> c & 1), default=values[shed]
            )
            return math.exp(-self.sharpness * max(0.0, values[shed] - lowest))

        for i, hand in enumerate(self.hands):
            w = 1.0
            if passed >= 0:
                bit = 1 << passed
                if bit & (acc_before | JACKS) or cover(hand | bit) & bit:
                    w *= PASS_LIKELIHOOD
            hand |= taken
            need = must & ~hand
            # A card they laid or shed that the guess lacks was in their hand after all: it
            # takes the place of one of the guess's cards.
            for card in iter_cards(need):
                spare = hand & ~must & ~taken & ~self.known_opponent
                if spare:
                    hand &= ~(1 << _pick(spare, rng))
                hand |= 1 << card
                w *= cost
            judged = False
            if stock_draw:
                # The card drawn, in proportion to how well it fits what they did next: it
                # left no meld, and they shed ``shed`` rather than it or another card.
                free = pool & ~hand
                ok = [int(c) for c in iter_cards(free)
                      if _meld_free((hand | 1 << c) & ~must, acc_after)]
                if ok and self.propose:
                    fits = [likely((hand | 1 << c) & ~laid) for c in ok]
                    total = sum(fits)
                    target = rng.random() * total
                    k = 0
                    while k < len(ok) - 1 and target > fits[k]:
                        target -= fits[k]
                        k += 1
                    x = ok[k]
                    w *= total / max(1, free.bit_count())
                    judged = True
                else:
                    x = ok[rng.randrange(len(ok))] if ok else _pick(free, rng)
                    w *= max(len(ok), 1) / max(1, free.bit_count())
                hand |= 1 << x
            held = hand & ~laid
            if not judged:
                w *= likely(held)
            hand = held & ~shed_bit
            if not _meld_free(hand, acc_after):
                w *= MELD_LIKELIHOOD
            self.hands[i] = hand
            self.weights[i] *= w
        self._resample(rng)

    def _fit(self, view: PlayerView, model: OpponentModel, rng: random.Random) -> None:
        """Every guess made to fit this view: no card the seat sees, every card known to be
        in the opponent's hand, as many cards as they hold."""
        hidden = hidden_cards(view)
        n = view.opponent_hand_size
        known = model.known & hidden
        pool = max(1, hidden.bit_count() - n)
        for i, hand in enumerate(self.hands):
            gone = hand & ~hidden
            if gone:
                cost = 1.0 / pool if self.repair is None else self.repair
                self.weights[i] *= cost ** gone.bit_count()
            hand = (hand & hidden) | known
            while hand.bit_count() > n:
                hand &= ~(1 << _pick(hand & ~known, rng))
            while hand.bit_count() < n:
                hand |= 1 << _pick(hidden & ~hand, rng)
            self.hands[i] = hand
        total = sum(self.weights)
        if not total > 0:
            self.weights = [1.0] * len(self.hands)

    def _resample(self, rng: random.Random) -> None:
        total = sum(self.weights)
        if not total > 0:
            self.weights = [1.0] * len(self.hands)
            return
        weights = [w / total for w in self.weights]
        ess = 1.0 / sum(w * w for w in weights)
        if ess >= len(weights) / 2:
            self.weights = weights
            return
        # Systematic resampling. (Moving a card of each copy, to keep the guesses apart, held
        # fewer of the real cards: 21.7% against 23.5%.)
        n = len(weights)
        step = 1.0 / n
        u = rng.random() * step
        out: list[int] = []
        cum = weights[0]
        j = 0
        for k in range(n):
            target = u + k * step
            while target > cum and j < n - 1:
                j += 1
                cum += weights[j]
            out.append(self.hands[j])
        self.hands = out
        self.weights = [1.0] * n

    def dealer(self, view: PlayerView, rules: RuleSet) -> Dealer | None:
        """The searches' worlds for ``view`` (the view last observed); None when the filter
        has nothing to say."""
        if self.blend > 0:
            return self.blended(view, self.model, rules, self.blend)
        return self.guessed(view, rules)

    def guessed(self, view: PlayerView, rules: RuleSet) -> Dealer | None:
        """Worlds whose opponent holds one of the guesses, chosen by weight."""
        if not self.hands or (view.discard_pile and view.discard_pile[-1] is None):
            return None
        hidden = hidden_cards(view)
        n = view.opponent_hand_size
        hands = [h for h in self.hands if h & hidden == h and h.bit_count() == n]
        if len(hands) != len(self.hands):
            return None
        cum: list[float] = []
        total = 0.0
        for w in self.weights:
            total += w
            cum.append(total)

        def deal(rng: random.Random) -> HandState:
            target = rng.random() * total
            lo, hi = 0, len(cum) - 1
            while lo < hi:
                mid = (lo + hi) // 2
                if cum[mid] < target:
                    lo = mid + 1
                else:
                    hi = mid
            return sample_world(view, rng, OpponentModel(known=hands[lo]), rules)

        return deal

    def blended(
        self, view: PlayerView, model: OpponentModel, rules: RuleSet, strength: float,
        tries: int = 16,
    ) -> Dealer | None:
        """``hard``'s own worlds, each of ``tries`` dealt ones kept in proportion to how
        often the guesses hold its opponent's cards (to the power ``strength``): the view's
        constraints from ``determinize``, the history from the guesses."""
        if not self.hands:
            return None
        total = sum(self.weights)
        share = [0.0] * 52
        for h, w in zip(self.hands, self.weights, strict=True):
            for c in iter_cards(h):
                share[c] += w / total
        n = max(1, view.opponent_hand_size)
        hidden = hidden_cards(view)
        base = n / max(1, hidden.bit_count())
        ratio = [((s + 0.1 * base) / (1.1 * base)) ** strength for s in share]
        opp = 1 - view.seat

        def deal(rng: random.Random) -> HandState:
            worlds = [sample_world(view, rng, model, rules) for _ in range(tries)]
            scores = []
            for world in worlds:
                score = 1.0
                for c in iter_cards(world.hands[opp] & ~model.known):
                    score *= ratio[c]
                scores.append(score)
            target = rng.random() * sum(scores)
            k = 0
            while k < tries - 1 and target > scores[k]:
                target -= scores[k]
                k += 1
            return worlds[k]

        return deal
