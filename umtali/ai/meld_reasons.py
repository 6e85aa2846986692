"""Why a meld is good, in a line (``umtali.ai.reasons``, which speaks of every kind of move):
the turn it starts weighed against the other melds on offer, each side's whole turn at best."""

from __future__ import annotations

from collections.abc import Sequence

from umtali.ai import policy
from umtali.ai.outlook import Outlook
from umtali.cards import format_cards, iter_cards
from umtali.i18n import Text
from umtali.melds import Meld, PlayKind, classify, play_points
from umtali.moves import Move, MoveKind
from umtali.search import after, can_meld_all, meld_options


def _cards(mask: int) -> str:
    return format_cards(iter_cards(mask))


def meld_reason(o: Outlook, move: Move, legal: Sequence[Move], must: int,
                 past: bool = False) -> Text:
    if move.kind is MoveKind.MELD and classify(move.cards) is PlayKind.PAIR:
        return Text.of("the pair would have taken you out") if past else \
            Text.of("lay the pair to go out")
    memo: dict[tuple[int, tuple[Meld, ...]], tuple[int, int]] = {}
    mine, left = _turn(o, move, memo, must)
    if left <= 1:
        return Text.of("that meld would have let you go out that turn") if past else \
            Text.of("this meld lets you go out this turn")
    lays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
    # Only a meld that takes a card of ``move`` is given up by laying it: any other goes down
    # in the same turn, after it (``hard``'s search may lay 4♣ 5♣ 6♣ 7♣ keeping 7♠ 7♦, where
    # 4♣ 5♣ 6♣ with 7♠ 7♦ 7♣ lay more). Each side's points are its whole turn's, at best.
    rivals = [(*_turn(o, m, memo, must), m) for m in lays if m != move and m.cards & move.cards]
    # Going out first: a pair that ends the turn lays few points, and gives more than points.
    out = [m for _, fewest, m in rivals if fewest <= 1]
    # A card laid on a meld is named with the meld in the line itself: Russian puts it there
    # with a verb of its own ("приложите J♥ к J♣", not "выложите").
    onto = _onto(move, o)
    if out:
        if onto:
            return Text.of("lay {cards} on {meld} rather than {other}: over the many ways the "
                           "rest of the hand can go, this scores you more on average, though "
                           "{other} lets you go out this turn",
                           cards=_cards(move.cards), meld=onto, other=_lay(out[0], o))
        return Text.of("lay {cards} rather than {other}: over the many ways the rest of the hand "
                       "can go, this scores you more on average, though {other} lets you go out "
                       "this turn", cards=_lay(move, o), other=_lay(out[0], o))
    most, _, rival = max(rivals, key=lambda r: r[0], default=(mine, left, move))
    if most > mine and onto:
        return Text.plural(
            "lay {cards} on {meld} rather than {other}: over the many ways the rest of the hand "
            "can go, this scores you more on average, though a turn with {other} lays {count} "
            "point against {mine}",
            "lay {cards} on {meld} rather than {other}: over the many ways the rest of the hand "
            "can go, this scores you more on average, though a turn with {other} lays {count} "
            "points against {mine}",
            most, cards=_cards(move.cards), meld=onto, other=_lay(rival, o), mine=mine)
    if most > mine:
        return Text.plural(
            "lay {cards} rather than {other}: over the many ways the rest of the hand can go, "
            "this scores you more on average, though a turn with {other} lays {count} point "
            "against {mine}",
            "lay {cards} rather than {other}: over the many ways the rest of the hand can go, "
            "this scores you more on average, though a turn with {other} lays {count} points "
            "against {mine}",
            most, cards=_lay(move, o), other=_lay(rival, o), mine=mine)
    if any(_turn(o, m, memo, must)[0] > mine for m in lays):
        # A richer turn that gives up no card of ``move`` but lays it in another order.
        if onto:
            return Text.of("lay {cards} on {meld} first: over the many ways the rest of the hand "
                           "can go, this order scores you more on average",
                           cards=_cards(move.cards), meld=onto)
        return Text.of("lay {cards} first: over the many ways the rest of the hand can go, this "
                       "order scores you more on average", cards=_lay(move, o))
    # (A lone jack by its card alone: "J♦ alone shares no card" would read oddly.)
    named = _lay(move, o) if onto else _cards(move.cards)
    if len(lays) > 1 and policy._apart(lays) and not o.optional:
        # Compulsory melding, no two melds sharing a card: each goes down, whatever the order.
        # The line speaks of the meld named (the hint names one), the turn's total after it.
        if past:
            return Text.plural(
                "{cards} shared no card with your other melds: all of them would have gone "
                "down that turn, {count} point in all",
                "{cards} shared no card with your other melds: all of them would have gone "
                "down that turn, {count} points in all", mine, cards=named)
        return Text.plural(
            "{cards} shares no card with your other melds: all of them go down this turn, in "
            "any order, {count} point in all",
            "{cards} shares no card with your other melds: all of them go down this turn, in "
            "any order, {count} points in all", mine, cards=named)
    if onto:
        # (Said after "starting with": Russian puts the card laid in the genitive.)
        named = Text.of("{cards} laid on {meld}", cards=_cards(move.cards), meld=onto)
    if past:
        return Text.plural(
            "a turn starting with {cards} would have laid the most of the melds on offer: "
            "{count} point",
            "a turn starting with {cards} would have laid the most of the melds on offer: "
            "{count} points", mine, cards=named)
    return Text.plural(
        "of the melds on offer, a turn starting with {cards} lays the most: {count} point",
        "of the melds on offer, a turn starting with {cards} lays the most: {count} points",
        mine, cards=named)


