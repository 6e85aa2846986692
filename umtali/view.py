"""What one seat may see: the only thing a renderer or a computer player is ever given.

A view holds the seat's own hand, the public table and counts of the hidden cards; never the
opponent's cards, the stock order, a face-down discard the seat did not lay, or the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from umtali.cards import CARDS, Card, cards_of, iter_cards, mask_of
from umtali.melds import Meld, PlayKind, Shape, rebuilt
from umtali.moves import Move

if TYPE_CHECKING:
    from umtali.hand import HandState, Play
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


class TableView(NamedTuple):
    """The plays and melds as views show them, with the state they were built from.

    A hand keeps the last one, so each view rebuilds them only after a card is laid.
    """

    plays_from: tuple[Play, ...]
    melds_from: tuple[Meld, ...]
    plays: tuple[PlayView, ...]
    melds: tuple[MeldView, ...]


def _table_view(h: HandState) -> TableView:
    """The hand's table as views show it, reusing what is unchanged since the last view."""
    plays = tuple(h.plays)
    melds = tuple(h.melds)
    kept = h._table_view
    if kept is None:
        kept = TableView((), (), (), ())
    elif kept.plays_from == plays and kept.melds_from == melds:
        return kept
    # Plays are only ever added; a meld changes when a card extends it.
    n = len(kept.plays_from)
    if plays[:n] != kept.plays_from:
        n = 0
    play_views = kept.plays[:n] + tuple(
        PlayView(p.player, p.kind, cards_of(p.cards), p.meld, p.points) for p in plays[n:]
    )
    old = kept.melds_from
    meld_views = tuple(
        kept.melds[i] if i < len(old) and old[i] == m else MeldView(i, m.shape, cards_of(m.cards))
        for i, m in enumerate(melds)
    )
    kept = TableView(plays, melds, play_views, meld_views)
    h._table_view = kept
    return kept


#: The seat of a spectator's view: the public table, no hand.
SPECTATOR = -1


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``seat`` may see; ``seat == SPECTATOR`` is the public table, with no hand at all."""

    seat: int
    rules: str
    game: int
    hand_no: int
    dealer: int
    #: The seat to act, or -1 when the session is over.
    to_act: int
    phase: str
    hand: tuple[Card, ...]
    opponent_hand_size: int
    #: How many cards each seat holds.
    hand_sizes: tuple[int, int]
    stock_size: int
    #: The discard pile, bottom first; a face-down card this seat did not lay shows as None.
    discard_pile: tuple[Card | None, ...]
    top_face_down: bool
    plays: tuple[PlayView, ...]
    melds: tuple[MeldView, ...]
    #: Points each player has melded this hand.
    hand_points: tuple[int, int]
    #: Each finished hand's scores in the game in play.
    hand_scores: tuple[tuple[int, int], ...]
    game_scores: tuple[int, int]
    games_won: tuple[int, int]
    #: Who went out this hand (the other is playing the last turn), or -1.
    went_out: int
    #: The card this seat took from the discard pile this turn, if any.
    taken: Card | None
    #: Cards taken with ``take 2`` that must still be melded this turn.
    must_meld: tuple[Card, ...]
    reshuffled: bool
    winner: int
    #: This seat's legal moves when it is to act, else empty.
    legal_moves: tuple[Move, ...]

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @staticmethod
    def of(session: Session, seat: int) -> PlayerView:
        h = session.hand
        mine = seat == h.turn and not session.over
        hand: tuple[Card, ...] = ()
        if seat >= 0:
            hand = cards_of(h.hands[seat])  # index order is display order: suit, then rank
        pile: list[Card | None] = list(map(CARDS.__getitem__, h.discard_pile))
        if h.face_down and pile and h.out != seat:
            pile[-1] = None
        table = _table_view(h)
        return PlayerView(
            seat=seat,
            rules=session.rules.describe(),
            game=session.game,
            hand_no=session.hand_no,
            dealer=h.dealer,
            to_act=session.to_act,
            phase=h.phase.value,
            hand=hand,
            opponent_hand_size=h.hands[1 - seat].bit_count() if seat >= 0 else 0,
            hand_sizes=(h.hands[0].bit_count(), h.hands[1].bit_count()),
            stock_size=len(h.stock),
            discard_pile=tuple(pile),
            top_face_down=h.face_down and bool(pile),
            plays=table.plays,
            melds=table.melds,
            hand_points=(h.points[0], h.points[1]),
            hand_scores=tuple(session.hand_scores),
            game_scores=session.game_scores(),
            games_won=(session.games_won[0], session.games_won[1]),
            went_out=h.out,
            taken=CARDS[h.taken] if mine and h.taken >= 0 else None,
            must_meld=tuple(CARDS[c] for c in iter_cards(h.must_meld)) if mine else (),
            reshuffled=h.reshuffled,
            winner=session.winner,
            legal_moves=tuple(h.legal_moves()) if mine else (),
        )
