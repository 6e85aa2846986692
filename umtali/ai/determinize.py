"""Sampled worlds: a whole ``HandState`` from one seat's view, the hidden cards dealt at random.

A computer player may read only its ``PlayerView``. To search, it deals the cards it cannot see
(the opponent's hand, the stock, a face-down top discard) at random, consistently with what it
knows, and plays the hand out in that world. Each world is one guess; many guesses together
stand for what the seat does not know.

What it knows about the opponent's hand is more than its size. Under compulsory melding a player
ends a turn only when nothing in the hand can be melded, so, once the opponent has played a
turn, their hand holds no sequence, group, marriage or jack, and no card that extended the table
as it was when they discarded. A uniformly dealt hand would be full of melds, and playouts from
it would have the opponent going out at once.
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from umtali.ai.heuristics import keep_values
from umtali.ai.outlook import Outlook
from umtali.cards import FULL_DECK, JACKS, iter_cards, mask_of
from umtali.hand import HandState, Phase, Play
from umtali.melds import Meld, PlayKind, cover, extended, new_meld, rebuilt
from umtali.rules import DealStyle, RuleSet
from umtali.view import PlayerView

#: Extra cards dealt to a sampled opponent hand and thrown back (see ``_as_kept``).
KEPT_EXTRA = 3


class OpponentModel(NamedTuple):
    """What the seat knows of the opponent's hidden hand."""

    #: Cards known to be in it (seen taken from the discard pile, not laid since).
    known: int = 0
    #: Whether it can hold no meld at all (compulsory melding, after the opponent's turn).
    meld_free: bool = False
    #: Cards it cannot hold: jacks, and cards that extended the table when the opponent
    #: discarded (only when ``meld_free``).
    barred: int = 0
    #: Cards that make no new meld with it: the opponent's last discard, which was part of that
    #: meld-free hand (only when ``meld_free``). A card the opponent left on the pile is not
    #: one: the card they drew instead may complete a meld with it.
    phantoms: tuple[int, ...] = ()
    #: The opponent's discards this hand, oldest first: they chose to shed these, so they seldom
    #: held a card that would have made one worth keeping (``DISCARD_HINT``).
    discards: tuple[int, ...] = ()
    #: How many plays the table held when the opponent last discarded (-1: not known; only
    #: when ``meld_free``).
    table_plays: int = -1


def rules_of(view: PlayerView) -> RuleSet:
    """The rule set a view plays under, read back from its description."""
    parts = [p.strip() for p in view.rules.split(",")]
    return RuleSet.named(parts[0], optional_melding="optional melding" in parts[1:])


def table_mask(view: PlayerView) -> int:
    m = 0
    for meld in view.melds:
        m |= mask_of(meld.cards)
    return m


def visible_pile_mask(view: PlayerView) -> int:
    return mask_of(c for c in view.discard_pile if c is not None)


def hidden_cards(view: PlayerView) -> int:
    """Cards whose place this seat does not know: the opponent's hand, the stock and a face-down
    top discard, together."""
    return FULL_DECK & ~mask_of(view.hand) & ~table_mask(view) & ~visible_pile_mask(view)


def melds_after(view: PlayerView, n_plays: int) -> list[Meld]:
    """The logical melds of the table as the first ``n_plays`` plays left it."""
    melds: list[Meld] = []
    for p in view.plays[:n_plays]:
        cards = mask_of(p.cards)
        if p.kind is PlayKind.EXTENSION:
            melds[p.meld] = extended(melds[p.meld], cards.bit_length() - 1)
        else:
            melds.append(new_meld(p.kind, cards))
    return melds


def opponent_has_played(view: PlayerView) -> bool:
    """Whether the opponent has finished a turn this hand, from the view alone.

    The non-dealer plays first, so the dealer always has; the non-dealer has not only on their
    first turn, before any card of theirs reaches the pile."""
    if view.dealer == view.seat:
        return True
    if any(p.player != view.seat for p in view.plays):
        return True
    if rules_of(view).deal is DealStyle.ELEVEN:
        return bool(view.discard_pile)
    # Upcard deal: on the first turn the stock still holds all but the dealt cards and upcard,
    # less the non-dealer's own draw.
    drew = view.phase != Phase.DRAW.value and view.taken is None
    return view.stock_size + drew < 31 or len(view.discard_pile) > 1


