"""A turn's announcement kept as what happened, not as words (review166): said in the language
of whoever reads it, when they read it. A server whose language changed mid-turn gets the
turn's announcement in its new language alone (the moves held since the turn began said again
in it), and a player reading the last turn on their DM panel (the match's channel lost) reads
it in their own language, not the server's. Memory alone: an announcement read back from the
database is its saved text (any language ``announcing`` recognises)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cogs.umtali.announcing import turn_kept, with_turn, your_turn
from cogs.umtali.render import turn_message
from umtali.events import Event
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.live import LiveMatch

#: Discord's limit on a message's text.
MESSAGE = 2000


@dataclass(frozen=True, slots=True)
class Spoken:
    """A turn's announcement: its events, and whom its "your turn" line addresses (their
    ping, or their name if out of reach: ``out_of_reach.addressed``; '' for no such line)."""

    events: tuple[Event, ...]
    mention: str


def lines_of(events: Sequence[Event], live: LiveMatch, tr: Tr) -> list[str]:
    """The events' public lines in ``tr``'s language (blank ones left out, as held)."""
    return [line for line in turn_message(events, live.names_in(tr), tr).split("\n") if line]


def announcement(lines: Sequence[str], turn: str, cut: Callable[[str, int], str],
                 limit: int = MESSAGE) -> str:
    """A turn's announcement: its "your turn" line ``turn`` ('' for none) first, then its
    ``lines``, in at most ``limit`` characters (its first moves ``cut`` if need be)."""
    return turn_kept(with_turn(turn, "\n".join(lines).strip()).strip(), limit, cut)


def spoken_in(live: LiveMatch, spoken: Spoken, tr: Tr, cut: Callable[[str, int], str],
         limit: int = MESSAGE) -> str:
    """``spoken`` in ``tr``'s language."""
    turn = your_turn(tr, spoken.mention) if spoken.mention else ""
    return announcement(lines_of(spoken.events, live, tr), turn, cut, limit)
