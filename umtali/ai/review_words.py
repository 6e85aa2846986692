"""A practice review's words: each costly mistake a review found (``umtali.ai.coach.review``)
said with its turn, the two moves in words and its cost, honest to the measurement's error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from umtali.ai.reasons import _cards
from umtali.i18n import Text
from umtali.moves import Move, MoveKind, going_out
from umtali.view import PlayerView

if TYPE_CHECKING:
    from umtali.ai.coach import Mistake


def turn_of(record: Sequence[tuple[PlayerView, Move]], at: int) -> int:
    """The seat's turn in the hand (from 1) that the decision ``record[at]`` belongs to.

    A turn begins after the seat's discard, not at a draw: some turns have none (the first
    of the player dealt eleven cards, a last turn with the stock empty)."""
    return 1 + sum(1 for _, move in record[:at] if move.kind is MoveKind.DISCARD)


def move_words(view: PlayerView, move: Move) -> Text:
    """A move in words, as the bot's panels say it ("draw from the stock", "lay 7♦ on 8♦ 9♦
    10♦", "discard K♥ face down"): a review names both sides so, in every language."""
    cards = _cards(move.cards)
    kind = move.kind
    if kind is MoveKind.DRAW:
        return Text.of("draw from the stock")
    if kind is MoveKind.TAKE:
        return Text.of("take the top discard")
    if kind is MoveKind.TAKE_TWO:
        return Text.of("take the top two discards")
    if kind is MoveKind.MELD:
        return Text.of("meld {cards}", cards=cards)
    if kind is MoveKind.EXTEND:
        meld = next((m for m in view.melds if move.target in m.cards), None)
        on = " ".join(str(c) for c in meld.cards) if meld is not None else _cards(
            1 << move.target)
        return Text.of("lay {card} on {meld}", card=cards, meld=on)
    if move.face_down:
        return Text.of("discard {card} face down", card=cards)
    if going_out(move, view.legal_moves):
        return Text.of("discard {card} face up", card=cards)  # a last card, which may lie down
    return Text.of("discard {card}", card=cards)


def on_turn(turn: int) -> Text:
    """The seat's ``turn`` of the hand as the player counts their own: "on your 7th turn"."""
    if turn % 10 == 1 and turn % 100 != 11:
        return Text.of("on your {turn}st turn", turn=turn)
    if turn % 10 == 2 and turn % 100 != 12:
        return Text.of("on your {turn}nd turn", turn=turn)
    if turn % 10 == 3 and turn % 100 != 13:
        return Text.of("on your {turn}rd turn", turn=turn)
    return Text.of("on your {turn}th turn", turn=turn)


def review_words(found: Sequence[tuple[int, Mistake]]) -> list[list[Text]]:
    """A review's lines: ``found`` holds each mistake (costliest first) with the seat's turn it
    was made on (``turn_of``). One line a turn, in the order played (a player retells a hand
    so: "8th turn" before "2nd" read as a muddle), the costliest turn marked (its mistakes'
    costs summed) when there are several; a turn's mistakes (a take and the discard after it)
    in the order made. Each line
    is sentences: each mistake, with the two moves in words and its cost (``_cost_words``),
    then why. A turn's second mistake is said to cost more on top of the first: each cost is
    its own move's (the first's playouts go on with the usual discard, not the one made), and
    two alike read as one cost counted twice."""
    turns: dict[int, list[Mistake]] = {}
    for turn, m in found:
        turns.setdefault(turn, []).append(m)
    costliest = max(turns, key=lambda t: (sum(m.cost for m in turns[t]), -t)) \
        if len(turns) > 1 else None
    lines = []
    for turn in sorted(turns):
        line: list[Text] = []
        for m in sorted(turns[turn], key=lambda m: m.at):
            played, better = move_words(m.view, m.played), move_words(m.view, m.better)
            cost = _cost_words(m.cost, m.error)
            if not line:
                when = on_turn(turn)
                if turn == costliest:
                    when = Text.of("{when} (your costliest turn)", when=when)
                line.append(Text.of("{when}: you chose to {played}; the computer would {better} "
                                    "({cost})", when=when, played=played, better=better,
                                    cost=cost))
            else:
                line.append(Text.of("then you chose to {played}; the computer would {better} "
                                    "(on top of that, {cost})", played=played, better=better,
                                    cost=cost))
            line.append(m.why)
        lines.append(line)
    return lines


#: A cost's range (one standard error either side) is said when it spans this many points at
#: most, and no more than its middle: wider, "about 2 to 14" tells a player nothing a word
#: would not.
NARROW = 4
#: Costs said in words when their range is too wide: under ``FEW``, "a few points"; under
#: ``MANY``, "several points"; else "many points".
FEW, MANY = 4, 10


def _cost_words(cost: float, error: float) -> Text:
    """A cost in whole points, honest to its measurement's error: "about 9 points" when the
    playouts' luck moves it by under a point; "about 16 to 18 points" (one standard error either
    side) when that range is narrow (``NARROW``); else a word for its size, from its middle:
    "a few", "several" or "many points" (the same review run again may say 9 where it said
    17)."""
    low, high = round(cost - error), round(cost + error)
    if round(cost) < 1:
        # Named (its checking worlds found it a point or more) but said from worlds of its own,
        # which found less: such moves measure about a point as a lot (``bench/coach_costs.py``).
        return Text.of("about a point better")
    if error < 1 or low >= high:
        return Text.plural("about {count} point better", "about {count} points better",
                           round(cost))
    if low >= 1 and high - low <= min(NARROW, round(cost)):
        return Text.plural("about {low} to {count} point better", "about {low} to {count} points "
                           "better", high, low=low)
    if cost < FEW:
        return Text.of("a few points better")
    if cost < MANY:
        return Text.of("several points better")
    return Text.of("many points better")
