"""What a match must still tell Discord, sent in order by one worker per match.

Actions never wait on Discord's REST API: they queue what to send and return. The worker sends
announcements in order and folds repeated edits of the table or a hand into one.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Batch:
    """Everything queued since the worker last ran."""

    announcements: list[str] = field(default_factory=list)
    #: Seats to mention in the announcements (whose turn it now is).
    mentions: set[int] = field(default_factory=set)
    table: bool = False
    hands: set[int] = field(default_factory=set)

    def merge(self, other: Batch) -> None:
        self.announcements.extend(other.announcements)
        self.mentions |= other.mentions
        self.table |= other.table
        self.hands |= other.hands

    @property
    def empty(self) -> bool:
        return not (self.announcements or self.table or self.hands)
