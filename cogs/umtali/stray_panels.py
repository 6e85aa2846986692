"""Panels of a seat that offer the match's moves and are not its panel: one sent whose id was
never saved (the bot stopped between sending and saving it), one replaced whose buttons a
click's answer or a late edit put back, one another process replaced as this one edited it.
Each loses its buttons, so that one panel offers the moves; the part of ``in_dms`` that looks
for them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.ids import custom_ids
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService
    from data.models import DmPanel

log = logging.getLogger(__name__)


#: The last messages of a DM looked through for a panel sent whose id was never saved.
UNSAVED_LOOKED_AT = 25



async def replaced_after_edit(svc: MatchService, live: LiveMatch, seat: int, message_id: int,
                             dm: discord.PartialMessageable) -> bool:
    """Whether another process saved a newer panel for the seat as this one edited
    ``message_id`` (a warning's, sent by the process that claimed it as this one took the
    match; this copy's check made as its delivery began). That process took the buttons off
    the panel it replaced after saving its own: this edit, landing after, put them back, and
    they go again; the newer panel is the seat's here. Read after the edit, so that an edit
    landing after the strip is always found: by the match's delivery, once its batch is out,
    with the read it makes then (``overtaken``; ``Delivery.edited``), else here."""
    if svc.delivery.edited(live, seat, dm.id, message_id):
        return False
    try:
        saved = await svc.owners.leases.shown(live.id)
    except Exception as e:  # the next delivery's check finds it, as before this one
        log.info("match %d: seat %d's panel as saved could not be read (%s: %s)", live.id, seat,
                 e.__class__.__name__, e)
        return False
    if saved is None:
        return False
    return await replaced_meanwhile(svc, live, seat, dm.id, message_id, saved.panels[seat])


async def replaced_meanwhile(svc: MatchService, live: LiveMatch, seat: int, channel_id: int,
                             message_id: int, panel: DmPanel | None) -> bool:
    """``replaced_after_edit`` with the seat's panel as saved (``panel``) read after the edit
    of ``message_id`` (in the DM ``channel_id``) landed: whether it was newer."""
    if panel is None or panel.message_id is None or panel.message_id <= message_id:
        return False
    try:
        # Marked first: a stop may cut the strip short (``Delivery._edits_at_stop``), and the
        # seat's next delivery, this process's or another's, then looks through the DM for it
        # (``strip_unsaved``; the mark cleared once nothing but the panel offers moves).
        await svc.store.set_dm_sending(live.id, seat, True)
        live.dm_sending[seat] = True
    except Exception as e:
        log.info("match %d: seat %d's replaced panel could not be marked (%s: %s)", live.id,
                 seat, e.__class__.__name__, e)
    dm = svc.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
    try:
        await dm.get_partial_message(message_id).edit(view=None)
        stray = False
    except GONE:
        stray = False  # deleted, or the DMs closed: nothing on it to press
    except (discord.HTTPException, *PASSING):
        stray = True
    looked_for = live.dm_looked_for[seat]
    live.take_newer_panel(seat, panel)
    # Not looked for through the DM by the seat's next delivery for this one, stripped here.
    live.dm_looked_for[seat] = looked_for or stray
    # Drawn again from this copy, even at the version saved: that panel was drawn by the
    # other process's copy as it had the match then (the table still in the DMs as this one
    # brought it back; in play, as an ending here kept the version). A warning standing in
    # this copy is said again (``still_warned``).
    live.dm_shown[seat] = None
    svc.delivery.enqueue(live, Batch(hands={seat}))
    return True


async def saved(svc: MatchService, live: LiveMatch, seat: int) -> None:
    """The seat's new panel's id is saved: nothing left to look for after a restart."""
    try:
        await svc.store.set_dm_sending(live.id, seat, False)
    except Exception as e:  # only a look through the DM too many, at the next delivery
        log.info("match %d: seat %d's panel saved, its mark not cleared (%s: %s)", live.id,
                 seat, e.__class__.__name__, e)
        return
    live.dm_sending[seat] = False


async def strip_answered(svc: MatchService, live: LiveMatch, seat: int,
                         message: discord.Message) -> None:
    """The answer to a click edited ``message`` after a new panel had replaced it (and taken
    its buttons off): they go again. Failing for now, the seat is marked, and its next
    delivery looks through the DM (``strip_unsaved``)."""
    try:
        await message.edit(view=None)
    except GONE:
        return  # deleted, or the DMs closed: nothing on it to press
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: seat %d's replaced panel %d kept its buttons for now (%s)",
                 live.id, seat, message.id, e)
        async with live.dm_locks[seat]:
            await svc.store.set_dm_sending(live.id, seat, True)
            live.dm_sending[seat] = True


#: The last part of the ids of the match's controls that are not a hand panel's: the
#: time-up question's and the resignation's confirmation.
_NOT_PANEL = frozenset({"claim", "wait", "resign", "keep", "hand"})


def moves_of(message: discord.Message, match_id: int) -> bool:
    """Whether ``message`` carries a hand panel's controls of the match."""
    prefix = f"umtali:m:{match_id}:"
    return any(i.startswith(prefix) and i.rsplit(":", 1)[-1] not in _NOT_PANEL
               for i in custom_ids(message))


def shows(message: discord.Message, live: LiveMatch) -> bool:
    """Whether ``message``'s hand panel controls are those of the match as it is now."""
    prefix = f"umtali:m:{live.id}:{live.version}:"
    return any(i.startswith(prefix) for i in custom_ids(message))


async def strip_unsaved(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Take the buttons off the seat's panels sent whose id was never saved (the bot stopped
    between sending one and saving its id), or replaced and not stripped: the bot's last
    messages in the DM that offer the match's moves, its panel aside. Whether it could;
    failing for now, tried at the next delivery."""
    channel_id = live.dm_channel_ids[seat]
    if channel_id is None or svc.client.user is None:
        return False
    try:
        # Nor the panel saved as the seat's: another process's, sent since this copy was
        # read (its delivery's check made as it began), is no stray.
        saved = await svc.owners.leases.shown(live.id)
    except Exception as e:
        log.info("match %d: seat %d's panel as saved could not be read (%s: %s)", live.id, seat,
                 e.__class__.__name__, e)
        return False
    kept = {live.dm_message_ids[seat], None if saved is None else saved.panels[seat].message_id}
    dm = svc.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
    try:
        async for message in dm.history(limit=UNSAVED_LOOKED_AT):
            if message.author.id == svc.client.user.id and \
                    message.id not in kept and moves_of(message, live.id):
                log.info("match %d: seat %d's panel %d was sent unsaved; its buttons go",
                         live.id, seat, message.id)
                await message.edit(view=None)
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: seat %d's DM could not be looked through (%s)", live.id, seat, e)
        return False
    return True
