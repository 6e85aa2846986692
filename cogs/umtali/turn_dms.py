"""By correspondence, one turn DM at most stands per player (review139: one a turn stood for
good, 55 a session, the hand panel pushed far up): the one before is deleted as the next goes
out, and once its turn is played. Saved (``data.turn_dms``), so that whichever process tells
the next turn or sees this one played, a restart too, deletes it. A delete that fails is no
error: the DM stays, one more message."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from data.failing import failing_for_now

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


async def stands(svc: MatchService, live: LiveMatch, seat: int, sent: discord.Message) -> None:
    """``sent``, the seat's turn DM, stands from now on: the one before it is deleted."""
    try:
        channel, before = await svc.store.swap_turn_dm(live.id, seat, sent.id)
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.info("match %d: seat %d's turn DM could not be saved (%s)", live.id, seat, e)
        return
    if before is not None:
        await _delete(svc, live, channel or sent.channel.id, before)


async def played(svc: MatchService, live: LiveMatch, seat: int,
                 sent: discord.Message | None = None) -> None:
    """The seat's turn is played (or the match over): its turn DM standing is deleted;
    ``sent``: that one, just sent (deleted even if its save failed)."""
    try:
        channel, standing = await svc.store.take_turn_dm(
            live.id, seat, None if sent is None else sent.id)
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.info("match %d: seat %d's turn DM could not be read (%s)", live.id, seat, e)
        channel, standing = None, None
    if sent is not None:
        channel, standing = sent.channel.id, sent.id
    if standing is not None and channel is None:
        # No DM channel saved (the DM went by ``user.send`` before any panel landed): its
        # id cleared, it would stand for good. The player's DM channel is the one it is in.
        channel = await _dm_channel(svc, live, seat)
    if standing is not None and channel is not None:
        await _delete(svc, live, channel, standing)


async def _dm_channel(svc: MatchService, live: LiveMatch, seat: int) -> int | None:
    """The seat's player's DM channel: known here, else looked up (None: not found now)."""
    if live.dm_channel_ids[seat] is not None:
        return live.dm_channel_ids[seat]
    user_id = live.player_ids[seat]
    try:
        user = svc.client.get_user(user_id) or await svc.client.fetch_user(user_id)
        dm = user.dm_channel or await user.create_dm()
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: seat %d's DM channel could not be found (%s)", live.id, seat, e)
        return None
    return dm.id


async def _delete(svc: MatchService, live: LiveMatch, channel_id: int, message_id: int) -> None:
    dm = svc.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
    try:
        await dm.get_partial_message(message_id).delete()
    except (discord.HTTPException, *PASSING) as e:
        # Deleted by hand, DMs closed since, Discord failing: it stays (no retry).
        log.info("match %d: a turn DM could not be deleted (%s)", live.id, e)
