"""Hand-made positions for rule tests: name the cards that matter, the rest fill the stock."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from umtali.cards import mask_of, parse_cards
from umtali.events import Event
from umtali.hand import HandState, Phase, Play
from umtali.melds import Meld, PlayKind, classify, extended, new_meld, play_points
from umtali.moves import Move
from umtali.rules import RuleSet


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def mask(text: str) -> int:
    return mask_of(cards(text))


def position(
    *,
    hands: tuple[str, str] = ("", ""),
    stock: str = "",
    discard: str = "",
    table: Sequence[str] = (),
    turn: int = 0,
    phase: Phase = Phase.MELD,
    dealer: int | None = None,
    rules: RuleSet | None = None,
    rest: str = "stock",
    taken: str = "",
    out: int = -1,
    reshuffled: bool = False,
) -> HandState:
    """A hand in progress.

    ``stock`` lists the top of the stock first; ``discard`` the bottom of the pile first. Each
    ``table`` entry is ``"P: cards"`` for a new meld laid by seat P, or ``"P: card > target"`` for
    an extension. Cards named nowhere go to the bottom of the stock (``rest="stock"``), the
    bottom of the discard pile (``rest="discard"``), or, with ``rest="table"``, into a
    group-free pile of dead plays is not offered: they must go somewhere real.
    """
    rules = rules or RuleSet.english()
    h = HandState(rules, 1 - turn if dealer is None else dealer, "test")
    h.hands = [mask(hands[0]), mask(hands[1])]
    h.discard_pile = cards(discard)
    stock_top_first = cards(stock)
    used = h.hands[0] | h.hands[1] | mask_of(h.discard_pile) | mask_of(stock_top_first)
    for entry in table:
        seat_text, what = entry.split(":", 1)
        seat = int(seat_text)
        if ">" in what:
            card_text, target_text = what.split(">")
            card = cards(card_text)[0]
            target = cards(target_text)[0]
            index = h.meld_of(target)
            assert index >= 0 and h.melds[index].accepts & (1 << card), entry
            h.melds[index] = extended(h.melds[index], card)
            pts = [1, 5][card % 13 >= 9]
            h.plays.append(Play(seat, PlayKind.EXTENSION, 1 << card, index, pts))
            used |= 1 << card
        else:
            m = mask(what)
            kind = classify(m)
            assert kind is not None, entry
            h.melds.append(new_meld(kind, m))
            pts = play_points(kind, m)
            h.plays.append(Play(seat, kind, m, len(h.melds) - 1, pts))
            used |= m
        h.points[seat] += pts
    remaining = [c for c in range(52) if not used & (1 << c)]
    assert len(set(stock_top_first) | set(h.discard_pile)) == len(stock_top_first) + len(
        h.discard_pile
    )
    if rest == "stock":
        stock_top_first += remaining
    elif rest == "discard":
        h.discard_pile = remaining + h.discard_pile
    else:
        raise ValueError(rest)
    h.stock = stock_top_first[::-1]
    h.turn = turn
    h.phase = phase
    h.taken = cards(taken)[0] if taken else -1
    h.out = out
    h.reshuffled = reshuffled
    h.turns = 5  # not the first turn of the hand
    _check(h)
    return h


def _check(h: HandState) -> None:
    seen = h.hands[0] | h.hands[1] | mask_of(h.stock) | mask_of(h.discard_pile)
    n = h.hands[0].bit_count() + h.hands[1].bit_count() + len(h.stock) + len(h.discard_pile)
    for m in h.melds:
        seen |= m.cards
        n += m.cards.bit_count()
    assert seen == (1 << 52) - 1 and n == 52, "a test position must hold every card once"


def legal(h: HandState) -> set[str]:
    return {str(m) for m in h.legal_moves()}


def play(h: HandState, *moves: str) -> list[Event]:
    events: list[Event] = []
    for m in moves:
        events.extend(h.apply(Move.parse(m)))
    return events


def melds_of(h: HandState) -> list[Meld]:
    return list(h.melds)


def of_kind(events: Iterable[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]
