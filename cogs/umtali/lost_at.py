"""When each match held here was found to have lost its channel (``MatchService.ticks``):
kept apart from ``channel_return``, which counts from it, so that the loss may note it without
importing the return's path (the move of a table, the posts)."""

from __future__ import annotations

import weakref

from cogs.umtali.live import LiveMatch

_lost: weakref.WeakKeyDictionary[LiveMatch, float] = weakref.WeakKeyDictionary()


def found_lost(live: LiveMatch, now: float) -> float:
    """The match found lost at ``now``: since when it is, as first found (since it was last
    back in a channel)."""
    return _lost.setdefault(live, now)


def found_back(live: LiveMatch) -> None:
    """The match back in a channel (or taken there): its next loss counts from its own time."""
    _lost.pop(live, None)
