"""A table replaced by a newer one (``/umtali table``): it loses its buttons and its picture, and
says where the live table is. Done by the command that replaced it, and again by a delivery
whose edit of it, under way as it was replaced, put them back (``cogs.umtali.delivery``)."""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.umtali.access import service
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.live import LiveMatch
from umtali.i18n import N_

log = logging.getLogger(__name__)

#: Said by a table that was replaced, and by one posted as the match was brought to another
#: channel (``/umtali table`` run there a moment before, by the other player). Its link is
#: masked: a screen reader says its words, not the link's digits, and it takes no lines.
MOVED = N_("This table moved: here is [the live table]({link}).")
BROUGHT = N_("The table was brought to another channel a moment before: here is [the live "
             "table]({link}).")


def table_link(live: LiveMatch) -> str:
    return (f"https://discord.com/channels/{live.guild_id}/{live.channel_id}/"
            f"{live.table_message_id}")


#: Seconds before a replaced table that Discord failed to edit for now is tried again.
RETIRE_AGAIN = (5.0, 30.0, 120.0)
#: Those tries under way (kept from the garbage collector).
_RETIRING: set[asyncio.Task[None]] = set()


async def retire(client: discord.Client, live: LiveMatch, message_id: int,
                 channel_id: int | None = None, note: str = MOVED) -> None:
    """The table that was replaced (in ``channel_id``; the match's own if not given) loses
    its buttons and says where the live one is (``note``). Discord failing for now, it is
    tried again in the background a few times, further apart: the live table is posted, and
    its player is answered meanwhile."""
    if await _edit_replaced(client, live, message_id, channel_id, note):
        return
    task = asyncio.create_task(_retire_later(client, live, message_id, channel_id, note))
    _RETIRING.add(task)
    task.add_done_callback(_RETIRING.discard)


async def _retire_later(client: discord.Client, live: LiveMatch, message_id: int,
                        channel_id: int | None, note: str) -> None:
    for delay in RETIRE_AGAIN:
        await asyncio.sleep(delay)
        if client.is_closed() or await _edit_replaced(client, live, message_id, channel_id,
                                                      note):
            return
    log.warning("match %d: the replaced table %d could not be edited; left as it was",
                live.id, message_id)


async def _edit_replaced(client: discord.Client, live: LiveMatch, message_id: int,
                         channel_id: int | None, note: str) -> bool:
    """Edit the replaced table; False if Discord failed for now."""
    svc = service(client)
    channel = client.get_partial_messageable(live.channel_id if channel_id is None
                                             else channel_id)
    tr = svc.public_tr(live)
    try:
        # Its picture goes: it would show a position long past.
        await channel.get_partial_message(message_id).edit(
            embed=svc.table_embed(live, tr(note, link=table_link(live))), attachments=[],
            view=None)
    except GONE:
        log.info("match %d: the replaced table %d is gone", live.id, message_id)
    except PASSING as e:
        log.info("match %d: the replaced table %d could not be edited for now (%s)", live.id,
                 message_id, e)
        return False
    return True
