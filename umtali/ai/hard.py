"""The ``hard`` level: the ``normal`` policy, with its discards looking one draw ahead
(``lookahead``), and its discards and meld choices checked by search (``search``) in worlds
dealt to fit what the seat has seen (``determinize``).

Its discards and draws (2026-12-01): of ``normal``'s two best discards, the one whose hand
fares better over every card the seat may draw next, and the top discard taken or left against
``normal``'s rule when that look ahead says so by more than a point. Against ``normal``: +0.6 to
+1.2 points a hand, 53-56% of games (``bench/ai.py``, 1,000 and 600 games), where searching the
discards had gained nothing measurable. What each kind of
decision weighs (``bench/levers.py``, against ``normal`` on 2,000 games): random discards
-7.0 points a hand, never taking the top discard -2.6, a random choice of meld -0.35. So
discards are where a stronger player gains, and the rest of this note is on why the search
could not gain there.

Where the search pays was measured on a few hundred positions from self-play, against values
from 600 worlds per move: the ``normal`` choice of draw was as good as the best (a gain of 0.01
points a decision), while a better discard was worth about half a point. So the draw is not
searched; the discards had the whole budget until the lookahead did better, and the search now
checks only meld choices that leave different hands.

Why ``hard`` is barely stronger than ``normal``: measured on 330 discards from play against
``normal`` (``bench/ai.py``), each candidate valued by 120 playouts from the opponent's real hand,
the search gains +0.47 points a decision over the ``normal`` choice when its worlds deal the
opponent their real hand, but only +0.03 in sampled worlds (+0.15 with four times the budget).
The sampled hands are as realistic as the view allows (as many near-melds as the real ones, as
many cards ready to take ours), so what is missing is the identity of the cards, which nothing
in the view tells; the search's edge is then only the little by which its averages over
sampled worlds beat the ``normal`` judgement, and its budget is bound by the time a decision may
take. Its settings follow the same measurements, within their noise: three candidates rather
than six (the playouts split less thinly), overruling ``normal`` at one standard error rather
than 1.5, and searching also when the opponent is near going out (+0.12 to +0.19 points a
decision there, on 240 more positions, where ``normal`` used to decide alone).

What did not help (2026-12-01; 1,000-2,000 games each on common deals; branch ``ai-strength``):
even a ``normal`` that knows the opponent's real hand for judging its discards gains only
+1.08 points a hand (53% of games), far from the 2.5-3 points 60% needs, so better inference
alone cannot get there; told the real hand also for its own drawing chances it lost 4.1 points
a hand (its keep values are balanced around their uniform guesses). ``normal``'s weights sit at
a local optimum (each moved alone: -0.4 to +0.14 points a hand). Weighing the sampled worlds by
the opponent's last turn (the card passed over, the card shed) gained +0.2 to +0.3 points a
hand to ``normal``'s judgement, and nothing measurable in ``hard`` (51.5% of 200 games), at
1.2-1.7 times the thinking time: not merged. The next step is a different evaluation (a value
learned from self-play), not more tuning or inference.

Also tried (2026-12-01, evening; ``hard`` without its meld search against ``normal``, the same
300-400 paired deals, standard error about 0.2; ``hard`` itself led by +0.84 to +0.97): the
look ahead's leaf without the feeding value of kept cards (+1.09, but -0.04 against ``hard``
on 500 fresh deals, paired), a larger bonus for going out (+0.86/+0.87) or for nearing it
(+0.86/+0.88); playing the opponent's reply turn in 12 sampled worlds before looking ahead
(+0.96, at 7 times the time); rolling the seat's own next four turns out 48 times over common
draws, with the opponent's chance of going out by hand size (+0.61; over three candidates
+0.64); and looking two draws ahead, the next discard as ``normal`` would (-0.17 against
``hard``, paired). So the one-draw look ahead stays: every richer look ahead tried judged
worse, or no better, than it.

What each decision is worth (``bench/decisions.py``, 500 games, 17,070 discards and 17,924
draws, each candidate valued by 16 playouts in the real hand): the look ahead gains +0.078
points a discard and +0.050 a draw over ``normal``, about +0.55 a hand, as the games show. A
judgement fitted on those values from eleven features of the view (the look ahead's among them)
gains +0.077 a discard, the same. A chooser that sees the real hands gains +0.23 a discard
choosing over 8 worlds, +0.35 over 24 (150 games), perhaps +0.5 with unbounded worlds. 60% of
games needs about +2.4 points a hand, some +0.27 on every discard and draw from the view alone:
a good part of what knowing the hidden cards is worth.

Playing for the game (2026-12-01, night; ``stakes``, ``bench/stakes.py``): games are won on
the total of four hands; some 40% reach the last hand more than 30 points apart and only 9-11%
end 5 points apart or less, so the most it can change is small. In the last hand of an open
game, the draw or discard is checked against the next best by games won in sampled worlds, near
the end of the hand only: +0.72% of games (standard error 0.26) over that hand played for
points, on 1,100 deals from both seats (settings chosen on 400 more: +0.50%, 0.35), +0.08
points a game. Tried and not kept: the same search early in the hand too (too few worlds: no
game gained, -1.2 points a game); scoring it by a logistic curve of the game's lead (+0.62%,
0.33) or by points (+0.27%, 0.19, where scoring games won gained +0.63%); discards leaning
towards shedding high cards when ahead and keeping them when behind (0.3 to 1.0 points of
value a card point: +0.6% to -0.25%, standard errors 0.45 to 0.54, losing points as the lean
grows). Over whole games (``bench/ai.py``, 1,000 games against ``normal``): 53.4% (95% interval
50.3% to 56.5%), +0.60 points a hand, as before within noise: a percent of games is far from
the 7 more that 60% needs.

Compiled (2026-12-02, night; ``compile_engine.py`` compiles the playouts and the judgement
of cards with the engine, ``tests/test_compiled_ai.py``): the same moves (``bench/ai.py
--games 40 --levels normal,hard --jobs 1``: the same 2,625 decisions, 22 games won, 28.8
points a hand), two to three times as fast: p50 0.7 ms, p95 17 ms, max 55 ms a decision
against 1.8, 27 and 144 from the sources (load 1.1); 400 games: p95 33 ms, max 140 ms. So a
search several times as big now fits the time a decision may take, and the discards were
searched again, on top of the look ahead: its choice the yardstick against the others of
``normal``'s best three (``discard_budget``), ``bench/decisions.py --worlds 64
--search 4000,8000,16000`` (each discard valued by 64 playouts in the real hand), 60 games
and 2,129 discards, then 60 more (``--seed 61 --search 4000,16000``, 2,053 discards): over
the look ahead, +0.038 and +0.045 points a discard (standard errors 0.027, 0.026) with 4,000
playout moves (p95 75 ms a discard), +0.019 (0.027) with 8,000, +0.055 and +0.072 (0.029,
0.028) with 16,000 (p95 280-300 ms a discard, max 0.5 s). The budget that gains clearly is too
slow: with 16,000, ``hard``'s p95 over all decisions is 273 ms on an idle machine (``bench/ai.py
--games 40 --hard-discard-budget 16000 --jobs 1``, load 0-1.6), above the 300 ms limit once the
machine is busy; over whole games, with 8,000: 53.5% of 400 games and +0.77 points a hand
(standard error 0.30) where ``hard`` without it has 53.8% and +0.69 (0.28) on the same deals
(``bench/ai.py --games 400 --levels normal,hard --jobs 1 [--hard-discard-budget 8000]``).
On 60 fresh games (``--seed 121 --search 4000,8000``, 2,100 discards): +0.055 (0.030) with
4,000, +0.070 (0.032) with 8,000. So searching the discards with 4,000 moves gains +0.046
points a discard over the look ahead (standard error 0.016) on the 6,282 discards of the three
runs, at p95 65 ms and max 145 ms a decision (``bench/ai.py --games 40 --hard-discard-budget
4000 --jobs 1``, load 0.3-0.7). It is on since 2026-12-02 (``discard_budget`` 4,000), the
coach naming the card a searched discard beat ("played out over many guesses at the cards you
cannot see"). Some +0.05 a discard is +0.2 points a hand, too little for games to show at
this size, and a tenth of what 60% of games needs: the search's playouts were never its
limit, the hidden cards are. The meld search (about two a game: 16 in 10 games) keeps its
budget, which cannot weigh measurably.

The ceiling of inference (2026-12-02, morning; ``bench/ceiling.py``): ``hard`` as it is, its
searches' worlds dealt with the opponent's real hand (only the stock's order guessed), as if it
read that hand perfectly, wins 59.1% and 62.8% of two sets of 1,000 games (61.0% of 2,000,
58.8% to 63.1%), +2.74 points a hand, where with its sampled worlds it wins 54.1% (+0.93) on
the same deals: knowing the opponent's hand is worth +1.8 points a hand (standard error 0.16)
to this search, and perfect knowledge of it would only just reach 60%. Russian, 400 games:
61.8% against 54.8%. (Seeing the stock's order too: 88.6%, which no seat can.) A view reads
the opponent's hand only in part, so better inference alone cannot take this player to 60%.
Tried again the same morning all the same: worlds dealing fewer cards that make a meld with a
top discard the opponent left on the pile (a card they could meld at once, they would have
taken): 53.9% and +0.74 points a hand (standard error 0.17) against 53.8% and +0.66 (0.18) on
the same 1,000 games, no measurable gain (branch ``pass-hint``, not merged).

How little a view tells of the opponent's hand (2026-12-02, tenth session; ``bench/inference.py
--games 100``, 1,652 of ``hard``'s discards): the opponent's hand as ``hard`` deals it holds
26.4% of their hidden cards (a uniform deal 15.1%, perfect inference 100%); weighing those
worlds by the opponent's latest discard as ``normal`` would have judged it (the very card
``normal`` would shed from the dealt hand, an exact model against ``normal``) raises that to
28.1%, and Russian 26.8% to 28.4%. On the same discards the search gained nothing from it:
+0.026 to +0.027 points a discard over the look ahead (standard errors 0.021) against +0.032
with ``hard``'s own worlds, where the opponent's real hand gives +0.462 (``bench/decisions.py
--games 150 --worlds 32 --search 4000 --from sampled,inferred:2,inferred:100,opponent``, 5,346
discards). The gap between sampled worlds and the real hand is the cards the view does not
show, not a model of the opponent that a better sampler could fix; not merged.

The whole history read by a particle filter (2026-12-02, afternoon; ``particles`` and
``guesses``, kept as an option off by default: ``HardPlayer(particles=128)``, ``bench/ai.py
--hard-particles 128``): 128 guesses of the opponent's hand carried through each
of their turns (the cards taken, a stock draw guessed by how well it fits what they did next,
the cards laid and shed, the top discard left), each weighed by how likely ``normal``'s
judgement would shed that card from it (``exp(-30 * gap)``) and by whether it could have
melded the card left; the searches' worlds are ``hard``'s own, one of 16 kept in proportion to
how often the guesses hold its opponent's cards (to the fourth power). What the worlds hold of
the opponent's hidden cards (``bench/particles.py --games 100``, 1,639 discards): 30.8%
against 26.6% (the guesses alone 26.4%; the latest discard alone had given 28.1%), far from
the 35% this experiment asked for. Games all the same (``bench/particle_games.py``, paired on
the deals of ``bench/ai.py --games N --levels normal,hard``): 400 games, 57.5% (52.6% to
62.3%), +1.55 points a hand against 54.5% and +0.93, +0.62 over ``hard`` (paired standard
error 0.34), p95 114 ms and max 0.7 s a decision (filter not compiled, load 5); 1,000 games
(the filter compiled, two halves at once, load 3-4): 54.2% (51.1% to 57.3%), +1.08 points a
hand (standard error 0.18) against 53.8% and +0.66 (0.18): +0.41 over ``hard`` (paired
standard error 0.20), no more games won, and max 1.3-1.5 s a decision (p95 183-185 ms), over
the 1 s limit. Not kept: some +0.4 points a hand, as the 4 more points of the hidden cards
would give by the ceiling's measure (+1.8 points for all 73 missing), is a tenth of what 60%
needs; 60% is out of reach of inference.

The budget counts moves played in playouts, not time, so a seed and a view always give the
same move.
"""

from __future__ import annotations

import random

from umtali.ai import lookahead, policy, stakes
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
        candidates = self.candidates(outlook, view.legal_moves)
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

    def candidates(self, o: Outlook, legal: tuple[Move, ...]) -> list[Move]:
        """The moves worth searching, best-judged first."""
        if len(legal) == 1:
            return [legal[0]]
        if legal[0].kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            return [lookahead.choose_draw(o, legal)]
        lays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
        if lays:
            return self.meld_candidates(o, lays)
        # Discards look one draw ahead; with a ``discard_budget``, the search then checks the
        # look ahead's choice against ``normal``'s other best discards.
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
