"""What one seat may see: the only thing a renderer or a computer player is ever given.

A view holds the seat's own hand, the public table and counts of the hidden cards; never the
opponent's cards, the stock order, a face-down discard the seat did not lay, or the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from umtali.cards import CARDS, Card, cards_of, iter_cards, mask_of
from umtali.hand import Phase
from umtali.melds import Meld, PlayKind, Shape, rebuilt
from umtali.moves import Move

if TYPE_CHECKING:
    from umtali.hand import HandState, Play
    from umtali.rules import RuleSet
    from umtali.session import Session


@dataclass(frozen=True, slots=True)
class PlayView:
    """One play on the table: who laid it, what, and the logical meld it belongs to."""

    player: int
    kind: PlayKind
    cards: tuple[Card, ...]
    meld: int
    points: int


@dataclass(frozen=True, slots=True)
class MeldView:
    """A logical meld: the original meld and every extension, whoever laid them."""

    index: int
    shape: Shape
    cards: tuple[Card, ...]

    def accepts(self) -> tuple[Card, ...]:
        """The cards that would extend it next (wherever they are)."""
        return tuple(iter_cards(rebuilt(self.shape, mask_of(self.cards)).accepts))


class TableView:
    """The plays and melds as views show them, built the first time a view reads them.

    A hand keeps the last one, so views share it until a card is laid. A new one builds on the
    last one that was read: only the plays added and the melds changed since are made again.
    """

    __slots__ = ("_base", "_melds", "_plays", "melds_from", "plays_from")

    def __init__(
        self, plays_from: tuple[Play, ...], melds_from: tuple[Meld, ...], base: TableView | None
    ) -> None:
        #: The hand's plays and logical melds it shows.
        self.plays_from = plays_from
        self.melds_from = melds_from
        # The last table read before this one (never a chain: see ``_table_view``).
        self._base = base
        self._plays: tuple[PlayView, ...] | None = None
        self._melds: tuple[MeldView, ...] = ()

    @property
    def read(self) -> bool:
        return self._plays is not None

    @property
    def plays(self) -> tuple[PlayView, ...]:
        if self._plays is None:
            return self._build()
        return self._plays

    @property
    def melds(self) -> tuple[MeldView, ...]:
        if self._plays is None:
            self._build()
        return self._melds

    def _build(self) -> tuple[PlayView, ...]:
        base, self._base = self._base, None
        plays = self.plays_from
        kept_from: tuple[Play, ...] = ()
        kept_plays: tuple[PlayView, ...] = ()
        old: tuple[Meld, ...] = ()
        old_views: tuple[MeldView, ...] = ()
        if base is not None and base._plays is not None:
            kept_from, kept_plays = base.plays_from, base._plays
            old, old_views = base.melds_from, base._melds
        # Plays are only ever added; a meld changes when a card extends it.
        n = len(kept_from)
        if plays[:n] != kept_from:
            n = 0
        self._plays = kept_plays[:n] + tuple(
            PlayView(p.player, p.kind, cards_of(p.cards), p.meld, p.points) for p in plays[n:]
        )
        self._melds = tuple(
            old_views[i] if i < len(old) and old[i] == m
            else MeldView(i, m.shape, cards_of(m.cards))
            for i, m in enumerate(self.melds_from)
        )
        return self._plays


def _table_view(h: HandState) -> TableView:
    """The hand's table as views show it, reusing what is unchanged since the last view."""
    kept = h._table_view
    plays = h.plays
    # Plays are only ever added, and a meld changes only when a play is added: the same
    # number of plays, ending with the same one, is the same table.
    if (
        kept is not None
        and len(kept.plays_from) == len(plays)
        and len(kept.melds_from) == len(h.melds)
        and (not plays or kept.plays_from[-1] is plays[-1])
    ):
        return kept
    # Build on the last table read, so that unread tables never form a chain.
    base = kept if kept is None or kept.read else kept._base
    kept = TableView(tuple(plays), tuple(h.melds), base)
    h._table_view = kept
    return kept


#: The seat of a spectator's view: the public table, no hand.
SPECTATOR = -1

_MELD_PHASE = Phase.MELD  # bound once: read for every view
_new = object.__new__


