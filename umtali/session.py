"""A session: the draw for first dealer, games of four hands (more on a tie), best of three.

The session owns the seed. Every shuffle is derived from it and from what it shuffles, so a
whole session replays from its seed and its move list alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from umtali.cards import ACE, CARDS, cards_of
from umtali.errors import IllegalMoveError
from umtali.events import (
    DealerChosen,
    Event,
    GameEnded,
    HandEnded,
    HandStarted,
    SessionEnded,
)
from umtali.hand import HandState, Phase
from umtali.i18n import Text
from umtali.melds import PlayKind
from umtali.moves import Move, MoveKind
from umtali.rules import RuleSet
from umtali.turns import play
from umtali.view import PlayerView

# Bound once: a class attribute lookup on every move costs more than the test itself.
_EXTEND, _OVER, _MARRIAGE = MoveKind.EXTEND, Phase.OVER, PlayKind.MARRIAGE

#: What every view of a hand shows of the session: rules, game, hand no., dealer, the finished
#: hands' scores, games won (2), winner. It changes only with the hand or the winner.
Heading = tuple[RuleSet, int, int, int, tuple[tuple[int, int], ...], int, int, int]


@dataclass(frozen=True, slots=True)
class Deal:
    """A fixed first deal: the dealer, both hands, the stock (top first) and the discard pile
    (bottom first)."""

    dealer: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    stock: tuple[int, ...]
    discard: tuple[int, ...] = ()


class Shuffler:
    """The seeded source of every shuffle: one independent stream per named purpose."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def shuffled_deck(self, purpose: str) -> list[int]:
        """The deck in index order, shuffled by ``random.Random(f"{seed}:{purpose}")``."""
        # ``shuffle``, written out for the 52 cards: each place and its draw's bits read as one.
        bits = random.Random(f"{self.seed}:{purpose}").getrandbits
        deck = list(range(52))
        for i, k in _DECK_DRAWS:
            j = bits(k)
            while j > i:
                j = bits(k)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def key(self, purpose: str) -> str:
        return f"{self.seed}:{purpose}"


