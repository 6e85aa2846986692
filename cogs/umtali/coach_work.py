"""What the coach of a practice session works out, in a worker process (``Thinking.run``):
the hint for the seat's turn and the review of one of its hands.

Only the seat's own views reach the coach: the bot replays the session into them
(``seat_record``) before shipping them, as it does to bring a computer player back after a
restart. No discord here: a worker imports this module, and should stay light.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import NamedTuple

from umtali.ai.coach import REVIEW_BUDGET, Hint, hint, review
from umtali.ai.hard import HardPlayer
from umtali.ai.resume import seat_history
from umtali.ai.review_words import turn_of
from umtali.i18n import Text
from umtali.moves import Move
from umtali.session import Session
from umtali.view import PlayerView

#: ``hard``'s own search budget (playout moves a decision), as ``HardPlayer`` has it.
HARD_BUDGET: int = inspect.signature(HardPlayer).parameters["budget"].default

#: The views a seat acted on, with the moves it made, oldest first.
Record = list[tuple[PlayerView, Move]]


class Lesson(NamedTuple):
    """One costly move of a hand, as a review shows it."""

    #: The seat's turn in the hand it was made in, from 1.
    turn: int
    #: The view it was made on (for wording the moves: "lay 7♦ on 8♦ 9♦ 10♦").
    view: PlayerView
    played: Move
    better: Move
    #: Points of the hand it cost, by ``hard``'s playouts.
    cost: float
    #: Why ``better``, in a line.
    why: Text
    #: Where the decision stands in the seat's record of the hand (0: the first): a turn's
    #: decisions are told in the order made.
    at: int = 0
    #: The standard error of ``cost``.
    error: float = 0.0


def seat_record(session: Session, seat: int, hand: tuple[int, int]) -> Record:
    """The views ``seat`` acted on in ``hand`` (game, hand number) with the moves it made,
    oldest first: the session replayed from its seed on a copy, only the seat's views kept."""
    replica = Session(session.rules, session.seed, session.first_deal)
    record: Record = []
    for move in session.moves:
        mover = replica.to_act
        here = (replica.game, replica.hand_no)
        if here == hand:
            if mover == seat:
                record.append((replica.view(seat), move))
        elif record:
            break  # the hand is over
        replica.apply(move, mover)
    return record


def last_hand_pending(session: Session, seat: int) -> bool:
    """Whether ``seat`` has not acted since ``session``'s last hand ended (that hand's review
    is still to come): the session was played out by that hand, or the seat has made no move
    in the next one yet."""
    if not session.hand_log:
        return False
    if session.over:
        return session.how == "played out"  # not resigned in a later hand
    return next(iter(seat_history(session, seat)), None) is None


def advise(seed: str, history: Sequence[tuple[PlayerView, Move]], view: PlayerView,
           dealt: PlayerView | None = None) -> Hint:
    """``hard``'s move on ``view`` and why, ``hard`` having seen what the seat saw of the hand
    so far (``dealt``, then ``history``: ``coach.review``'s)."""
    player = HardPlayer(seed)
    if dealt is not None:
        player.memory.saw(dealt)
    for seen, made in history:
        player.memory.witness(seen, made)
    return hint(view, player)


def lessons(record: Record, seed: str, budget: int = REVIEW_BUDGET,
            search: int = HARD_BUDGET, most: int = 3,
            dealt: PlayerView | None = None) -> list[Lesson]:
    """The moves of ``record`` that cost most, costliest first (``coach.review``), judged by a
    ``hard`` player with its search budget ``search``."""
    return [Lesson(turn_of(record, m.at), m.view, m.played, m.better, m.cost, m.why, m.at,
                   m.error)
            for m in review(record, seed, most, budget, HardPlayer(seed, budget=search),
                            dealt)]
