"""Reading a match back from the database: after a save whose answer was lost (``settle``),
or one that found the match moved on (``_reload``): memory takes what the database holds.

Mixed into ``cogs.umtali.service.MatchService`` through ``Playing``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.umtali.alive import held_since
from cogs.umtali.computer import Computers
from cogs.umtali.delivery import Delivery
from cogs.umtali.end_log import log_end
from cogs.umtali.held_elsewhere import holder_notes
from cogs.umtali.live import LiveMatch
from cogs.umtali.looks import Looks
from cogs.umtali.outbox import Batch
from cogs.umtali.owners import Owners
from cogs.umtali.retiring import retire
from data.models import Place
from data.store import Store

if TYPE_CHECKING:
    import discord


class ReadBack(Looks):
    client: discord.Client
    store: Store
    matches: dict[int, LiveMatch]
    delivery: Delivery
    computers: Computers
    owners: Owners

    async def settle(self, live: LiveMatch) -> None:
        """A match whose last save may have gone through unheard (``LiveMatch.doubted``) is
        read back: memory takes what the database holds if that is further on (a move, an
        end, a clock set running), its announcements, table and hands then sent from here
        (``Owners.after_stale``); else the table it names (``take_place``: a table moved
        unheard), the table it replaced retired. A failed read raises, and leaves it
        doubted."""
        replaced = None
        async with live.lock:
            if not live.doubted:
                return
            # (a table posted again meanwhile, outside the lock, saved after this read, is
            # kept: ``was``)
            was = live.place
            row = await self.store.match(live.id)
            # A match never shown has a deadline in memory alone, to cancel it by
            # (``Timing.cancel_unshown_soon``): not a clock set running.
            clock_set = row is not None and not live.never_shown and (
                live.deadline is None) != (row.deadline is None)
            if row is not None and (clock_set or (row.version, row.status != "active") != (
                    live.version, live.over)):
                over = live.over
                await self._reload(live)
                if live.over and not over:
                    # Its end was saved here, the answer lost: its line not said yet. (Only
                    # here: a copy merely behind learns an end the other process logged.)
                    log_end(live, self.clock())
            elif row is not None and live.take_place(Place(
                    row.channel_id, row.table_message_id, row.channel_lost), was):
                # A table moved unheard (``move_to``), the version kept: shown where the
                # database says (a table taken down there is posted again).
                self.delivery.moved(live)
                self.delivery.enqueue(live, Batch(table=True))
                replaced = was
            live.doubted = False
        if replaced is not None and replaced.table_message_id is not None and \
                not replaced.channel_lost:
            # Else it stays up, its buttons on, frozen at the move before (its member was
            # told the move may not have been saved: a lost channel's table is left alone).
            await retire(self.client, live, replaced.table_message_id, replaced.channel_id)

    async def _reload(self, live: LiveMatch) -> None:
        # The computer may remember a move that is being undone: it catches up afresh.
        self.computers.drop(live.id)
        # Read before the match: one written after could miss an outage given back meanwhile.
        still = live.held_still is not None and self.matches.get(live.id) is not live
        holder, notes = await holder_notes(self.owners, live.id) if still else (None, (None, None))
        row = await self.store.match(live.id)
        if row is not None:
            fresh = LiveMatch.from_row(row)
            if (fresh.version, fresh.deadline) != (live.version, live.deadline):
                # Its holder's clocks stood still on the turn as this copy read it
                # (``held_still``): a deadline moved since is the holder's, the time it stood
                # still given back in it (an outage over: counted again, a late move was
                # played, a take owed the outage twice), or another payment made during the
                # outage, which goes on (forgotten, a move in time was refused), or a turn
                # begun since: as the holder's note has it now.
                live.held_still = held_since(notes, live.id, fresh.deadline)
                live.held_by = holder
            live.session = fresh.session
            # (the events kept where they still say what was saved)
            if fresh.pending != live.pending:
                live.pending, live.pending_events = fresh.pending, fresh.pending_events
            live.deadline = fresh.deadline
            live.warned = fresh.warned
            live.unsent = fresh.unsent
            live.reserves = fresh.reserves
            live.abandoned, live.ended = fresh.abandoned, fresh.ended
            live.channel_id, live.table_message_id = fresh.channel_id, fresh.table_message_id
            live.channel_lost = fresh.channel_lost
            live.question = fresh.question
            live.reviewed = max(live.reviewed, fresh.reviewed)
            live.dm_told = fresh.dm_told  # as saved: owed anew if untold (``after_stale``)
            live.lost_untold = fresh.lost_untold  # as saved: told by the holder from now on
        await self.owners.after_stale(live)
