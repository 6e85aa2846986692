"""A delivery overtaken as it was sent: another copy of the match (another process's, whose
action showed its own move; or this one's, a newer copy) showed it further on meanwhile, and
what this one sent may have reached Discord after that copy's edits (drawn a moment longer,
held up by a rate limit or the network). Left so, the table and the panels would show the
position before the last move until the next one, and a table or panel replaced meanwhile
would offer its buttons again. The part of ``cogs.umtali.delivery.Delivery`` that shows the
match again as saved. In one process a match's deliveries go one after another, and this
finds nothing to do.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NamedTuple

from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.retiring import retire
from cogs.umtali.stray_panels import replaced_meanwhile

if TYPE_CHECKING:
    from cogs.umtali.delivery import Delivery

log = logging.getLogger(__name__)


class Sent(NamedTuple):
    """Where a copy had the match as a delivery of it began (``LiveMatch.at``): what it sent
    was drawn from that, whatever the copy learnt meanwhile (a failed save reloads it)."""

    at: tuple[int, bool, int, int | None, bool]


async def overtaken(delivery: Delivery, live: LiveMatch, batch: Batch, sent: Sent) -> None:
    """After ``batch`` was sent from ``live``: if the match as saved is not where ``sent``
    had it, or a seat's panel as saved is not the copy's, it is shown again as saved, by a
    fresh copy's delivery (the replaced table retired again, a replaced panel looked for in
    the DM and stripped); a DM panel the batch edited as a newer one was saved is stripped
    again, the newer one drawn from this copy (``in_dms.replaced_meanwhile``). A failure to
    read it is left to the next move's delivery (the edits to ``Delivery._check_edits``)."""
    if delivery.closed or not (batch.table or batch.hands):
        return
    svc = delivery.service
    try:
        saved = await svc.owners.leases.shown(live.id)
        # A panel edited here as another process saved a newer one (read after the edits
        # landed): stripped again, and the newer one drawn from this copy.
        for seat, (dm, message) in delivery.edits(live).items():
            if saved is not None:
                await replaced_meanwhile(svc, live, seat, dm, message, saved.panels[seat])
        if saved is None or (saved.at == sent.at and all(
                saved.panels[seat].message_id == live.dm_message_ids[seat]
                for seat in batch.hands)):
            return
        fresh = await svc.lookup(live.id)
    except Exception as e:
        log.info("match %d: whether a newer position was shown meanwhile could not be read "
                 "(%s: %s)", live.id, e.__class__.__name__, e)
        return
    if fresh is None or fresh is live:
        return
    log.info("match %d: shown elsewhere as version %d was sent here; shown again as saved "
             "(version %d)", live.id, sent.at[0], fresh.version)
    _, _, channel, table, _ = sent.at
    if batch.table and table is not None and (fresh.channel_lost
                                              or fresh.table_message_id != table):
        await retire(svc.client, fresh, table, channel)
    for seat in batch.hands:
        known = live.dm_message_ids[seat]
        if live.dm_looked_for[seat] or (known is not None
                                        and known != fresh.dm_message_ids[seat]):
            # Edited here after it was replaced, it may offer moves again: looked for (so
            # too if the copy learnt of the newer panel as its edit of the older was on its
            # way: ``LiveMatch.take_newer_panel`` marked the look).
            fresh.dm_looked_for[seat] = True
    fresh.dm_shown = [None, None]
    delivery.hand_over(live, fresh, Batch(table=batch.table, hands=set(batch.hands)))
