"""Moves and their one notation: ``draw``, ``take``, ``take 2``, ``meld 8D 9D 10D``,
``extend 7D 8D`` (lay 7D on the meld that holds 8D), ``discard KS``, ``discard KS down``.

Every move has one canonical text that parses back to the same move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from enum import Enum
from typing import NamedTuple

from umtali.cards import CARDS, Card, cards_of, format_cards, iter_cards, mask_of, parse_cards
from umtali.errors import InvalidMoveError
from umtali.i18n import Text
from umtali.letters import native, small
from umtali.move_words import notation, two_moves


class MoveKind(Enum):
    DRAW = "draw"
    TAKE = "take"
    TAKE_TWO = "take 2"
    MELD = "meld"
    EXTEND = "extend"
    DISCARD = "discard"


#: The notation in one line. Its words (draw, take, ...) are typed as they are in every
#: language; only the <placeholders> between them are translated.
NOTATION_HELP = Text.of(
    "draw, take, take 2, meld <cards>, extend <card> <card on the meld>, "
    "discard <card> [down]"
)
_TAKE_TWO_WORDS = {"2", "two", "both"}
_DOWN_WORDS = {"down", "facedown", "face-down", "hidden"}
#: The last word of a discard said face up, where a player types a move: a last card that may
#: lie either way goes face down unless said so (the rules' default; ``typed``).
UP_WORDS = frozenset({"up", "faceup", "face-up"})
#: The notation as a player types it (``typed``): a last card goes face down unless told up.
TYPED_HELP = Text.of(
    "draw, take, take 2, meld <cards>, extend <card> <card on the meld>, "
    "discard <card> [up]"
)


class Move(NamedTuple):
    """One move. ``cards`` is a mask; ``target`` is a card of the meld an extension extends."""

    kind: MoveKind
    cards: int = 0
    target: int = -1
    face_down: bool = False

    @staticmethod
    def draw() -> Move:
        return _DRAW

    @staticmethod
    def take() -> Move:
        return _TAKE

    @staticmethod
    def take_two() -> Move:
        return _TAKE_TWO

    @staticmethod
    def meld(cards: Iterable[int]) -> Move:
        return Move(MoveKind.MELD, mask_of(cards))

    @staticmethod
    def extend(card: int, target: int) -> Move:
        return Move(MoveKind.EXTEND, 1 << card, int(target))

    @staticmethod
    def discard(card: int, face_down: bool = False) -> Move:
        return Move(MoveKind.DISCARD, 1 << card, -1, face_down)

    @property
    def card_list(self) -> tuple[Card, ...]:
        return cards_of(self.cards)

    @property
    def card(self) -> Card:
        """The one card of an extension or a discard."""
        return CARDS[self.cards.bit_length() - 1]

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move in the notation; card names may take any form ``Card.parse`` reads."""
        words = text.replace(",", " ").split()
        if not words:
            raise InvalidMoveError(Text.of("no move given. Moves: {moves}", moves=NOTATION_HELP))
        verb, rest = small(words[0]), words[1:]
        if verb == "draw" and not rest:
            return _DRAW
        if verb == "take":
            if not rest:
                return _TAKE
            if len(rest) == 1 and small(rest[0]) in _TAKE_TWO_WORDS:
                return _TAKE_TWO
            raise InvalidMoveError(Text.of("'take' takes the top discard; 'take 2' the top two"))
        if verb == "meld":
            if not rest:
                raise InvalidMoveError(Text.of("name the cards to meld, like: meld 8D 9D 10D"))
            cards = parse_cards(" ".join(rest))
            if len(set(cards)) != len(cards):
                raise InvalidMoveError(Text.of("a card is named twice"))
            return Move(MoveKind.MELD, mask_of(cards))
        if verb == "extend":
            names = [w for w in rest if small(w) != "on"]
            if len(names) != 2:
                raise InvalidMoveError(Text.of(
                    "name your card and a card of the meld it extends, like: extend 7D 8D"))
            card, target = Card.parse(names[0]), Card.parse(names[1])
            if card == target:
                raise InvalidMoveError(Text.of("a card cannot extend itself"))
            return Move(MoveKind.EXTEND, 1 << card, int(target))
        if verb == "discard":
            down = bool(rest) and small(rest[-1]) in _DOWN_WORDS
            if down:
                rest = rest[:-1]
            if len(rest) != 1:
                raise InvalidMoveError(Text.of("name one card to discard, like: discard KS"))
            return Move(MoveKind.DISCARD, 1 << Card.parse(rest[0]), -1, down)
        raise InvalidMoveError(Text.of("{text} is not a move. Moves: {moves}",
                                       text=repr(text.strip()), moves=NOTATION_HELP))

    def text(self, *, symbols: bool = False) -> str:
        """Canonical notation (``symbols=True`` writes suits as ♠♥♦♣ for people)."""
        k = self.kind
        if k is MoveKind.DRAW or k is MoveKind.TAKE or k is MoveKind.TAKE_TWO:
            return str(k.value)
        names = format_cards(iter_cards(self.cards), ascii_codes=not symbols)
        if k is MoveKind.MELD:
            return f"meld {names}"
        if k is MoveKind.EXTEND:
            target = str(CARDS[self.target]) if symbols else CARDS[self.target].code
            return f"extend {names} {target}"
        return f"discard {names} down" if self.face_down else f"discard {names}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse({self.text()!r})"


_DRAW = Move(MoveKind.DRAW)
_TAKE = Move(MoveKind.TAKE)
_TAKE_TWO = Move(MoveKind.TAKE_TWO)


def typed(text: str, language: str) -> tuple[Move, bool]:
    """A move as a player types it, and whether its side is the default: a discard that says
    neither ``down`` nor ``up`` (its last card then goes face down, ``side_chosen``). Its
    cards are read in ``language``'s alphabet: a look-alike letter of the other is the card it
    looks like, or refused naming both (``letters.native``); its words may be ``language``'s
    (``move_words``). The notation of scripts, replays and panels is ``Move.parse``'s, where a
    discard is face up."""
    text = native(notation(text, language), language)
    words = text.replace(",", " ").split()
    up = len(words) > 2 and small(words[0]) == "discard" and small(words[-1]) in UP_WORDS
    if up and small(words[-2]) in _DOWN_WORDS:
        raise two_moves(text)  # "discard KS down up": not read as either side
    try:
        move = Move.parse(" ".join(words[:-1]) if up else text)
    except InvalidMoveError as e:
        if "moves" not in e.text.params:
            raise
        # The notation's help says ``[down]``; typed, the choice to say is ``up``.
        raise InvalidMoveError(replace(e.text, params={**e.text.params,
                                                       "moves": TYPED_HELP})) from None
    return move, move.kind is MoveKind.DISCARD and not up and not move.face_down


def going_out(move: Move, legal: Sequence[Move]) -> bool:
    """Whether ``move`` discards a last card, which may lie either side up (``legal``)."""
    return move.kind is MoveKind.DISCARD and (
        move.face_down or move._replace(face_down=True) in legal)


def side_chosen(move: Move, legal: Sequence[Move]) -> Move:
    """``move`` with the default side: a discard of a last card that may lie face down (in
    ``legal``) is laid face down, as the rules have the bot do unless the player says up."""
    return move._replace(face_down=True) if going_out(move, legal) else move


def face_up_text(move: Move, legal: Sequence[Move]) -> str:
    """``move`` as a player types it where a last card goes face down unless said up."""
    return f"{move} up" if going_out(move, legal) and not move.face_down else str(move)
