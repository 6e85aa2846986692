"""What one seat may see: the only thing a renderer or a computer player is ever given.

A view holds the seat's own hand, the public table and counts of the hidden cards; never the
opponent's cards, the stock order, a face-down discard the seat did not lay, or the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from umtali.cards import CARDS, Card, iter_cards, mask_of, sort_key
from umtali.melds import PlayKind, Shape, rebuilt
from umtali.moves import Move

if TYPE_CHECKING:
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
            hand = tuple(sorted((CARDS[c] for c in iter_cards(h.hands[seat])), key=sort_key))
        pile: list[Card | None] = [CARDS[c] for c in h.discard_pile]
        if h.face_down and pile and h.out != seat:
            pile[-1] = None
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
            plays=tuple(
                PlayView(p.player, p.kind, tuple(CARDS[c] for c in iter_cards(p.cards)),
                         p.meld, p.points)
                for p in h.plays
            ),
            melds=tuple(
                MeldView(i, m.shape, tuple(CARDS[c] for c in iter_cards(m.cards)))
                for i, m in enumerate(h.melds)
            ),
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
