"""When each match held here was found to have lost its channel (``MatchService.ticks``):
kept apart from ``channel_return``, which counts from it, so that the loss may note it without
importing the return's path (the move of a table, the posts). Kept by server too: a server's
channel event looks at its lost matches alone, not at every match held (review167)."""

from __future__ import annotations

import weakref

from cogs.umtali.live import LiveMatch

_lost: weakref.WeakKeyDictionary[LiveMatch, float] = weakref.WeakKeyDictionary()
#: By server: its matches found lost (an entry gone once none is).
_by_guild: dict[int, weakref.WeakSet[LiveMatch]] = {}


def found_lost(live: LiveMatch, now: float) -> float:
    """The match found lost at ``now``: since when it is, as first found (since it was last
    back in a channel)."""
    _by_guild.setdefault(live.guild_id, weakref.WeakSet()).add(live)
    return _lost.setdefault(live, now)


def found_back(live: LiveMatch) -> None:
    """The match back in a channel (or taken there, or no longer held here): its next loss
    counts from its own time."""
    _lost.pop(live, None)
    lost = _by_guild.get(live.guild_id)
    if lost is not None:
        lost.discard(live)
        if not lost:
            del _by_guild[live.guild_id]


def lost_in(guild_id: int) -> list[LiveMatch]:
    """The matches of server ``guild_id`` found lost (and not back since)."""
    return list(_by_guild.get(guild_id, ()))
