"""What a match must still tell Discord, sent in order by one worker per match.

Actions never wait on Discord's REST API: they queue what to send and return. The worker posts
announcements in order (they are saved with the move until posted, so a crash loses none) and
folds repeated edits of the table or a hand into one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from data.messages import END_LINE


@dataclass
class Batch:
    """Everything queued since the worker last ran."""

    #: Post the match's saved, unposted announcements (``LiveMatch.unsent``), in order.
    announce: bool = False
    table: bool = False
    hands: set[int] = field(default_factory=set)
    #: The match moved on within a turn while its time-up question waited: void it.
    question: bool = False
    #: The line its challenge message ends with once the match has ended
    #: (``session_end.ended``): saved as owed with the end (``data.messages.owe_end_line``),
    #: told with the final table, or alone by the process that takes the match over.
    ended: bool = False

    def merge(self, other: Batch) -> None:
        self.announce |= other.announce
        self.table |= other.table
        self.hands |= other.hands
        self.question |= other.question
        self.ended |= other.ended

    @property
    def empty(self) -> bool:
        return not (self.announce or self.table or self.hands or self.question or self.ended)

    def dumps(self) -> str:
        """As saved (``matches.resend``); '' for nothing."""
        if self.empty:
            return ""
        # (the end line only when owed: as versions before it wrote the rest)
        return json.dumps({"announce": self.announce, "table": self.table,
                           "hands": sorted(self.hands), "question": self.question,
                           **({END_LINE: True} if self.ended else {})}, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Batch:
        """A batch saved by ``dumps`` (nothing for '', or for text no bot wrote)."""
        try:
            saved = json.loads(text) if text else {}
            return cls(announce=saved.get("announce") is True, table=saved.get("table") is True,
                       # (True and 1.0 equal 1, and are no seat: ``dm{seat}_...`` columns)
                       hands={seat for seat in saved.get("hands", [])
                              if type(seat) is int and seat in (0, 1)},
                       question=saved.get("question") is True,
                       ended=saved.get(END_LINE) is True)
        except (ValueError, AttributeError, TypeError, RecursionError):
            return cls()
