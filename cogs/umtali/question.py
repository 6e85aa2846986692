"""The correspondence time-up question as saved with its match (``LiveMatch.question``): where it
is, the turn it is about, and whether it still stands (``cogs.umtali.time_out`` asks it,
``cogs.umtali.time_up_answer`` settles its answer).

The absent player's first move within the turn it is about withdraws it: a fair table lets
nobody claim the win from a player who is playing. That move's save marks it withdrawn and
gives the turn a fresh turn's time (``turn_clock.back_at_table``), so no process, nor a restart,
takes it as standing again, not even once the fresh time too runs out and the turn's clock
stops for a new question.
"""

from __future__ import annotations

import json
import weakref
from typing import NamedTuple

from cogs.umtali.live import LiveMatch
from cogs.umtali.reminders import Turn, turn_of


class Question(NamedTuple):
    """A time-up question waiting for an answer: where it is, and the turn it is about."""

    channel_id: int
    message_id: int
    version: int
    absent: int
    #: Sent to the waiting player's DMs (the match's channel was lost): in their language.
    in_dm: bool
    #: The turn it is about (``reminders.turn_of``). None: saved before it was kept, known by
    #: its version alone.
    turn: Turn | None = None
    #: Withdrawn: the absent player moved within its turn after it was asked (or while it was
    #: being asked). It no longer stands, whatever the clock does next.
    withdrawn: bool = False

    def dumps(self) -> str:
        return json.dumps(self._asdict())

    @staticmethod
    def loads(text: str) -> Question | None:
        if not text:
            return None
        saved = json.loads(text)
        if saved.get("turn") is not None:
            game, hand, turns, seat = saved["turn"]
            saved["turn"] = (game, hand, turns, seat)
        return Question(**saved)


#: Each match's question asked by this process and never saved (its save failed): known here
#: alone, voided by the delivery as a saved one is (``question_message.void_question``).
unsaved_asked: weakref.WeakKeyDictionary[LiveMatch, Question] = weakref.WeakKeyDictionary()
#: The turn (version) of each match whose question was asked here but could not be saved: not
#: asked again by this process (a restart asks once more).
unsaved_at: weakref.WeakKeyDictionary[LiveMatch, int] = weakref.WeakKeyDictionary()


def stands(asked: Question | None, live: LiveMatch) -> bool:
    """``asked`` is still to be answered: the clock of the turn it is about is stopped, and
    the absent player has not moved since it was asked (a move within the turn withdraws it; a
    turn's end starts the next turn's clock). A question saved before questions were withdrawn
    stands through the moves made within its turn then (``turn``)."""
    if asked is None or asked.withdrawn or live.over or live.deadline is not None:
        return False
    return asked.version == live.version or (asked.turn is not None
                                             and asked.turn == turn_of(live))


def back(asked: Question, live: LiveMatch) -> bool:
    """``asked`` was withdrawn and its turn goes on, its clock running again: the absent player
    is back at the table (``turn_clock.back_at_table``), the turn not over."""
    return (not live.over and live.deadline is not None
            and asked.turn is not None and asked.turn == turn_of(live))


def withdrawn(live: LiveMatch) -> str | None:
    """The absent player is back (a move within the turn, the clock stopped for the question):
    the match's question as it is to be saved with that move, withdrawn (None: none saved)."""
    asked = Question.loads(live.question)
    return None if asked is None else asked._replace(withdrawn=True).dumps()


def withdraw(live: LiveMatch, saved: str | None) -> None:
    """That move saved: the question withdrawn in memory (``saved``: as saved with it), one
    asked here and never saved too."""
    if saved is not None:
        live.question = saved
    unsaved = unsaved_asked.get(live)
    if unsaved is not None:
        unsaved_asked[live] = unsaved._replace(withdrawn=True)
