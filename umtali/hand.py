"""One hand of Umtali: the deal, the turns, going out, the last turn, and the hand's scores.

``HandState`` is the whole truth of a hand, hidden cards included. Nothing outside the engine
should read it directly: players and renderers get a ``PlayerView``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple

from umtali.cards import CARDS, POINTS, cards_of, points_of
from umtali.errors import IllegalMoveError, InvalidStateError
from umtali.events import (
    Discarded,
    DrewFromStock,
    Event,
    Extended,
    HandEnd,
    Melded,
    NoDraw,
    StockReshuffled,
    TookDiscard,
    WentOut,
)
from umtali.i18n import Text
from umtali.listing import (
    DRAW_TAKE,
    DRAW_TAKE_TWO,
    draw_moves,
    free_moves,
    meld_phase_moves,
    table_easy,
)
from umtali.melds import Meld, PlayKind, classify, extended, new_meld, play_points
from umtali.moves import Move, MoveKind
from umtali.reach import NEIGHBOURS
from umtali.rules import DealStyle, RuleSet
from umtali.search import canonical_target, may_take_two

if TYPE_CHECKING:
    from umtali.session import Heading
    from umtali.view import TableView

#: The commonest events, each made once: they are values, and one is as good as another.
_DISCARDED = tuple(tuple(Discarded(p, c, False) for c in CARDS) for p in (0, 1))
_DISCARDED_DOWN = tuple(tuple(Discarded(p, c, True) for c in CARDS) for p in (0, 1))
_DREW = tuple(tuple(DrewFromStock(p, c) for c in CARDS) for p in (0, 1))
_TOOK = tuple(tuple(TookDiscard(p, (c,)) for c in CARDS) for p in (0, 1))

_BIT: Final = tuple(1 << c for c in range(52))
_DECK: Final = frozenset(range(52))
#: A card's index by its bit.
_INDEX: Final = {1 << c: c for c in range(52)}
_tuple_new = tuple.__new__  # a named tuple made without its Python-level ``__new__``
#: What laying a new meld of these cards makes: its kind, the logical meld, its points and
#: its event for each player (values, so each is made once; a few hundred melds in all).
_LAID: dict[int, tuple[PlayKind, Meld, int, tuple[Event, Event]]] = {}
#: Extension events by player, card and target (values, each made once).
_EXTENDED: dict[int, Event] = {}


def _laid(cards: int) -> tuple[PlayKind, Meld, int, tuple[Event, Event]]:
    kind = classify(cards)
    assert kind is not None  # listed moves are always melds
    pts = play_points(kind, cards)
    shown = cards_of(cards)
    laid = _LAID[cards] = (kind, new_meld(kind, cards), pts,
                           (Melded(0, kind, shown, pts), Melded(1, kind, shown, pts)))
    return laid


class Phase(Enum):
    DRAW = "draw"
    MELD = "meld"
    OVER = "over"


# Members the turn loop tests or sets on every move, bound once: in Python 3.11 reading
# ``MoveKind.DRAW`` is a class attribute lookup that costs more than the test itself.
_DRAW_PHASE, _MELD_PHASE, _OVER = Phase.DRAW, Phase.MELD, Phase.OVER
_K_DRAW, _K_TAKE, _K_TAKE_TWO = MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO
_K_MELD, _K_EXTEND, _K_DISCARD = MoveKind.MELD, MoveKind.EXTEND, MoveKind.DISCARD
_PAIR, _EXTENSION = PlayKind.PAIR, PlayKind.EXTENSION


class Play(NamedTuple):
    """What one player laid in one move, kept on that player's side of the table."""

    player: int
    kind: PlayKind
    cards: int
    #: Index of the logical meld this play started or extended.
    meld: int
    points: int


