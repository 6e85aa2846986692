"""How a hand is laid out on its player's private panels: by suit, by rank, or melds first.

"Melds first" groups what the seat's legal moves say it can lay now (``PlayerView.legal_moves``,
the engine's word); nothing here knows a rule. A member's choice is kept with their other
choices (``cogs.umtali.prefs``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from enum import Enum

from umtali.cards import Card
from umtali.i18n import N_, Tr
from umtali.moves import MoveKind
from umtali.text import GLUE
from umtali.view import PlayerView


class HandOrder(Enum):
    SUIT = "suit"
    RANK = "rank"
    MELDS = "melds"

    def label(self, tr: Tr) -> str:
        return tr(_LABELS[self])

    @staticmethod
    def read(value: str | None) -> HandOrder:
        """The order saved as ``value``; one this version does not know is the default."""
        try:
            return HandOrder(value)
        except ValueError:
            return HandOrder.SUIT

    @staticmethod
    def chosen(values: Sequence[object]) -> HandOrder | None:
        """The order a menu's values choose: one value, an order's; else None (a value the
        client forged, or one an older version offered), which is no choice."""
        if len(values) != 1:
            return None
        try:
            return HandOrder(str(values[0]))
        except ValueError:
            return None


_LABELS = {HandOrder.SUIT: N_("by suit"), HandOrder.RANK: N_("by rank"),
           HandOrder.MELDS: N_("melds first")}


def _by_suit(cards: Iterable[Card]) -> list[list[Card]]:
    groups: dict[int, list[Card]] = {}
    for c in sorted(cards, key=lambda c: (c.suit, c.rank)):
        groups.setdefault(c.suit, []).append(c)
    return list(groups.values())


def _by_rank(cards: Iterable[Card]) -> list[list[Card]]:
    groups: dict[int, list[Card]] = {}
    for c in sorted(cards, key=lambda c: (c.rank, c.suit)):
        groups.setdefault(c.rank, []).append(c)
    return list(groups.values())


#: Between the groups of a hand (a suit, a rank, a meld): a screen reader passes two spaces over
#: as one, and a middle dot or a bar in silence (NVDA's default punctuation level), but pauses
#: at a semicolon (a phrase's end), so the grouping is heard as it is seen.
GROUPS = "; "


def new_mark(tr: Tr) -> str:
    """After a card the seat took this turn (the panel's legend says so): a word, as the
    picture's tag is, which a screen reader says as it is and an eye finds (a "✱" was read
    "heavy asterisk"); in brackets, apart from the card's own name."""
    return tr.ctx("card", "(new)")


def _card(card: Card, new: Collection[Card], mark: str) -> str:
    # Glued to its card: a phone's line never breaks between them.
    return f"{card}{GLUE}{mark}" if card in new else str(card)


def _line(groups: Sequence[Sequence[Card]], new: Collection[Card], mark: str) -> str:
    return GROUPS.join(" ".join(_card(c, new, mark) for c in g) for g in groups)


def layable(view: PlayerView) -> tuple[list[tuple[Card, ...]], list[Card]]:
    """Melds the seat may lay now that share no card, longest first, and the other cards
    that extend a meld on the table, all from the legal moves (empty when not to act)."""
    melds = [m for m in view.legal_moves if m.kind is MoveKind.MELD]
    # Longest first, so that a run of five is shown whole rather than as a run of three.
    melds.sort(key=lambda m: -m.cards.bit_count())
    chosen: list[tuple[Card, ...]] = []
    used = 0
    for m in melds:
        if not m.cards & used:
            chosen.append(m.card_list)
            used |= m.cards
    extra: list[Card] = []
    for m in view.legal_moves:
        if m.kind is MoveKind.EXTEND and not m.cards & used and m.card not in extra:
            extra.append(m.card)
    return chosen, extra


def grouped(view: PlayerView, order: HandOrder) -> list[list[Card]]:
    """The hand's cards in the order the panel shows them, in the groups its text sets apart
    (a suit, a rank; or each meld to lay, the cards that extend the table, then the rest by
    suit): the picture leaves a gap between them."""
    if order is HandOrder.RANK:
        return _by_rank(view.hand)
    if order is HandOrder.MELDS:
        melds, extra = layable(view)
        first = [list(m) for m in melds] + ([extra] if extra else [])
        laid = {c for g in first for c in g}
        return first + _by_suit(c for c in view.hand if c not in laid)
    return _by_suit(view.hand)


def arranged(view: PlayerView, order: HandOrder) -> list[Card]:
    """The hand's cards in the order the panel shows them (its card menu and its picture
    follow it too)."""
    return [c for g in grouped(view, order) for c in g]


def hand_text(view: PlayerView, order: HandOrder, tr: Tr) -> str:
    """The hand laid out for people: groups of a suit or rank, or the melds first, parted by
    ``GROUPS``; each card taken this turn marked (``new_mark``)."""
    if not view.hand:
        return tr("no cards")
    new, mark = view.drawn, new_mark(tr)
    if order is HandOrder.RANK:
        return _line(_by_rank(view.hand), new, mark)
    if order is not HandOrder.MELDS:
        return _line(_by_suit(view.hand), new, mark)
    melds, extra = layable(view)
    laid = {c for m in melds for c in m} | set(extra)
    rest = _line(_by_suit(c for c in view.hand if c not in laid), new, mark)
    lines = []
    if melds:
        lines.append(GROUPS.join("[" + " ".join(_card(c, new, mark) for c in m) + "]"
                                 for m in melds))
    if extra:
        lines.append(tr("on the table: {cards}",
                        cards=" ".join(_card(c, new, mark) for c in extra)))
    if not lines:
        lines.append(tr("(nothing to lay now)") if view.my_turn and view.phase == "meld" else
                     tr("(melds are grouped when you may lay them)"))
    if rest:
        lines.append(rest)
    return "\n".join(lines)


def new_legend(view: PlayerView, tr: Tr) -> str:
    """What the mark after a card means, when the hand shows one ('' when not)."""
    new = [c for c in view.drawn if c in view.hand]
    if not new:
        return ""
    # The mark worded first: a call inside the plural's would hide its plural form from the
    # catalogue's extractor.
    mark = new_mark(tr)
    return tr.plural("The card marked {mark} is the one you just took.",
                     "The cards marked {mark} are the ones you just took.", len(new), mark=mark)