_BITS_BELOW = tuple((i + 1).bit_length() for i in range(64))
#: Each place of a deck's shuffle, from the last down, and the bits of its draw.
_DECK_DRAWS = tuple((i, _BITS_BELOW[i]) for i in range(51, 0, -1))


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)`` written out, the same draws and the same order: it deals every
    hand, and its call per card to ``rng._randbelow`` costs more than the rest of it."""
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        # A draw below i + 1: ``rng._randbelow(i + 1)``.
        k = _BITS_BELOW[i] if i < 64 else (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _draw_rank(card: int, ace_high: bool) -> int:
    rank = CARDS[card].rank
    return 14 if ace_high and rank == ACE else rank


def draw_for_dealer(
    shuffler: Shuffler, rules: RuleSet
) -> tuple[tuple[tuple[int, int], ...], int]:
    """Each seat draws a card (seat 0 first); equal ranks draw again from the same deck."""
    deck = shuffler.shuffled_deck("dealer-draw")
    draws: list[tuple[int, int]] = []
    pos = 0
    while True:
        a, b = deck[pos], deck[pos + 1]
        pos += 2
        draws.append((a, b))
        ra = _draw_rank(a, rules.high_card_deals)
        rb = _draw_rank(b, rules.high_card_deals)
        if ra != rb:
            first_higher = ra > rb
            dealer = 0 if first_higher == rules.high_card_deals else 1
            return tuple(draws), dealer


class Session:
    """A whole session. Mutated only through ``apply`` and ``resign``."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int | str,
        first_deal: Deal | None = None,
        shuffler: Shuffler | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        # Every shuffle comes from this one seeded source, so the seed replays the session.
        self.shuffler = shuffler or Shuffler(seed)
        self.first_deal = first_deal
        self.moves: list[Move] = []
        self._move_texts: list[str] = []
        self.game = 1
        self.hand_no = 1
        #: Scores of each finished hand of the game in play.
        self.hand_scores: list[tuple[int, int]] = []
        #: Every finished game: the scores of its hands.
        self.finished_games: list[list[tuple[int, int]]] = []
        self.games_won = [0, 0]
        self.winner = -1
        self.how = ""
        #: One line per finished hand, for records that must not replay the whole session:
        #: (game, hand, score 0, score 1, seat that went out or -1, marriages 0, marriages 1).
        self.hand_log: list[tuple[int, int, int, int, int, int, int]] = []
        self.dealer_draws: tuple[tuple[int, int], ...] = ()
        self.opening: list[Event] = []
        if first_deal is None:
            self.dealer_draws, first_dealer = draw_for_dealer(self.shuffler, rules)
            self.first_dealer = first_dealer
            self.opening.append(
                DealerChosen(
                    tuple((CARDS[a], CARDS[b]) for a, b in self.dealer_draws), first_dealer
                )
            )
        else:
            self.first_dealer = first_deal.dealer
        self.hand = self._new_hand()
        self.opening.append(self._hand_started())

    # -- reading ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.winner >= 0

    @property
    def to_act(self) -> int:
        """The seat to act, or -1 when the session is over."""
        return self.hand.turn if self.winner < 0 else -1

    @property
    def dealer(self) -> int:
        return self.hand.dealer

    def game_scores(self) -> tuple[int, int]:
        a = b = 0
        for x, y in self.hand_scores:  # (every hand's end adds them up: no generator)
            a += x
            b += y
        return a, b

    def marriages(self) -> tuple[int, int]:
        """Marriages each seat has melded in the hand in play (or just finished)."""
        count = [0, 0]
        for p in self.hand.plays:
            if p[1] is _MARRIAGE:  # ``p.kind``: a named tuple's field by index is faster
                count[p[0]] += 1
        return count[0], count[1]

    def legal_moves(self) -> list[Move]:
        return [] if self.winner >= 0 else list(self.hand.listed())

    def heading(self) -> Heading:
        """What every view of the hand in play shows of the session, made once a hand and kept
        by the hand (and made again once the session is won: ``_hand_over`` and ``resign``
        forget it then; a hand copied or set from outside has none)."""
        h, winner = self.hand, self.winner
        head = h._heading
        if head is None or head[7] != winner:
            won = self.games_won
            head = h._heading = (self.rules, self.game, self.hand_no, h.dealer,
                                 tuple(self.hand_scores), won[0], won[1], winner)
        return head

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see; ``umtali.view.SPECTATOR`` gives the public table."""
        # (``PlayerView.of`` itself can no longer be the method: compiled, it does not bind.)
        return PlayerView.of(self, seat)

    # -- playing ----------------------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> list[Event]:
        """Play ``move`` for the seat to act (checked against ``seat`` when given)."""
        if self.winner >= 0:
            raise IllegalMoveError(Text.of("the session is over"))
        hand = self.hand
        if seat is not None and seat != hand.turn:
            raise IllegalMoveError(Text.of("it is not your turn"))
        legal = hand._legal
        if legal is None:
            legal = hand.listed()
        if move in legal:
            events = play(hand, move)  # checked: a listed move
        else:
            if move.kind is _EXTEND:
                move = hand.canonical(move)  # the listed form is the one kept
            events = hand.apply(move)  # plays it, or says why it is illegal
        self.moves.append(move)
        if hand.phase is _OVER:
            self._hand_over(events)
        return events

    def move_texts(self) -> list[str]:
        """The move list in the notation. Saving is frequent, so the texts are kept, each
        written the first time it is asked for: self-play that never saves writes none."""
        texts, moves = self._move_texts, self.moves
        if len(texts) > len(moves):
            del texts[len(moves):]
        texts.extend(str(m) for m in moves[len(texts):])
        return list(texts)

    def apply_text(self, text: str, seat: int | None = None) -> list[Event]:
        return self.apply(Move.parse(text), seat)

    def resign(self, seat: int, how: str = "resigned") -> list[Event]:
        """``seat`` gives up the session (resigned, timed out): the opponent wins it."""
        if self.over:
            raise IllegalMoveError(Text.of("the session is over"))
        self.winner = 1 - seat
        self.how = how
        self.hand._heading = None  # the views' heading shows the winner
        return [SessionEnded(self.winner, (self.games_won[0], self.games_won[1]), how)]

    def _hand_over(self, events: list[Event]) -> None:
        h = self.hand
        assert h.reason is not None
        scores = h.scores()
        self.hand_scores.append(scores)
        wed = self.marriages()
        self.hand_log.append((self.game, self.hand_no, scores[0], scores[1], h.out, wed[0], wed[1]))
        total = self.game_scores()
        events.append(
            HandEnded(
                self.game,
                self.hand_no,
                h.reason,
                h.out if h.out >= 0 else None,
                (h.points[0], h.points[1]),
                h.leftover_points(),
                scores,
                total,
                (cards_of(h.hands[0]), cards_of(h.hands[1])),
                (wed[0], wed[1]),
                h.reshuffled,
            )
        )
        if self.hand_no >= self.rules.hands_per_game and total[0] != total[1]:
            winner = 0 if total[0] > total[1] else 1
            self.games_won[winner] += 1
            won = (self.games_won[0], self.games_won[1])
            events.append(GameEnded(self.game, total, winner, won))
            self.finished_games.append(self.hand_scores)
            if self.games_won[winner] >= self.rules.games_to_win:
                self.winner = winner
                self.how = "played out"
                self.hand._heading = None  # the views' heading shows the winner
                events.append(SessionEnded(winner, won))
                return
            self.game += 1
            self.hand_no = 1
            self.hand_scores = []
        else:
            self.hand_no += 1
        self.hand = self._new_hand()
        events.append(self._hand_started())

    def _hands_played(self) -> int:
        return sum(map(len, self.finished_games)) + len(self.hand_scores)

    def _new_hand(self) -> HandState:
        n = self._hands_played()
        # The dealer alternates after every hand, across games too.
        dealer = self.first_dealer if n % 2 == 0 else 1 - self.first_dealer
        key = self.shuffler.key(f"hand-{n}")
        if n == 0 and self.first_deal is not None:
            d = self.first_deal
            return HandState.from_position(
                self.rules,
                d.dealer,
                (sum(1 << c for c in d.hands[0]), sum(1 << c for c in d.hands[1])),
                d.stock,
                d.discard,
                key,
            )
        # (The session's own shuffle holds each card once: dealt without the deal's check.)
        return HandState.dealt(self.rules, dealer, self.shuffler.shuffled_deck(f"deal-{n}"), key)

    def _hand_started(self) -> HandStarted:
        h = self.hand
        upcard = CARDS[h.discard_pile[-1]] if h.discard_pile and h.turns == 0 else None
        return HandStarted(
            self.game,
            self.hand_no,
            h.dealer,
            upcard,
            self.hand_no > self.rules.hands_per_game,
        )

    # -- copies ---------------------------------------------------------------------------

    def copy(self) -> Session:
        """An independent session in the same position: a move can be tried on the copy and
        kept only once it is saved (the original is left as it was)."""
        s = Session.__new__(Session)
        s.rules, s.seed, s.shuffler, s.first_deal = (
            self.rules, self.seed, self.shuffler, self.first_deal)
        s.moves = list(self.moves)
        s._move_texts = list(self._move_texts)
        s.game, s.hand_no = self.game, self.hand_no
        s.hand_scores = list(self.hand_scores)
        # A finished session keeps its last game in hand_scores too: keep them one list.
        s.finished_games = [s.hand_scores if g is self.hand_scores else list(g)
                            for g in self.finished_games]
        s.games_won = list(self.games_won)
        s.winner, s.how = self.winner, self.how
        s.hand_log = list(self.hand_log)
        s.dealer_draws, s.first_dealer = self.dealer_draws, self.first_dealer
        s.opening = list(self.opening)
        s.hand = self.hand.copy()
        return s

    # -- replay -----------------------------------------------------------------------------

    @staticmethod
    def replay(
        rules: RuleSet,
        seed: int | str,
        moves: Iterable[Move | str],
        first_deal: Deal | None = None,
    ) -> tuple[Session, list[Event]]:
        """Play a session from its seed and move list; return it and every event."""
        s = Session(rules, seed, first_deal)
        events = list(s.opening)
        for m in moves:
            events.extend(s.apply(Move.parse(m) if isinstance(m, str) else m))
        return s, events
