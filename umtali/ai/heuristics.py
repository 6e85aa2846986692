"""Card judgement, in points: what keeping a card may earn, what it risks, what discarding it may
give the opponent.

A card left in hand scores nothing, and scores for the opponent if they go out; a card melded
scores for whoever lays it. So a card is worth keeping when it is likely to be melded soon, and
worth shedding when it is high and going nowhere, unless the opponent could meld it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from umtali.ai.outlook import Outlook
from umtali.cards import JACK, JACKS, KING, POINTS, QUEEN, RANK_MASK, iter_cards
from umtali.melds import Meld, cover, extended

_TEN_RANKS: Final = 0x3FF  # ranks A..10: the only ranks of a new sequence


def run_outs(card: int, hand: int) -> int:
    """Cards that would put ``card`` into a new sequence with two cards of ``hand``."""
    r = card % 13
    if r > 9:
        return 0
    base = card - r
    pattern = ((hand | 1 << card) >> base) & _TEN_RANKS
    outs = 0
    for low in (r - 2, r - 1, r):
        if 0 <= low <= 7:
            missing = (0b111 << low) & ~pattern
            if missing and not missing & (missing - 1):
                outs |= missing
    return outs << base


def run_windows(card: int, hand: int, live: int) -> int:
    """Sequences of three through ``card`` that need two more cards, both still live: a weak
    hope, but a hope."""
    r = card % 13
    if r > 9:
        return 0
    base = card - r
    held = (hand >> base) & _TEN_RANKS
    free = (live >> base) & _TEN_RANKS
    n = 0
    for low in (r - 2, r - 1, r):
        if 0 <= low <= 7:
            others = (0b111 << low) & ~(1 << r)
            if not others & held and others & free == others:
                n += 1
    return n


def group_outs(card: int, hand: int) -> int:
    """The cards of ``card``'s rank that would make a group, when the hand holds a pair."""
    rank = card % 13 + 1
    same = RANK_MASK[rank]
    if rank == JACK or (hand & same & ~(1 << card)) == 0:
        return 0
    return same & ~hand & ~(1 << card)


def marriage_partner(card: int) -> int:
    """The card that would marry ``card`` (the queen of a king, the king of a queen), or 0."""
    rank = card % 13 + 1
    if rank == KING:
        return 1 << (card - 1)
    if rank == QUEEN:
        return 1 << (card + 1)
    return 0


@lru_cache(maxsize=1024)
def table_outs(melds: tuple[Meld, ...]) -> dict[int, int]:
    """For each card, the cards that, once laid on a table meld by anyone, would let that card
    extend it next (a 9 waits for the 8 on 5-6-7). Cached, as playouts ask again and again about
    the same table: the dict must not be changed."""
    found: dict[int, int] = {}
    for m in melds:
        acc = m.accepts
        while acc:
            low = acc & -acc
            acc ^= low
            opened = extended(m, low.bit_length() - 1).accepts & ~m.accepts
            while opened:
                card = opened & -opened
                opened ^= card
                key = card.bit_length() - 1
                found[key] = found.get(key, 0) | low
    return found


def outs(card: int, hand: int, beyond_table: dict[int, int]) -> int:
    """Every single card that would make ``card`` meldable; ``beyond_table`` is
    ``table_outs`` of the table."""
    partner = marriage_partner(card)
    return (
        run_outs(card, hand) | group_outs(card, hand) | (partner & ~hand)
        | beyond_table.get(card, 0)
    )


def meld_chance(n_outs: int, o: Outlook) -> float:
    """Roughly, the chance that one of ``n_outs`` live cards reaches this player in time.

    Each player draws about half of what is left of the stock, and the hand seldom lasts past
    eight more draws; a given unseen card is as likely to be anywhere among the unseen ones.
    """
    if n_outs == 0:
        return 0.0
    pool = max(1, o.unseen.bit_count())
    draws = min(o.stock_size / 2, 8.0) + 1.0
    miss = max(0.0, 1.0 - draws / pool)
    return 1.0 - miss**n_outs


