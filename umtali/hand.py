"""One hand of Umtali: the deal, the turns, going out, the last turn, and the hand's scores.

``HandState`` is the whole truth of a hand, hidden cards included. Nothing outside the engine
should read it directly: players and renderers get a ``PlayerView``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, cast

from umtali.cards import points_of
from umtali.errors import IllegalMoveError, InvalidStateError
from umtali.events import Event, HandEnd
from umtali.i18n import Text
from umtali.listing import draw_moves, meld_phase_moves
from umtali.melds import Meld
from umtali.moves import Move, MoveKind
from umtali.rules import DealStyle, RuleSet
from umtali.search import canonical_target
from umtali.turns import Phase as Phase
from umtali.turns import Play as Play
from umtali.turns import play

if TYPE_CHECKING:
    from umtali.session import Heading
    from umtali.table_view import TableView

_DECK: Final = frozenset(range(52))
_BIT: Final = tuple(1 << c for c in range(52))
# Bound once: in Python 3.11 reading ``Phase.DRAW`` is a class attribute lookup.
_DRAW_PHASE, _MELD_PHASE, _OVER = Phase.DRAW, Phase.MELD, Phase.OVER
_K_EXTEND = MoveKind.EXTEND


#: A hand's fields, which ``copy`` copies and a pickle keeps.
_FIELDS: Final = (
    "_accepts",
    "_heading",
    "_legal",
    "_pile_seen",
    "_table_base",
    "_table_view",
    "dealer",
    "discard_pile",
    "down_below",
    "down_by",
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


class HandState:
    """The full state of one hand. Mutated only through ``apply``."""

    __slots__ = _FIELDS

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
        #: Who laid the face-down top: the player who went out, or the other, whose last
        #: turn's discard may go face down too; -1 while the top lies face up.
        self.down_by = -1
        #: The card under the top lies face down: the going-out discard of the player who
        #: went out, covered by the other's last discard (seen by that player alone).
        self.down_below = False
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
        #: worked out since a card was last laid (``turns.lay`` forgets it).
        self._accepts = -1
        #: The public table as views show it, kept by ``umtali.view`` until a card is laid
        #: (``turns.lay`` forgets it), and the last one made, which the next one builds on.
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
        return HandState.dealt(rules, dealer, cards, reshuffle_key)

    @staticmethod
    def dealt(rules: RuleSet, dealer: int, cards: list[int], reshuffle_key: str) -> HandState:
        """``deal`` from a deck known to hold each card once (a session's own shuffle), a list
        the hand may keep."""
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
        return play(self, move)

    def _play(self, move: Move) -> list[Event]:
        """Play ``move``, known to be listed, unchecked: the turn loop (``umtali.turns``)."""
        # (A method that calls it, not the function set as one: compiled, ``play`` is a
        # built-in function, which a class does not bind to its instances.)
        return play(self, move)

    # -- copies ---------------------------------------------------------------------------

    def copy(self) -> HandState:
        # Made by its constructor (compiled by mypyc, the class makes no bare instance).
        s = HandState(self.rules, self.dealer, self.reshuffle_key)
        for name in _FIELDS:
            v = getattr(self, name)
            if isinstance(v, list):
                v = list(v)
            setattr(s, name, v)
        s._heading = None  # the copy may go to another session
        return s

    def __reduce__(self) -> tuple[Callable[..., HandState], tuple[object, ...]]:
        # Pickled and deep-copied by its fields (compiled, it has no ``__dict__`` to copy),
        # its caches left out: each is worked out again when first read.
        return _from_fields, tuple(
            None if name in _CACHES else getattr(self, name) for name in _FIELDS
        )


#: The fields that keep what may be worked out again (``None``: not yet; ``_accepts`` is -1).
_CACHES: Final = frozenset(("_heading", "_legal", "_pile_seen", "_table_base", "_table_view"))


def _from_fields(*values: object) -> HandState:
    """A hand from its fields' values in ``_FIELDS`` order (``HandState.__reduce__``)."""
    fields = dict(zip(_FIELDS, values, strict=True))
    h = HandState(cast(RuleSet, fields["rules"]), cast(int, fields["dealer"]),
                  cast(str, fields["reshuffle_key"]))
    for name, value in fields.items():
        setattr(h, name, value)
    h._accepts = -1
    return h