def opponent_model(
    view: PlayerView,
    known: int = 0,
    plays_at_turn_start: int | None = None,
    phantoms: tuple[int, ...] | None = None,
) -> OpponentModel:
    """Everything the seat can tell about the opponent's hand.

    ``plays_at_turn_start``: how many plays the table held when this seat's turn began, if the
    seat remembers; without it, the plays this seat laid last are taken as laid this turn.
    ``phantoms``: see ``OpponentModel``; without them, only a top discard seen before drawing is
    known to be the opponent's."""
    if rules_of(view).optional_melding or not opponent_has_played(view):
        return OpponentModel(known)
    if phantoms is None:
        top = view.top_discard
        phantoms = (int(top),) if view.phase == Phase.DRAW.value and top is not None else ()
    n = plays_at_turn_start
    if n is None:
        n = len(view.plays)
        while n and view.plays[n - 1].player == view.seat:
            n -= 1
    barred = JACKS
    for meld in melds_after(view, n):
        barred |= meld.accepts
    return OpponentModel(known, True, barred, phantoms, table_plays=n)


#: How much less likely the opponent is to hold a card that would have made their latest
#: discard worth keeping (a card of its rank, of its suit within two ranks, its marriage
#: partner); each earlier discard counts ``DISCARD_HINT_FADING`` times less, as the cards drawn
#: since were not in the hand that chose it. Measured on 540 positions from self-play against
#: the opponent's real hands: this fits them better than no hint, or a hint not fading.
DISCARD_HINT = 0.6
DISCARD_HINT_FADING = 0.8


def _partners(card: int) -> int:
    """Cards that make ``card`` worth keeping: its rank (not jacks), its suit within two ranks
    (a sequence's), its marriage partner."""
    r = card % 13
    out = 0
    if r != 10:
        out |= sum(1 << c for c in range(r, 52, 13))
    base = card - r
    if r <= 9:
        for x in range(max(0, r - 2), min(9, r + 2) + 1):
            out |= 1 << (base + x)
    if r == 11:
        out |= 1 << (card + 1)
    elif r == 12:
        out |= 1 << (card - 1)
    return out & ~(1 << card)


PARTNERS: Final = tuple(_partners(c) for c in range(52))


def _odds(card: int, model: OpponentModel) -> float:
    """The chance of keeping ``card`` when dealing it to the opponent, by their discards."""
    odds = 1.0
    near = PARTNERS[card]
    unlikely = 1.0 - DISCARD_HINT
    for d in reversed(model.discards):
        if near >> d & 1:
            odds *= 1.0 - unlikely
        unlikely *= DISCARD_HINT_FADING
    return odds


def _deal_opponent(
    pool: list[int],
    need: int,
    base: int,
    model: OpponentModel,
    rng: random.Random,
    strict: bool = False,
) -> tuple[int, list[int]]:
    """Fill the opponent's hand from ``pool`` (shuffled) up to ``need`` more cards; return it
    and the cards left over.

    A meld-free hand is dealt card by card, skipping a card that would complete a meld, which
    keeps it close to uniform among the hands the opponent could hold; a card that the
    opponent's discards make unlikely is skipped by chance. If that leaves it short, the rest
    is dealt freely, unless ``strict``."""
    hand = base
    if not model.meld_free:
        return hand | mask_of(pool[:need]), pool[need:]
    rest: list[int] = []
    phantoms = [1 << c for c in model.phantoms]
    for card in pool:
        bit = 1 << card
        if (
            need
            and not bit & model.barred
            and not cover(hand | bit)
            and not any(cover(hand | bit | p) & p for p in phantoms)
            and (not model.discards or rng.random() < _odds(card, model))
        ):
            hand |= bit
            need -= 1
        else:
            rest.append(card)
    if need and not strict:
        # The known cards left no meld-free fill: drop the constraint for the remainder.
        hand |= mask_of(rest[:need])
        rest = rest[need:]
    return hand, rest


