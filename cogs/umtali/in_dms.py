"""A player's hand in their direct messages: the DM panel, edited in place as the match moves,
or sent as a new message when the player must be notified (an edit does not notify): their
turn with the match's channel lost, a warning, the note that the channel was lost."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import GONE
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import command
from cogs.umtali.outbox import Batch
from umtali.i18n import EN, Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService


def channel_lost(tr: Tr) -> str:
    """Told to both players in their DMs when the match's channel is lost."""
    return tr("I can no longer post in this match's channel (it was deleted, locked, or I lost "
              "permission there). Play on here: the table comes with your hand. `{command}` in "
              "another channel brings the match there.", command=command(tr, "umtali", "table"))


CHANNEL_LOST = channel_lost(EN)


async def send_hand(svc: MatchService, live: LiveMatch, seat: int, *, new: bool = False,
                    note: str = "") -> None:
    """The seat's private hand by DM, edited in place (``new``: as a new message, which
    notifies); once refused, never tried again."""
    if live.dm_refused[seat] or live.is_computer(seat):
        return
    version, over = live.version, live.over
    if live.dm_shown[seat] == version and not (new or note):
        return
    shown = await svc.dm_panel(live, seat, note).drawn()
    channel_id, message_id = live.dm_channel_ids[seat], live.dm_message_ids[seat]
    if channel_id is not None and message_id is not None and not new:
        dm = svc.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            await dm.get_partial_message(message_id).edit(**shown.edit())
            _shown(svc, live, seat, version, over, message_id)
            return
        except GONE:
            if live.dm_message_ids[seat] != message_id:
                # A new message took the panel's place meanwhile (and took this one away):
                # that one is edited, rather than a third sent.
                _shown(svc, live, seat, version, over, message_id)
                return
            # Deleted, or DMs closed since: a new message says whether they are.
    user_id = live.player_ids[seat]
    try:
        user = svc.client.get_user(user_id) or await svc.client.fetch_user(user_id)
        if channel_id is not None and message_id is not None and not new:
            shown = await svc.dm_panel(live, seat, note).drawn()  # files read
        message = await user.send(**shown.send())
    except GONE:
        await svc.delivery.dm_refused(live, seat)
        return
    await svc.store.set_dm_message(live.id, seat, message.channel.id, message.id)
    replaced = live.dm_message_ids[seat] if new else None
    live.dm_channel_ids[seat] = message.channel.id
    live.dm_message_ids[seat] = message.id
    _shown(svc, live, seat, version, over, message.id)
    if replaced is not None and replaced != message.id:
        # One panel to play on: the one it replaced, left as it was, would go on offering
        # the moves of an earlier position. Kept, as what was said, without them.
        old = svc.client.get_partial_messageable(message.channel.id,
                                                 type=discord.ChannelType.private)
        with contextlib.suppress(discord.HTTPException):
            await old.get_partial_message(replaced).edit(view=None)


def _shown(svc: MatchService, live: LiveMatch, seat: int, version: int, over: bool,
           message_id: int) -> None:
    """The seat's panel (``message_id``) now shows the match at ``version``, unless the match
    moved on or ended while it was drawn or sent (an ending keeps the version, and its own
    edit must not be skipped), or another message took the panel's place meanwhile (a
    warning's new message, sent outside the delivery): then the panel is sent again, lest
    the later edit be lost to this one or made to a message no longer the panel."""
    if live.over == over and live.version == version and \
            live.dm_message_ids[seat] == message_id:
        live.dm_shown[seat] = version
        return
    live.dm_shown[seat] = None
    svc.delivery.enqueue(live, Batch(hands={seat}))