def _onto(move: Move, o: Outlook) -> str:
    """The table meld an extension goes on, named; "" for a new meld."""
    if move.kind is not MoveKind.EXTEND:
        return ""
    return _cards(next(m for m in o.melds if m.cards & (1 << move.target)).cards)


def _lay(move: Move, o: Outlook) -> Text | str:
    """A meld or extension named in a line: "J♥ on J♣", "J♥ alone" (a jack is laid either
    way), "2♠ 3♠ 4♠"."""
    cards = _cards(move.cards)
    if move.kind is MoveKind.EXTEND:
        return Text.of("{cards} on {meld}", cards=cards, meld=_onto(move, o))
    if classify(move.cards) is PlayKind.JACK:
        return Text.of("{card} alone", card=cards)
    return cards


def _turn(o: Outlook, move: Move, memo: dict[tuple[int, tuple[Meld, ...]], tuple[int, int]],
          must: int = 0) -> tuple[int, int]:
    """The most points a turn that lays ``move`` first can lay, and the fewest cards it can
    leave in the hand (each at best, perhaps by different series of melds). ``must``: the
    cards taken by ``take 2``, which the turn must meld."""
    option = policy.option_of(move, o.melds)
    points, left = _rest_of_turn(*after(o.hand, o.melds, option), o.optional, memo, must)
    return play_points(option[0], option[1]) + points, left


def _rest_of_turn(hand: int, melds: tuple[Meld, ...], optional: bool,
                  memo: dict[tuple[int, tuple[Meld, ...]], tuple[int, int]], must: int = 0,
                  ) -> tuple[int, int]:
    """``_turn`` from a hand and table: every series of melds searched (a hand holds a few
    melds at most), the positions met again remembered. Of the melds, only those the engine
    lists: while taken cards must still be melded, those that leave them meldable."""
    key = (hand, melds)  # (what must still be melded is ``must & hand``)
    known = memo.get(key)
    if known is not None:
        return known
    most, fewest = 0, hand.bit_count()
    need = must & hand
    for kind, cards, index in meld_options(hand, melds, optional):
        if need and (hand & ~cards & need if kind is PlayKind.PAIR else
                     not can_meld_all(*after(hand, melds, (kind, cards, index)), need,
                                      optional)):
            continue
        points = play_points(kind, cards)
        if kind is PlayKind.PAIR:
            # Nothing follows a pair but the last card's discard.
            further, left = 0, (hand & ~cards).bit_count()
        else:
            further, left = _rest_of_turn(*after(hand, melds, (kind, cards, index)), optional,
                                          memo, must)
        most, fewest = max(most, points + further), min(fewest, left)
    memo[key] = most, fewest
    return most, fewest
