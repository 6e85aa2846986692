"""Events: what ``apply`` reports happened, in order. Renderers turn them into words.

Some events hold a card only one seat may know (a card drawn from the stock, a face-down discard):
``for_seat`` gives the event as that seat may see it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from umtali.cards import Card
from umtali.melds import PlayKind


class HandEnd(Enum):
    WENT_OUT = "went out"
    STOCK_EXHAUSTED = "stock exhausted"
    STALLED = "no progress"


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"

    def for_seat(self, seat: int) -> Event:
        """This event as ``seat`` may see it."""
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _json_value(getattr(self, f.name))
        return out


def _json_value(v: object) -> Any:
    if isinstance(v, Card):
        return v.code
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, tuple):
        return [_json_value(x) for x in v]
    return v


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    type: ClassVar[str] = "dealer_chosen"
    #: Each round of the draw: (seat 0's card, seat 1's card); equal ranks draw again.
    draws: tuple[tuple[Card, Card], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    type: ClassVar[str] = "hand_started"
    game: int
    hand: int
    dealer: int
    upcard: Card | None
    tie_break: bool


@dataclass(frozen=True, slots=True)
class DrewFromStock(Event):
    type: ClassVar[str] = "drew"
    player: int
    card: Card | None

    def for_seat(self, seat: int) -> Event:
        return self if seat == self.player else DrewFromStock(self.player, None)


@dataclass(frozen=True, slots=True)
class TookDiscard(Event):
    type: ClassVar[str] = "took"
    player: int
    #: The cards taken; empty in the public (spectator) form, which never names a card in a hand.
    cards: tuple[Card, ...]
    count: int = 1

    def for_seat(self, seat: int) -> Event:
        return self if seat >= 0 else TookDiscard(self.player, (), len(self.cards) or self.count)


@dataclass(frozen=True, slots=True)
class Melded(Event):
    type: ClassVar[str] = "melded"
    player: int
    kind: PlayKind
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Extended(Event):
    type: ClassVar[str] = "extended"
    player: int
    card: Card
    #: A card of the meld extended, naming it.
    target: Card
    points: int


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    type: ClassVar[str] = "discarded"
    player: int
    card: Card | None
    face_down: bool

    def for_seat(self, seat: int) -> Event:
        if self.face_down and seat != self.player:
            return Discarded(self.player, None, True)
        return self


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    type: ClassVar[str] = "went_out"
    player: int
    #: True when the last card was discarded rather than melded.
    discarded: bool
    #: True when the other player went out first: going out in the last turn ends the hand.
    ends_hand: bool = False


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    type: ClassVar[str] = "stock_reshuffled"
    cards: int


@dataclass(frozen=True, slots=True)
class NoDraw(Event):
    """The last turn after going out began with an empty stock: it is played without a draw."""

    type: ClassVar[str] = "no_draw"
    player: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    type: ClassVar[str] = "hand_ended"
    game: int
    hand: int
    reason: HandEnd
    #: Who went out first, or None.
    went_out: int | None
    #: Points each player melded this hand (marriages doubled).
    melded: tuple[int, int]
    #: Points of the cards left in the opponent's hand, scored by the player who went out.
    leftover: int
    #: This hand's score for each player.
    scores: tuple[int, int]
    #: Each player's total in the game so far.
    game_scores: tuple[int, int]
    #: The cards each player held when the hand ended.
    left_in_hand: tuple[tuple[Card, ...], tuple[Card, ...]]
    #: Marriages each player laid this hand.
    marriages: tuple[int, int] = (0, 0)
    #: The stock had been rebuilt from the pile already this hand (it is rebuilt once): what
    #: ended a hand whose stock ran out, a second run-out rather than a pile with no card to give.
    rebuilt: bool = False


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    game: int
    scores: tuple[int, int]
    winner: int
    games_won: tuple[int, int]


@dataclass(frozen=True, slots=True)
class SessionEnded(Event):
    type: ClassVar[str] = "session_ended"
    winner: int
    games_won: tuple[int, int]
    #: "played out", or how it ended early (the product layer sets resigned or timed out).
    how: str = "played out"
