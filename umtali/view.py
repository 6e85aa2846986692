"""What one seat may see: the only thing a renderer or a computer player is ever given.

A view holds the seat's own hand, the public table and counts of the hidden cards; never the
opponent's cards, the stock order, a face-down discard the seat did not lay, or the seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from umtali.cards import CARDS, Card, cards_of
from umtali.hand import Phase
from umtali.moves import Move
from umtali.table_view import MeldView, PlayView, TableView, table_view_of

if TYPE_CHECKING:
    from umtali.session import Heading, Session

__all__ = ["SPECTATOR", "MeldView", "PlayView", "PlayerView", "TableView"]


#: The seat of a spectator's view: the public table, no hand.
SPECTATOR = -1

#: What a view keeps of its position: to act, phase, top face down, went out, reshuffled,
#: hand sizes (2: the opponent's and -1 for a seat, whose own is counted from its cards when
#: read; seat 1's and seat 0's for a spectator), stock size, hand points (2), the seat's cards (a
#: mask), the discard pile as the seat sees it (bottom first, -1 for a face-down card it did not
#: lay), the table, and of the seat's own turn: the card taken, the cards it must meld and the
#: cards drawn (masks; -1, 0, 0 for the seat not to act); then the seat and the session's heading.
#: Its legal moves are kept on their own.
_Pub = tuple[
    int, Phase, bool, int, bool, int, int, int, int, int, int, tuple[int, ...], TableView,
    int, int, int, int, "Heading",
]
#: A card of the pile as a view shows it, by index; the last, -1, is a face-down card unseen.
_SHOWN: tuple[Card | None, ...] = (*CARDS, None)


class PlayerView:
    """What ``seat`` may see; ``seat == SPECTATOR`` is the public table, with no hand at all.

    A view is a value, fixed when ``PlayerView.of`` makes it: it keeps the plain numbers it
    needs (the seat's own cards as a mask, the visible discard pile, the table shared with
    other views, the session's heading shared by every view of the hand) and turns them into
    cards only when a field is first read. Nothing it keeps is hidden from its seat, read or
    not, and it keeps no reference to the hand or the session. Its fields are read-only.
    """

    __slots__ = ("_discard_pile", "_hand", "_legal", "_pub")

    # What a view keeps, in two stores: every one costs as much as the read behind it.
    #: The numbers of the position, its seat and the session's heading; see ``_Pub``.
    _pub: _Pub
    #: The seat's legal moves, empty when it is not to act (``RandomPlayer`` reads them here:
    #: a slot is read in one step, a property is a call that costs as much as the choice).
    _legal: tuple[Move, ...]
    # Made the first time they are read (unset until then).
    _discard_pile: tuple[Card | None, ...]
    _hand: tuple[Card, ...]

    @staticmethod
    def of(session: Session, seat: int) -> PlayerView:
        """What ``seat`` may see of ``session`` now (``Session.view``); ``SPECTATOR`` gives the
        public table."""
        # Called for every move a computer makes: plain loads, one tuple, nothing made twice.
        h = session.hand
        # The heading the session made for this hand (forgotten when the winner is decided).
        head = h._heading
        if head is None:
            head = session.heading()
        hands = h.hands
        points = h.points
        # The table as views show it, kept by the hand until a card is laid.
        table = h._table_view
        if table is None:
            table = table_view_of(h)
        # The pile as a tuple, made once for the views of one pile.
        shown = h._pile_seen
        if shown is None:
            shown = h._pile_seen = tuple(h.discard_pile)
        # A face-down card only the seat that laid it may see: -1 here. The top is laid by
        # the player who went out, or by the other in the last turn; a face-down card under
        # it only by the player who went out.
        if h.face_down and shown and h.down_by != seat:
            shown = (*shown[:-1], -1)
        if h.down_below and len(shown) > 1 and h.out != seat:
            shown = (*shown[:-2], -1, shown[-1])
        v = PlayerView()  # (calling the class is quicker than ``object.__new__``)
        if seat == h.turn and head[7] < 0:
            # The seat to act, the view nearly every one asked for is.
            legal = h._legal  # most often listed by the move that led here
            if legal is None:
                legal = h.listed()
            v._legal = legal
            # The opponent's hand size; the seat's own is counted from its cards when read.
            # Cards drawn are 0 in the draw phase: a turn begins with none.
            v._pub = (
                seat, h.phase, h.face_down, h.out, h.reshuffled, hands[1 - seat].bit_count(), -1,
                len(h.stock), points[0], points[1], hands[seat], shown, table, h.taken,
                h.must_meld, h.drawn, seat, head,
            )
        else:
            v._legal = ()
            v._pub = (
                h.turn, h.phase, h.face_down, h.out, h.reshuffled,
                hands[1 - seat].bit_count() if seat >= 0 else hands[1].bit_count(),
                -1 if seat >= 0 else hands[0].bit_count(),
                len(h.stock), points[0], points[1], hands[seat] if seat >= 0 else 0, shown,
                table, -1, 0, 0, seat, head,
            )
        return v

    # -- the fields ---------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self._pub[16]

    @property
    def rules(self) -> str:
        return self._pub[17][0].describe()

    @property
    def game(self) -> int:
        return self._pub[17][1]

    @property
    def hand_no(self) -> int:
        return self._pub[17][2]

    @property
    def dealer(self) -> int:
        return self._pub[17][3]

    @property
    def to_act(self) -> int:
        """The seat to act, or -1 when the session is over."""
        return self._pub[0] if self._pub[17][7] < 0 else -1

    @property
    def phase(self) -> str:
        return self._pub[1].value

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's cards in display order (suit, then rank); empty for a spectator."""
        try:
            return self._hand
        except AttributeError:
            cards = self._hand = cards_of(self._pub[10])  # index order is display order
            return cards

    @property
    def opponent_hand_size(self) -> int:
        p = self._pub
        return p[5] if p[16] >= 0 else 0

    @property
    def hand_sizes(self) -> tuple[int, int]:
        """How many cards each seat holds."""
        p = self._pub
        seat = p[16]
        if seat == 0:
            return p[10].bit_count(), p[5]
        if seat == 1:
            return p[5], p[10].bit_count()
        return p[6], p[5]

    @property
    def stock_size(self) -> int:
        return self._pub[7]

    @property
    def discard_pile(self) -> tuple[Card | None, ...]:
        """The discard pile, bottom first; a face-down card this seat did not lay shows as
        None."""
        try:
            return self._discard_pile
        except AttributeError:
            pile = self._discard_pile = tuple(map(_SHOWN.__getitem__, self._pub[11]))
            return pile

    @property
    def top_face_down(self) -> bool:
        p = self._pub
        return p[2] and bool(p[11])

    @property
    def plays(self) -> tuple[PlayView, ...]:
        return self._pub[12].plays

    @property
    def melds(self) -> tuple[MeldView, ...]:
        return self._pub[12].melds

    @property
    def hand_points(self) -> tuple[int, int]:
        """Points each player has melded this hand."""
        p = self._pub
        return p[8], p[9]

    @property
    def hand_scores(self) -> tuple[tuple[int, int], ...]:
        """Each finished hand's scores in the game in play."""
        return self._pub[17][4]

    @property
    def game_scores(self) -> tuple[int, int]:
        scores = self.hand_scores
        return sum(s[0] for s in scores), sum(s[1] for s in scores)

    @property
    def games_won(self) -> tuple[int, int]:
        head = self._pub[17]
        return head[5], head[6]

    @property
    def went_out(self) -> int:
        """Who went out this hand (the other is playing the last turn), or -1."""
        return self._pub[3]

    @property
    def taken(self) -> Card | None:
        """The card this seat took from the discard pile this turn, if any."""
        taken = self._pub[13]
        return CARDS[taken] if taken >= 0 else None

    @property
    def must_meld(self) -> tuple[Card, ...]:
        """Cards taken with ``take 2`` that must still be melded this turn."""
        return cards_of(self._pub[14])

    @property
    def drawn(self) -> tuple[Card, ...]:
        """The cards this seat took this turn, from the stock or the discard pile (laid since
        or not), while it melds; empty otherwise, and always for the opponent and a
        spectator."""
        return cards_of(self._pub[15])

    @property
    def reshuffled(self) -> bool:
        return self._pub[4]

    @property
    def winner(self) -> int:
        return self._pub[17][7]

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """This seat's legal moves when it is to act, else empty."""
        return self._legal

    @property
    def my_turn(self) -> bool:
        return self._pub[0] == self._pub[16] and self._pub[17][7] < 0

    @property
    def top_discard(self) -> Card | None:
        pile = self.discard_pile
        return pile[-1] if pile else None

    # -- a value ------------------------------------------------------------------------------

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS)
        return f"PlayerView({shown})"


#: The public fields of a view, in the order ``repr`` shows them.
FIELDS = (
    "seat", "rules", "game", "hand_no", "dealer", "to_act", "phase", "hand",
    "opponent_hand_size", "hand_sizes", "stock_size", "discard_pile", "top_face_down", "plays",
    "melds", "hand_points", "hand_scores", "game_scores", "games_won", "went_out", "taken",
    "must_meld", "drawn", "reshuffled", "winner", "legal_moves",
)
