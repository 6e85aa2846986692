"""Cards in words, for what a screen reader says: "7 of hearts" (Russian «7 червей»), where
"7♥" and "7♦" would be told apart by their suit signs alone, which a reader may name oddly or
not at all. The panels' menus carry them as their options' descriptions; the labels keep the
signs, which an eye takes in at a glance."""

from __future__ import annotations

from collections.abc import Sequence

from cogs.umtali.text_cuts import head
from umtali.cards import ACE, JACK, KING, QUEEN, Card
from umtali.i18n import N_, Tr

#: Each suit's words, a rank (or several) before it: Russian puts the suit in the genitive
#: after the rank («дама пик»), as English puts "of spades".
_SUITS = (N_("{rank} of spades"), N_("{rank} of hearts"), N_("{rank} of diamonds"),
          N_("{rank} of clubs"))
#: Discord's most for an option's label or description.
MOST = 100


def rank_words(rank: int, tr: Tr) -> str:
    """A rank as said: a number as its figure, an ace or a picture card by its name."""
    if rank == ACE:
        return tr.ctx("card rank", "ace")
    if rank == JACK:
        return tr.ctx("card rank", "jack")
    if rank == QUEEN:
        return tr.ctx("card rank", "queen")
    if rank == KING:
        return tr.ctx("card rank", "king")
    return str(rank)


def card_words(card: Card, tr: Tr) -> str:
    """One card in words: "7 of hearts", "queen of spades"."""
    return tr(_SUITS[card.suit], rank=rank_words(card.rank, tr))


def cards_words(cards: Sequence[Card], tr: Tr) -> str:
    """Cards in words, parted by commas (a reader pauses at each): a run of one suit names
    its suit once ("8, 9, 10 of diamonds"), other cards each their own ("7 of hearts, 7 of
    clubs")."""
    if cards and all(c.suit == cards[0].suit for c in cards):
        return tr(_SUITS[cards[0].suit], rank=", ".join(rank_words(c.rank, tr) for c in cards))
    return ", ".join(card_words(c, tr) for c in cards)


def fitted(text: str) -> str:
    """``text`` within an option's ``MOST`` characters, cut between words (a reader hears no
    half word, no half "10♥"), an ellipsis saying it was cut."""
    return head(text, MOST)