class HandState:
    """The full state of one hand. Mutated only through ``apply``."""

    __slots__ = (
        "_accepts",
        "_heading",
        "_legal",
        "_pile_seen",
        "_table_base",
        "_table_view",
        "dealer",
        "discard_pile",
        "drawn",
        "face_down",
        "hands",
        "melds",
        "must_meld",
        "optional",
        "out",
        "pair_laid",
        "phase",
        "plays",
        "points",
        "progress",
        "quiet_turns",
        "reason",
        "reshuffle_key",
        "reshuffled",
        "rules",
        "stock",
        "taken",
        "turn",
        "turns",
    )

    def __init__(self, rules: RuleSet, dealer: int, reshuffle_key: str) -> None:
        self.rules = rules
        self.optional = rules.optional_melding
        self.dealer = dealer
        self.reshuffle_key = reshuffle_key
        self.hands = [0, 0]
        #: Face-down stock, top card last.
        self.stock: list[int] = []
        #: Face-up discard pile, top card last.
        self.discard_pile: list[int] = []
        #: The top discard lies face down (the last discard of a player going out).
        self.face_down = False
        self.melds: list[Meld] = []
        self.plays: list[Play] = []
        self.points = [0, 0]
        self.turn = 1 - dealer
        self.phase = Phase.DRAW
        #: The card taken from the discard pile this turn, or -1.
        self.taken = -1
        #: The cards taken this turn, from the stock or the discard pile (laid since or not).
        self.drawn = 0
        #: Cards taken with ``take 2`` that must still be melded this turn.
        self.must_meld = 0
        self.pair_laid = False
        #: Who went out first, or -1; the other player is then playing the last turn.
        self.out = -1
        self.reshuffled = False
        self.quiet_turns = 0
        self.progress = False
        self.turns = 0
        self.reason: HandEnd | None = None
        self._legal: tuple[Move, ...] | None = None
        #: The jacks and what the table's melds accept (see ``table_easy``), or -1 when not
        #: worked out since a card was last laid (``_lay`` forgets it).
        self._accepts = -1
        #: The public table as views show it, kept by ``umtali.view`` until a card is laid
        #: (``_lay`` forgets it), and the last one made, which the next one builds on.
        self._table_view: TableView | None = None
        self._table_base: TableView | None = None
        #: What every view of this hand shows of its session, kept by the session (see
        #: ``Session.heading``), or None.
        self._heading: Heading | None = None
        #: The discard pile as a tuple, kept by ``umtali.view`` for the views of one pile (a
        #: move that changes the pile forgets it).
        self._pile_seen: tuple[int, ...] | None = None

    # -- the deal -------------------------------------------------------------------------

    @staticmethod
    def deal(rules: RuleSet, dealer: int, deck: Sequence[int], reshuffle_key: str) -> HandState:
        """Deal from ``deck`` (top card first): one card at a time, the non-dealer first."""
        cards = list(deck)
        if len(cards) != 52 or set(cards) != _DECK:
            raise InvalidStateError(Text.of("a deal needs each of the 52 cards once"))
        s = HandState(rules, dealer, reshuffle_key)
        # One card at a time, the non-dealer first: theirs are the even places of the first 20.
        bit = _BIT.__getitem__
        first = sum(map(bit, cards[0:20:2]))
        eleven = rules.deal is DealStyle.ELEVEN
        if eleven:
            first |= _BIT[cards[20]]
        else:
            s.discard_pile.append(cards[20])
        s.hands[1 - dealer] = first
        s.hands[dealer] = sum(map(bit, cards[1:20:2]))
        s.stock = cards[:20:-1]  # the rest, top card last
        s.phase = _MELD_PHASE if eleven else _DRAW_PHASE
        return s

    @staticmethod
    def from_position(
        rules: RuleSet,
        dealer: int,
        hands: tuple[int, int],
        stock_top_first: Sequence[int],
        discard_bottom_first: Sequence[int],
        reshuffle_key: str,
    ) -> HandState:
        """A fixed deal: both hands, the stock order and the discard pile."""
        s = HandState(rules, dealer, reshuffle_key)
        s.hands = [hands[0], hands[1]]
        s.stock = list(stock_top_first)[::-1]
        s.discard_pile = list(discard_bottom_first)
        everything = hands[0] | hands[1]
        count = hands[0].bit_count() + hands[1].bit_count()
        for c in (*s.stock, *s.discard_pile):
            everything |= 1 << c
            count += 1
        if hands[0] & hands[1] or everything != (1 << 52) - 1 or count != 52:
            raise InvalidStateError(Text.of(
                "a deal must hold each of the 52 cards exactly once"))
        starts_without_draw = rules.deal is DealStyle.ELEVEN and not s.discard_pile
        s.phase = Phase.MELD if starts_without_draw else Phase.DRAW
        if not starts_without_draw and not s.stock:
            raise InvalidStateError(Text.of("a deal needs a stock to draw from"))
        return s

    # -- reading the position --------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def top_discard(self) -> int:
        return self.discard_pile[-1] if self.discard_pile else -1

    @property
    def table_cards(self) -> int:
        m = 0
        for meld in self.melds:
            m |= meld.cards
        return m

    def meld_of(self, card: int) -> int:
        """Index of the logical meld holding ``card``, or -1."""
        bit = 1 << card
        for i, m in enumerate(self.melds):
            if m[1] & bit:  # ``m.cards``, read by index (faster)
                return i
        return -1

    def leftover_points(self) -> int:
        """Points of the opponent's cards that go to the player who went out."""
        if self.reason is not HandEnd.WENT_OUT or self.out < 0:
            return 0
        return points_of(self.hands[1 - self.out])

    def scores(self) -> tuple[int, int]:
        left = self.leftover_points()
        a, b = self.points
        return (a + left, b) if self.out == 0 else (a, b + left) if self.out == 1 else (a, b)

    # -- legal moves ----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to act, nothing illegal (a new list each call)."""
        return list(self.listed())

    def listed(self) -> tuple[Move, ...]:
        """``legal_moves`` as the tuple the hand keeps: listed once per position, and shared
        with the session and the view of the seat to act."""
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase is _DRAW_PHASE:
                legal = draw_moves(self)
            elif phase is _OVER:
                legal = ()
            else:
                legal = meld_phase_moves(self)
            self._legal = legal
        return legal

    def table_accepts(self) -> int:
        """The cards some meld on the table would take as an extension."""
        acc = 0
        for m in self.melds:
            acc |= m.accepts
        return acc

    def canonical(self, move: Move) -> Move:
        """The listed form of ``move``: an extension may name any card of its meld."""
        if move.kind is _K_EXTEND and 0 <= move.target < 52:
            i = self.meld_of(move.target)
            if i >= 0:
                card = move.cards.bit_length() - 1
                target = canonical_target(self.melds[i], card)
                # A listed move is its own canonical form: keep it, so it is found by identity.
                if target != move.target:
                    return move._replace(target=target)
        return move

    def is_legal(self, move: Move) -> bool:
        return self.canonical(move) in self.listed()

    # -- applying moves -------------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        """Validate and play ``move`` for the player to act; return what happened."""
        legal = self._legal
        if legal is None:
            legal = self.listed()
        # A listed move is canonical already: only another one needs its canonical form.
        if move not in legal:
            if move.kind is _K_EXTEND:
                move = self.canonical(move)
            if move not in legal:
                from umtali.explain import why_illegal

                raise IllegalMoveError(why_illegal(self, move))
        return self._play(move)

    def _play(self, move: Move) -> list[Event]:
        p = self.turn
        # A move's fields by index: a named tuple's field read by name is a slower lookup.
        kind = move[0]
        # The commonest first: a discard ends nearly every turn, most turns draw from the stock.
        # Each of these lists the moves of the position it leaves (every position is listed,
        # and the move has at hand what the listing would read again); the rest forget them.
        if kind is _K_DISCARD:
            cards, face_down = move[1], move[3]
            card = _INDEX[cards]
            hands = self.hands
            left = hands[p] ^ cards  # a listed discard is in hand
            hands[p] = left
            pile = self.discard_pile
            pile.append(card)
            self._pile_seen = None
            self.face_down = face_down
            if left and self.out < 0 and self.stock:
                # (Only a last card may go face down: this one is face up.)
                events: list[Event] = [_DISCARDED[p][card]]
                # ``_end_turn`` and ``_begin_turn`` as nearly every turn ends, written out.
                self.turns += 1
                if self.progress:
                    self.quiet_turns = 0
                    self.progress = False
                else:
                    quiet = self.quiet_turns + 1
                    self.quiet_turns = quiet
                    if quiet >= self.rules.stall_turns:
                        self._finish(HandEnd.STALLED)
                        return events
                p = 1 - p
                self.turn = p
                self.taken = -1
                self.drawn = 0
                # (No cards to meld and no pair laid: a discard is listed only with none to
                # meld, and a pair leaves at most the last card, whose discard ends the hand.)
                self.phase = _DRAW_PHASE
                # ``draw_moves``, written out: the discard lies face up and the stock is not
                # empty.
                try:
                    below = pile[-2]
                except IndexError:  # (no exception costs nothing when none is raised)
                    self._legal = DRAW_TAKE
                    return events
                hand = hands[p]
                easy = self._accepts
                if easy < 0:
                    easy = table_easy(self)
                bit = _BIT[below]
                self._legal = (
                    DRAW_TAKE_TWO
                    if (cards & easy or NEIGHBOURS[card] & (hand | bit))
                    and (bit & easy or NEIGHBOURS[below] & (hand | cards))
                    and may_take_two(hand | cards | bit, self.melds, card, below, self.optional,
                                     easy)
                    else DRAW_TAKE
                )
                return events
            events = [(_DISCARDED_DOWN if face_down else _DISCARDED)[p][card]]
            self._legal = None
            self._end_turn(events, discarded=True)
            return events
        if kind is _K_DRAW:
            card = self.stock.pop()
            bit = _BIT[card]
            hand = self.hands[p] | bit
            self.hands[p] = hand
            self.drawn = bit
            self.progress = True
            self.phase = _MELD_PHASE
            self._legal = free_moves(self, hand, -1)
            return [_DREW[p][card]]
        if kind is _K_TAKE:
            card = self.discard_pile.pop()
            self._pile_seen = None
            bit = _BIT[card]
            hand = self.hands[p] | bit
            self.hands[p] = hand
            self.drawn = bit
            self.taken = card
            self.phase = _MELD_PHASE
            self._legal = free_moves(self, hand, card)
            return [_TOOK[p][card]]
        self._legal = None
        if kind is _K_TAKE_TWO:
            first = self.discard_pile.pop()
            second = self.discard_pile.pop()
            self._pile_seen = None
            two = (1 << first) | (1 << second)
            self.hands[p] |= two
            self.drawn = two
            self.taken = first
            self.must_meld = two
            self.phase = _MELD_PHASE
            return [TookDiscard(p, (CARDS[first], CARDS[second]), 2)]
        events = []
        self._lay(move, events)
        if self.hands[p]:
            self._legal = meld_phase_moves(self)  # (every position is listed: now, as the rest)
        else:
            self._end_turn(events, discarded=False)
        return events

    def _lay(self, move: Move, events: list[Event]) -> None:
        p = self.turn
        kind, cards, target = move[0], move[1], move[2]
        self.hands[p] ^= cards  # a listed meld is in hand
        if self.must_meld:
            self.must_meld &= ~cards
        self.progress = True
        self._table_view = None
        melds = self.melds
        if kind is _K_EXTEND:
            self._accepts = -1  # what the meld accepted may be accepted by another too
            card = _INDEX[cards]
            index = self.meld_of(target)
            melds[index] = extended(melds[index], card)
            pts = POINTS[card]
            self.plays.append(_tuple_new(Play, (p, _EXTENSION, cards, index, pts)))
            key = p << 12 | card << 6 | target
            event = _EXTENDED.get(key)
            if event is None:
                event = _EXTENDED[key] = Extended(p, CARDS[card], CARDS[target], pts)
            events.append(event)
        else:
            laid = _LAID.get(cards)
            if laid is None:
                laid = _laid(cards)
            play_kind, meld, pts, by_player = laid
            melds.append(meld)
            if self._accepts >= 0:
                self._accepts |= meld[2]  # (``table_easy``: the new meld's accepts join them)
            self.plays.append(_tuple_new(Play, (p, play_kind, cards, len(melds) - 1, pts)))
            if play_kind is _PAIR:
                self.pair_laid = True
            events.append(by_player[p])
        self.points[p] += pts

    # -- turns ----------------------------------------------------------------------------

    def _end_turn(self, events: list[Event], *, discarded: bool) -> None:
        p = self.turn
        self.turns += 1
        if not self.hands[p]:
            events.append(WentOut(p, discarded))
            if self.out >= 0:
                # Both went out: nothing is carried over.
                self._finish(HandEnd.WENT_OUT)
                return
            self.out = p
            self._begin_turn(1 - p, events)
            return
        if self.out >= 0:
            self._finish(HandEnd.WENT_OUT)
            return
        self.quiet_turns = 0 if self.progress else self.quiet_turns + 1
        if self.quiet_turns >= self.rules.stall_turns:
            self._finish(HandEnd.STALLED)
            return
        self._begin_turn(1 - p, events)

    def _begin_turn(self, player: int, events: list[Event]) -> None:
        self.turn = player
        self.taken = -1
        self.drawn = 0
        self.must_meld = 0
        self.pair_laid = False
        self.progress = False
        self.phase = _DRAW_PHASE
        if self.stock:
            return
        pile = self.discard_pile
        if not self.reshuffled and len(pile) > 1:
            self.reshuffled = True
            new_stock = pile[:-1]
            random.Random(f"{self.reshuffle_key}:reshuffle").shuffle(new_stock)
            self.stock = new_stock
            self.discard_pile = pile[-1:]
            self._pile_seen = None
            events.append(StockReshuffled(len(new_stock)))
            return
        if self.out >= 0:
            # The last turn after going out is played without any draw.
            self.phase = Phase.MELD
            events.append(NoDraw(player))
            return
        self._finish(HandEnd.STOCK_EXHAUSTED)

    def _finish(self, reason: HandEnd) -> None:
        self.reason = reason
        self.phase = Phase.OVER
        self._legal = None

    # -- copies ---------------------------------------------------------------------------

    def copy(self) -> HandState:
        s = HandState.__new__(HandState)
        for name in HandState.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = list(v)
            setattr(s, name, v)
        s._heading = None  # the copy may go to another session
        return s