def _as_kept(
    view: PlayerView, hand: int, rest: list[int], model: OpponentModel, rng: random.Random
) -> tuple[int, list[int]]:
    """The opponent's hand made to look kept rather than dealt: deal it ``KEPT_EXTRA`` more
    cards, then throw back the ones the opponent would value least (``keep_values`` from their
    side of the table), as their own discards did all hand long.

    Measured on 150 self-play positions against the opponent's real hand: with uniformly dealt
    hands the search's choice of discard gained 0.1 points over the ``normal`` choice, with
    kept hands 0.3 (knowing the real hand would have gained 1.2)."""
    bigger, rest = _deal_opponent(rest, KEPT_EXTRA, hand, model, rng, strict=True)
    extra = bigger.bit_count() - hand.bit_count()
    if not extra:
        return hand, rest
    melds = tuple(rebuilt(m.shape, mask_of(m.cards)) for m in view.melds)
    accepts = 0
    for m in melds:
        accepts |= m.accepts
    unseen = FULL_DECK & ~bigger & ~table_mask(view) & ~visible_pile_mask(view)
    theirs = Outlook(
        bigger, melds, accepts, unseen, 0, len(view.hand), view.stock_size, -1, False
    )
    values = keep_values(theirs, bigger & ~model.known)
    thrown = sorted(values, key=lambda c: (values[c], c))[:extra]
    rest = rest + thrown
    rng.shuffle(rest)
    return bigger & ~mask_of(thrown), rest


def sample_world(
    view: PlayerView,
    rng: random.Random,
    model: OpponentModel | None = None,
    rules: RuleSet | None = None,
) -> HandState:
    """A hand state agreeing with ``view`` in everything the seat can see, and with ``model``."""
    model = model or OpponentModel()
    hidden = hidden_cards(view)
    # Face-down cards the seat did not lay: the top, and after a hand the one under it.
    face_down_hidden = view.discard_pile.count(None)
    n_opp = view.opponent_hand_size
    if hidden.bit_count() != n_opp + view.stock_size + face_down_hidden:
        raise ValueError("the view does not account for every card")
    known = model.known & hidden
    if known.bit_count() > n_opp:
        known = 0  # stale memory: trust the counts instead
    pool: list[int] = list(iter_cards(hidden & ~known))
    rng.shuffle(pool)
    opponent, rest = _deal_opponent(pool, n_opp - known.bit_count(), known, model, rng)
    if model.meld_free and n_opp:
        opponent, rest = _as_kept(view, opponent, rest, model, rng)
    face_down = [rest.pop() for _ in range(face_down_hidden)]

    seat = view.seat
    h = HandState(rules or rules_of(view), view.dealer, f"world:{rng.getrandbits(64)}")
    h.hands = [0, 0]
    h.hands[seat] = mask_of(view.hand)
    h.hands[1 - seat] = opponent
    h.stock = rest
    h.discard_pile = [face_down.pop() if c is None else int(c) for c in view.discard_pile]
    h.face_down = view.top_face_down
    h.melds = [rebuilt(m.shape, mask_of(m.cards)) for m in view.melds]
    h.plays = [Play(p.player, p.kind, mask_of(p.cards), p.meld, p.points) for p in view.plays]
    h.points = list(view.hand_points)
    h.turn = view.to_act if view.to_act >= 0 else seat
    h.phase = Phase(view.phase)
    h.taken = int(view.taken) if view.taken is not None else -1
    h.must_meld = mask_of(view.must_meld)
    # A pair is only ever the last meld of a turn, so one laid by this seat as the latest play,
    # with the turn still going on, was laid this turn and leaves only a discard to make.
    last = view.plays[-1] if view.plays else None
    h.pair_laid = (
        h.phase is Phase.MELD and last is not None and last.player == h.turn
        and last.kind is PlayKind.PAIR
    )
    h.out = view.went_out
    # (A seat acts only while a face-down top is the going-out one.)
    h.down_by = h.out if h.face_down else -1
    h.reshuffled = view.reshuffled
    h.turns = 1
    return h
