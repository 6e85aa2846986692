"""A match moved into a thread of its own, made from the message that started it."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


async def into_thread(svc: MatchService, live: LiveMatch, message: discord.Message,
                      name: str) -> None:
    """Play ``live`` in a thread made from ``message``, once the database says so; where it
    is if the thread cannot be made (a permission, Discord or the network failing) or saved."""
    try:
        thread = await message.create_thread(name=name)
    except (discord.HTTPException, *PASSING) as e:
        # The network too: the match is made already, and its table is still to be posted.
        log.info("match %d: no thread (%s: %s); playing in the channel", live.id,
                 e.__class__.__name__, e)
        return
    try:
        await svc.store.set_match_channel(live.id, thread.id)
    except Exception as e:  # saved first: the match is played where the database has it
        log.warning("match %d: the thread could not be saved (%s: %s); playing in the channel",
                    live.id, e.__class__.__name__, e)
        # Not left behind empty, under the match's name, beside the table in the channel.
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await thread.delete()
        return
    live.channel_id = thread.id
