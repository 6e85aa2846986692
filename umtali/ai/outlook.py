"""What one player knows at a decision, as card masks: the same facts read from a ``PlayerView``
(a real seat) or from a ``HandState`` (a player inside a sampled world).

Judging moves from an ``Outlook`` rather than from a full state is what keeps the heuristics
honest: an outlook holds no card the player could not see.
"""

from __future__ import annotations

from typing import NamedTuple

from umtali.cards import FULL_DECK, mask_of
from umtali.hand import HandState
from umtali.melds import Meld, rebuilt
from umtali.view import PlayerView


class Outlook(NamedTuple):
    hand: int
    melds: tuple[Meld, ...]
    #: Cards that extend some meld on the table.
    accepts: int
    #: Cards whose place the player does not know (opponent's hand, stock, face-down discard).
    unseen: int
    #: Of the unseen cards, those known to be in the opponent's hand.
    known_opponent: int
    opponent_size: int
    stock_size: int
    #: The top discard, if it may be taken, or -1.
    top: int
    #: The house rule of optional melding is on.
    optional: bool
    #: The opponent went out: this is the player's last turn of the hand.
    last_turn: bool = False

    @property
    def live(self) -> int:
        """Cards the player may yet draw: unseen, and not known to be held by the opponent."""
        return self.unseen & ~self.known_opponent

    @property
    def opponent_share(self) -> float:
        """The chance that an unseen card not known to be anywhere is in the opponent's hand."""
        free = self.opponent_size - self.known_opponent.bit_count()
        pool = self.unseen.bit_count() - self.known_opponent.bit_count()
        return free / pool if pool > 0 and free > 0 else 0.0


def _accepts(melds: tuple[Meld, ...]) -> int:
    acc = 0
    for m in melds:
        acc |= m.accepts
    return acc


def of_state(h: HandState, known_opponent: int = 0) -> Outlook:
    """The outlook of the player to act in ``h``: their hand and the public table, nothing
    else of the state."""
    p = h.turn
    hand = h.hands[p]
    melds = tuple(h.melds)
    table = 0
    for m in melds:
        table |= m.cards
    pile = h.discard_pile
    seen_pile = 0
    for c in pile:
        seen_pile |= 1 << c
    top = pile[-1] if pile else -1
    if h.face_down and pile:
        if h.out != p:
            seen_pile &= ~(1 << top)  # a face-down discard the player did not lay
        top = -1  # nothing may be taken from under a face-down card
    unseen = FULL_DECK & ~hand & ~table & ~seen_pile
    return Outlook(
        hand, melds, _accepts(melds), unseen, known_opponent & unseen,
        h.hands[1 - p].bit_count(), len(h.stock), top, h.optional, h.out == 1 - p,
    )


def of_view(view: PlayerView, known_opponent: int = 0, optional: bool = False) -> Outlook:
    """The outlook of the seat of ``view``; ``known_opponent`` comes from its memory."""
    hand = mask_of(view.hand)
    melds = tuple(rebuilt(m.shape, mask_of(m.cards)) for m in view.melds)
    table = 0
    for m in melds:
        table |= m.cards
    pile = view.discard_pile
    unseen = FULL_DECK & ~hand & ~table & ~mask_of(c for c in pile if c is not None)
    top = pile[-1] if pile else None
    return Outlook(
        hand, melds, _accepts(melds), unseen, known_opponent & unseen,
        view.opponent_hand_size, view.stock_size,
        -1 if top is None or view.top_face_down else int(top),
        optional, view.went_out == 1 - view.seat,
    )