def _partner_sets(card: int) -> tuple[tuple[int, ...], ...]:
    """The sets of cards that would let a player meld ``card`` with them: two more of its rank,
    the two other cards of a sequence of three through it, or its marriage partner."""
    r = card % 13
    sets: list[tuple[int, ...]] = []
    if r + 1 != JACK:
        others = [c for c in range(r, 52, 13) if c != card]
        sets += [(a, b) for i, a in enumerate(others) for b in others[i + 1:]]
    if r <= 9:
        base = card - r
        sets += [
            tuple(base + x for x in range(low, low + 3) if x != r)
            for low in (r - 2, r - 1, r)
            if 0 <= low <= 7
        ]
    partner = marriage_partner(card)
    if partner:
        sets.append((partner.bit_length() - 1,))
    return tuple(sets)


#: By card, ``_partner_sets``.
PARTNER_SETS: Final = tuple(_partner_sets(c) for c in range(52))
_SAME_RANK: Final = tuple(
    tuple(c for c in range(card % 13, 52, 13) if c != card) for card in range(52)
)


def holding_odds(o: Outlook) -> list[float]:
    """For each card, the chance that the opponent holds it, as this player sees it."""
    share = o.opponent_share
    known, unseen = o.known_opponent, o.unseen
    return [
        1.0 if known >> c & 1 else share if unseen >> c & 1 else 0.0 for c in range(52)
    ]


def feed_chance(card: int, o: Outlook, odds: list[float] | None = None) -> float:
    """The chance that the opponent can meld ``card`` if it is discarded now (``odds``: the
    ``holding_odds`` of ``o``)."""
    if (1 << card) & o.accepts or (card % 13 + 1) == JACK:
        return 1.0
    if odds is None:
        odds = holding_odds(o)
    miss = 1.0
    for cards in PARTNER_SETS[card]:
        held = 1.0
        for c in cards:
            held *= odds[c]
        miss *= 1.0 - held
    if o.opponent_size <= 3 and card % 13 + 1 != JACK:
        # A pair may be the last meld of a player going out.
        for c in _SAME_RANK[card]:
            miss *= 1.0 - 0.5 * odds[c]
    return 1.0 - miss


def keep_values(o: Outlook, cards: int) -> dict[int, float]:
    """``keep_value`` of each card of ``cards``, sharing the work that depends on the table.

    The same sums as ``keep_value``, written out: playouts spend a third of their time here."""
    beyond = table_outs(o.melds)
    odds = holding_odds(o)
    hand = o.hand
    live = o.live
    pool = max(1, o.unseen.bit_count())
    miss = max(0.0, 1.0 - (min(o.stock_size / 2, 8.0) + 1.0) / pool)
    hope = 1.0 - miss  # meld_chance(1, o)
    risk_share = 0.175 + 0.025 * max(0, 8 - o.opponent_size)
    values: dict[int, float] = {}
    for card in iter_cards(cards):
        pts = POINTS[card]
        n = (outs(card, hand, beyond) & live).bit_count()
        chance = 1.0 - miss**n if n else 0.0
        weak = 0.15 * run_windows(card, hand, live) * hope
        risk = (1.0 - chance) * pts * risk_share
        given = feed_chance(card, o, odds) * (pts + 1.0)
        values[card] = chance * pts + weak - risk + given
    return values


def keep_value(
    card: int,
    o: Outlook,
    beyond_table: dict[int, int] | None = None,
    odds: list[float] | None = None,
) -> float:
    """What keeping ``card`` is worth over discarding it, in points (higher: keep it)."""
    if beyond_table is None:
        beyond_table = table_outs(o.melds)
    pts = POINTS[card]
    live = o.live
    n = (outs(card, o.hand, beyond_table) & live).bit_count()
    chance = meld_chance(n, o)
    weak = 0.15 * run_windows(card, o.hand, live) * meld_chance(1, o)
    # The nearer the opponent is to going out, the likelier a kept card scores for them. (The
    # weights here were set by self-play against the previous weights; a stronger pull to
    # shed high cards, or valuing a waiting marriage double, played worse.)
    risk = (1.0 - chance) * pts * (0.175 + 0.025 * max(0, 8 - o.opponent_size))
    given = feed_chance(card, o, odds) * (pts + 1.0)
    return chance * pts + weak - risk + given


def usable_now(card: int, o: Outlook) -> bool:
    """Whether ``card``, taken into the hand, could be melded at once."""
    bit = 1 << card
    return bool(bit & (o.accepts | JACKS) or cover(o.hand | bit) & bit)
