"""A match's table brought to another channel (``/umtali table``): where the match is played
from then on, saved under the version check and held here, one move of the table at a time.

Mixed into ``cogs.umtali.service.MatchService``, on top of the moves played
(``cogs.umtali.playing``); the command itself is ``cogs.umtali.tables``.
"""

from __future__ import annotations

import asyncio
from weakref import WeakValueDictionary

from cogs.umtali.live import LiveMatch
from cogs.umtali.owners import TAKE_TRIES
from cogs.umtali.playing import Playing
from cogs.umtali.unheard import settled
from data.store import StaleState


class TableMoved(Exception):
    """The match was brought to another channel while its table was being posted here."""


class TableTooLate(Exception):
    """The match ended while its table was being posted (``/umtali table``): it stays where
    it ended."""


class TableMoves(Playing):
    #: Each match's table being moved (``move_to``), while it is.
    _moving: WeakValueDictionary[int, asyncio.Lock]

    async def _moved_as(self, match_id: int, channel_id: int, message_id: int) -> bool | None:
        """True if the match is saved as played at ``message_id`` in ``channel_id``, held
        here (``move_to``'s save went through); None if not."""
        shown = await self.owners.leases.shown(match_id)
        if shown is None or shown.owner != self.owners.name or shown.at[2:4] != (
                channel_id, message_id):
            return None
        return True

    async def move_to(self, live: LiveMatch, channel_id: int, table_message_id: int) -> int | None:
        """The match's live table is now ``table_message_id`` in ``channel_id``; the id of the
        table it replaced (if in the same channel), which should say where the live one is.
        Raises ``TableMoved`` if the match was brought to another channel meanwhile (the
        other player's ``/umtali table`` at the same moment, another process's): only a
        match whose channel is lost moves to another; ``TableTooLate`` if it ended."""
        # One move of the table at a time in this process, whatever the copy of the match.
        moving = self._moving.setdefault(live.id, asyncio.Lock())
        async with moving, live.lock:
            await self.owners.hold(live)
            for _ in range(TAKE_TRIES):
                # Where the match is as saved, not as this copy saw it before the table was
                # posted; saved only if still so: another process's lock is not this one's.
                row = await self.store.match(live.id)
                if live.over or (row is not None and row.status != "active"):
                    # Ended meanwhile (an abandon, a removal, another process's move): its
                    # place is the one its ending was saved with. Ended by another process,
                    # this copy is caught up first: the table posted shows the ending.
                    if not live.over:
                        await self._reload(live)
                    raise TableTooLate(live.id)
                if row is not None and row.version != live.version:
                    await self._reload(live)  # another process's move: caught up first
                elif row is not None:
                    live.channel_id, live.table_message_id = row.channel_id, row.table_message_id
                    live.channel_lost = row.channel_lost
                if not live.channel_lost and live.channel_id != channel_id:
                    raise TableMoved(live.id)
                old = live.table_message_id if live.channel_id == channel_id else None
                # Held by this process from then on: its copy knows the new table. An answer
                # lost after the COMMIT is settled by reading the match back (``unheard``).
                if await settled(f"match {live.id}: its table moved", self.store.move_match(
                        live.id, channel_id, table_message_id, (
                            live.channel_id, live.table_message_id, live.channel_lost),
                        live.version, self.owners.name, self.owners.until()),
                        lambda: self._moved_as(live.id, channel_id, table_message_id),
                        doubt=live.doubt):
                    self.owners.adopt(live)
                    break
            else:
                raise StaleState(f"match {live.id}: its table kept moving")
            live.channel_id, live.table_message_id = channel_id, table_message_id
            live.channel_lost = False
            live.lost_untold.clear()
            # A new place: its failures are counted from none (those of the one it left, an
            # hour's of a channel given up, would give it up at its first).
            self.delivery.moved(live)
        return old
