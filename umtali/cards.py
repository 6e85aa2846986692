"""Cards: a 52-card deck where a card is an int 0..51 and a set of cards is a bitmask.

A card's index is ``suit * 13 + rank - 1`` (rank 1 = ace .. 13 = king), so the cards of one suit
lie in one 13-bit run of a mask, in sequence order. That makes run and group searches plain
bit arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from umtali.errors import InvalidMoveError
from umtali.i18n import Text

SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES: Final = (
    "", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king",
)

ACE: Final = 1
TEN: Final = 10
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13

_SUIT_INPUT: Final = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    # Outline symbols and the emoji form with a variation selector are read too.
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}
_RANK_INPUT: Final = {
    "A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13,
    **{str(r): r for r in range(2, 10)},
    # The Russian letters: Туз, Валет, Дама, Король (Cyrillic, so Т is not the Latin T = 10).
    "Т": 1, "В": 11, "Д": 12, "К": 13,
}

#: The notation's letters by their small forms: only these are upper-cased (``str.upper`` would
#: read a long s ſ as S, the ligature ﬅ as ST, an old Cyrillic ᲄ as Т: none is a card).
_CAPITALS: Final = {c.lower(): c for c in {*"".join(_RANK_INPUT), *_SUIT_INPUT}
                    if c.lower() != c}


class Card(int):
    """One card. ``Card.parse("10D")``; ``str`` gives ``10♦``, ``.code`` gives ``10D``."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index out of range: {index}")
        return _CARDS[index]

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        return _CARDS[suit * 13 + rank - 1]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card in any common form: ``10D``, ``td``, ``10♦``, ``♦10``, ``qh``, ``AS``."""
        t = text.strip()
        # (ASCII, as every saved file and most typing is: upper-cased at once, a letter being
        # only a letter there; the table only for the rest, twice as slow.)
        t = t.upper() if t.isascii() else "".join(_CAPITALS.get(ch, ch) for ch in t).replace(
            "\ufe0f", "")
        if len(t) >= 2:
            # Rank first (``10D``), then suit first (``♦10``).
            for rank_part, suit_part in ((t[:-1], t[-1]), (t[1:], t[0])):
                rank = _RANK_INPUT.get(rank_part)
                suit = _SUIT_INPUT.get(suit_part)
                if rank is not None and suit is not None:
                    return _CARDS[suit * 13 + rank - 1]
        raise InvalidMoveError(Text.of(
            "{text} is not a card: write a rank (A, 2-10, J, Q, K) and a suit "
            "(S, H, D, C or ♠ ♥ ♦ ♣), like 10D or Q♥", text=repr(text.strip())))

    @property
    def rank(self) -> int:
        return int(self) % 13 + 1

    @property
    def suit(self) -> int:
        return int(self) // 13

    @property
    def points(self) -> int:
        return POINTS[self]

    @property
    def code(self) -> str:
        """Canonical ASCII text, as used in the move notation: ``10D``."""
        return RANK_TEXT[self.rank] + SUIT_LETTERS[self.suit]

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: list[Card] = [int.__new__(Card, i) for i in range(52)]
CARDS: Final[tuple[Card, ...]] = tuple(_CARDS)
FULL_DECK: Final = (1 << 52) - 1
#: Each card's bit. One int object per card, shared by the moves and the tables that look a
#: card up by its bit: a dict finds a key that is the same object without comparing numbers.
BITS: Final = tuple(1 << c for c in range(52))

#: Points by card index: 10, J, Q, K score 5; ace to nine score 1.
POINTS: Final[tuple[int, ...]] = tuple(5 if c.rank >= TEN else 1 for c in CARDS)
#: Mask of the four cards of each rank, indexed by rank 1..13.
RANK_MASK: Final[tuple[int, ...]] = (0, *(sum(1 << (s * 13 + r - 1) for s in range(4))
                                         for r in range(1, 14)))
SUIT_MASK: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (s * 13) for s in range(4))
JACKS: Final = RANK_MASK[JACK]


def card_index(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest index first (by suit, then rank)."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """``tuple(iter_cards(mask))``, without a generator's resumption per card."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def points_of(mask: int) -> int:
    pts = 0
    while mask:  # (no generator: each hand's end counts the cards left)
        low = mask & -mask
        pts += POINTS[low.bit_length() - 1]
        mask ^= low
    return pts


def sort_key(card: int) -> tuple[int, int]:
    """Display order for a hand: by suit, then rank."""
    return (card // 13, card % 13)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas."""
    parts = text.replace(",", " ").split()
    return tuple(Card.parse(p) for p in parts)


def format_cards(cards: Iterable[int], *, ascii_codes: bool = False) -> str:
    return " ".join(CARDS[c].code if ascii_codes else str(CARDS[c]) for c in cards)
