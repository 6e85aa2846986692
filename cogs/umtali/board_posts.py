"""How often a channel gets a leaderboard or a member's stats posted in it: once a minute
(``PUBLIC_EVERY``), as ``/umtali table`` and challenges are limited; asked again within it,
the board or record comes to the member alone, in their language, saying why (what they asked
for, not a refusal). Kept in this process: a server's commands reach the process that runs
its shard (docs/processes.md), and a restart forgets at most a minute of it."""

from __future__ import annotations

from typing import Final

from umtali.i18n import N_

#: Seconds within which a channel gets no second public board or stats.
PUBLIC_EVERY: Final = 60.0
#: Channels remembered before the ones past their minute are forgotten.
KEPT: Final = 1024
HELD_BACK: Final = N_("Shown to you alone: a leaderboard or stats were posted in this channel "
                      "less than a minute ago.")


class PublicBoards:
    """When each channel last had a board or stats posted in it."""

    def __init__(self) -> None:
        self.posted: dict[int, float] = {}

    def take(self, channel_id: int, now: float) -> bool:
        """Whether a board may be posted in the channel at ``now``: then it is noted (given
        back by ``give_back`` if the post fails). A note ahead of the clock holds nothing
        back."""
        last = self.posted.get(channel_id)
        if last is not None and 0 <= now - last < PUBLIC_EVERY:
            return False
        if len(self.posted) >= KEPT:
            self.posted = {c: t for c, t in self.posted.items() if 0 <= now - t < PUBLIC_EVERY}
        self.posted[channel_id] = now
        return True

    def give_back(self, channel_id: int, now: float) -> None:
        """The post noted at ``now`` was not made: the channel may have one at once."""
        if self.posted.get(channel_id) == now:
            del self.posted[channel_id]