class PlayerView:
    """What ``seat`` may see; ``seat == SPECTATOR`` is the public table, with no hand at all.

    A view is a value, fixed when ``PlayerView.of`` makes it: it keeps the plain numbers it
    needs (the seat's own cards as a mask, the visible discard pile, the table shared with
    other views) and turns them into cards only when a field is first read. Nothing it keeps
    is hidden from its seat, read or not. Its fields are read-only.
    """

    __slots__ = (
        "_dealer",
        "_discard_pile",
        "_drawn",
        "_game",
        "_games_won",
        "_hand",
        "_hand_no",
        "_hand_points",
        "_hand_scores",
        "_hand_sizes",
        "_legal",
        "_must",
        "_own",
        "_phase",
        "_pile",
        "_reshuffled",
        "_rules",
        "_seat",
        "_stock_size",
        "_table",
        "_taken",
        "_to_act",
        "_top_face_down",
        "_top_hidden",
        "_went_out",
        "_winner",
    )

    _dealer: int
    _discard_pile: tuple[Card | None, ...] | None
    _drawn: int
    _game: int
    _games_won: tuple[int, int]
    _hand: tuple[Card, ...] | None
    _hand_no: int
    _hand_points: tuple[int, int]
    _hand_scores: tuple[tuple[int, int], ...]
    _hand_sizes: tuple[int, int]
    _legal: tuple[Move, ...]
    _must: int
    _own: int
    _phase: Phase
    _pile: tuple[int, ...]
    _reshuffled: bool
    _rules: RuleSet
    _seat: int
    _stock_size: int
    _table: TableView
    _taken: int
    _to_act: int
    _top_face_down: bool
    _top_hidden: bool
    _went_out: int
    _winner: int

    @staticmethod
    def of(session: Session, seat: int) -> PlayerView:
        # Called for every move a computer makes: plain loads and stores, nothing made twice.
        h = session.hand
        winner = session.winner
        turn = h.turn
        v = _new(PlayerView)
        v._seat = seat
        v._rules = session.rules
        v._game = session.game
        v._hand_no = session.hand_no
        v._dealer = h.dealer
        v._to_act = turn if winner < 0 else -1
        v._phase = phase = h.phase
        hands = h.hands
        v._own = hands[seat] if seat >= 0 else 0
        v._hand = None
        v._hand_sizes = (hands[0].bit_count(), hands[1].bit_count())
        v._stock_size = len(h.stock)
        pile = h.discard_pile
        v._top_face_down = face_down = h.face_down and bool(pile)
        # A face-down top card only the seat that laid it (who went out) may see.
        v._top_hidden = hidden = face_down and h.out != seat
        v._pile = tuple(pile[:-1] if hidden else pile)
        v._discard_pile = None
        v._table = _table_view(h)
        points, won = h.points, session.games_won
        v._hand_points = (points[0], points[1])
        v._hand_scores = tuple(session.hand_scores)
        v._games_won = (won[0], won[1])
        v._went_out = h.out
        v._reshuffled = h.reshuffled
        v._winner = winner
        if seat == turn and winner < 0:
            v._taken = h.taken
            v._must = h.must_meld
            v._drawn = h.drawn if phase is _MELD_PHASE else 0
            legal = h._legal
            v._legal = tuple(h.legal_moves() if legal is None else legal)
        else:
            v._taken, v._must, v._drawn, v._legal = -1, 0, 0, ()
        return v

    # -- the fields ---------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def rules(self) -> str:
        return self._rules.describe()

    @property
    def game(self) -> int:
        return self._game

    @property
    def hand_no(self) -> int:
        return self._hand_no

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def to_act(self) -> int:
        """The seat to act, or -1 when the session is over."""
        return self._to_act

    @property
    def phase(self) -> str:
        return self._phase.value

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's cards in display order (suit, then rank); empty for a spectator."""
        cards = self._hand
        if cards is None:
            cards = self._hand = cards_of(self._own)  # index order is display order
        return cards

    @property
    def opponent_hand_size(self) -> int:
        return self._hand_sizes[1 - self._seat] if self._seat >= 0 else 0

    @property
    def hand_sizes(self) -> tuple[int, int]:
        """How many cards each seat holds."""
        return self._hand_sizes

    @property
    def stock_size(self) -> int:
        return self._stock_size

    @property
    def discard_pile(self) -> tuple[Card | None, ...]:
        """The discard pile, bottom first; a face-down card this seat did not lay shows as
        None."""
        pile = self._discard_pile
        if pile is None:
            pile = tuple(map(CARDS.__getitem__, self._pile))
            if self._top_hidden:
                pile += (None,)
            self._discard_pile = pile
        return pile

    @property
    def top_face_down(self) -> bool:
        return self._top_face_down

    @property
    def plays(self) -> tuple[PlayView, ...]:
        return self._table.plays

    @property
    def melds(self) -> tuple[MeldView, ...]:
        return self._table.melds

    @property
    def hand_points(self) -> tuple[int, int]:
        """Points each player has melded this hand."""
        return self._hand_points

    @property
    def hand_scores(self) -> tuple[tuple[int, int], ...]:
        """Each finished hand's scores in the game in play."""
        return self._hand_scores

    @property
    def game_scores(self) -> tuple[int, int]:
        scores = self._hand_scores
        return sum(s[0] for s in scores), sum(s[1] for s in scores)

    @property
    def games_won(self) -> tuple[int, int]:
        return self._games_won

    @property
    def went_out(self) -> int:
        """Who went out this hand (the other is playing the last turn), or -1."""
        return self._went_out

    @property
    def taken(self) -> Card | None:
        """The card this seat took from the discard pile this turn, if any."""
        return CARDS[self._taken] if self._taken >= 0 else None

    @property
    def must_meld(self) -> tuple[Card, ...]:
        """Cards taken with ``take 2`` that must still be melded this turn."""
        return cards_of(self._must)

    @property
    def drawn(self) -> tuple[Card, ...]:
        """The cards this seat took this turn, from the stock or the discard pile (laid since
        or not), while it melds; empty otherwise, and always for the opponent and a
        spectator."""
        return cards_of(self._drawn)

    @property
    def reshuffled(self) -> bool:
        return self._reshuffled

    @property
    def winner(self) -> int:
        return self._winner

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """This seat's legal moves when it is to act, else empty."""
        return self._legal

    @property
    def my_turn(self) -> bool:
        return self._to_act == self._seat

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
