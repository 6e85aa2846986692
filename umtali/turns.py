"""How a move changes a hand: the draw, the melds and the discard of a turn, the turn passing,
going out and the end of the hand. ``play`` plays a listed move (``HandState._play``); the
session calls it directly. ``make`` compiles this module with mypyc (``compile_engine.py``).
"""

from __future__ import annotations

import random
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple

from umtali.cards import BITS, CARDS, POINTS, cards_of
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
from umtali.listing import DRAW_TAKE, DRAW_TAKE_TWO, free_moves, meld_phase_moves, table_easy
from umtali.melds import Meld, PlayKind, classify, extended, new_meld, play_points
from umtali.moves import Move, MoveKind
from umtali.reach import BESIDE, NEIGHBOURS
from umtali.search import may_take_two

if TYPE_CHECKING:
    from umtali.hand import HandState

#: The commonest events, each made once: they are values, and one is as good as another.
_DISCARDED = tuple(tuple(Discarded(p, c, False) for c in CARDS) for p in (0, 1))
_DISCARDED_DOWN = tuple(tuple(Discarded(p, c, True) for c in CARDS) for p in (0, 1))
_DREW = tuple(tuple(DrewFromStock(p, c) for c in CARDS) for p in (0, 1))
_TOOK = tuple(tuple(TookDiscard(p, (c,)) for c in CARDS) for p in (0, 1))

_BIT: Final = BITS
#: A card's index by its bit (the listed discards' own bits: found without a comparison).
_INDEX: Final = {bit: c for c, bit in enumerate(BITS)}
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



def play(self: HandState, move: Move) -> list[Event]:
    p = self.turn
    # A move's fields by index: a named tuple's field read by name is a slower lookup.
    kind = move[0]
    # The commonest first: a discard ends nearly every turn, most turns draw from the stock.
    # Each of these lists the moves of the position it leaves (every position is listed,
    # and the move has at hand what the listing would read again); the rest forget them.
    if kind is _K_DISCARD:
        cards = move[1]
        card = _INDEX[cards]
        hands = self.hands
        left = hands[p] ^ cards  # a listed discard is in hand
        hands[p] = left
        pile = self.discard_pile
        pile.append(card)
        self._pile_seen = None
        if left and self.out < 0 and self.stock:
            # Only a last card may go face down: this one is face up.
            self.face_down = False
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
                    finish(self, HandEnd.STALLED)
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
                if (BESIDE[card * 52 + below] or ((cards & easy or NEIGHBOURS[card] & hand)
                    and (bit & easy or NEIGHBOURS[below] & hand)))
                and may_take_two(hand | cards | bit, self.melds, card, below, self.optional,
                                 easy)
                else DRAW_TAKE
            )
            return events
        # A going-out discard, or the last turn's after it: whichever lies face down stays
        # hidden from the other player, the first one under the second too.
        self.down_below = self.face_down
        face_down = self.face_down = move[3]
        self.down_by = p if face_down else -1
        events = [(_DISCARDED_DOWN if face_down else _DISCARDED)[p][card]]
        self._legal = None
        end_turn(self, events, discarded=True)
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
    lay(self, move, events)
    hand = self.hands[p]
    if not hand:
        end_turn(self, events, discarded=False)
    elif self.pair_laid or self.must_meld:
        self._legal = meld_phase_moves(self)  # (every position is listed: now, as the rest)
    else:
        self._legal = free_moves(self, hand, self.taken)  # (``meld_phase_moves``, most often)
    return events

def lay(self: HandState, move: Move, events: list[Event]) -> None:
    p = self.turn
    kind, cards = move[0], move[1]
    self.hands[p] ^= cards  # a listed meld is in hand
    if self.must_meld:
        self.must_meld &= ~cards
    self.progress = True
    self._table_view = None
    melds = self.melds
    if kind is _K_EXTEND:
        self._accepts = -1  # what the meld accepted may be accepted by another too
        card = _INDEX[cards]
        target = move[2]
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


def end_turn(self: HandState, events: list[Event], *, discarded: bool) -> None:
    p = self.turn
    self.turns += 1
    if not self.hands[p]:
        events.append(WentOut(p, discarded, self.out >= 0))
        if self.out >= 0:
            # Both went out: nothing is carried over.
            finish(self, HandEnd.WENT_OUT)
            return
        self.out = p
        begin_turn(self, 1 - p, events)
        return
    if self.out >= 0:
        finish(self, HandEnd.WENT_OUT)
        return
    self.quiet_turns = 0 if self.progress else self.quiet_turns + 1
    if self.quiet_turns >= self.rules.stall_turns:
        finish(self, HandEnd.STALLED)
        return
    begin_turn(self, 1 - p, events)

def begin_turn(self: HandState, player: int, events: list[Event]) -> None:
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
    finish(self, HandEnd.STOCK_EXHAUSTED)

def finish(self: HandState, reason: HandEnd) -> None:
    self.reason = reason
    self.phase = Phase.OVER
    self._legal = None
