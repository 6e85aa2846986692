"""A match moved into a thread of its own, made from the message that started it."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Final

import discord

from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.time_control import HOUR

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


#: Minutes with no message after which Discord archives a thread: its longest, a week.
WEEK: Final = 10080


def slow(live: LiveMatch) -> bool:
    """Whether a turn of the match may take an hour or more (correspondence, no clock): its
    thread archives after a week with no message, not after the channel's default (a day),
    which a turn of a day would pass (the bot brings it back all the same: ``archived``)."""
    return not live.control.timed or live.control.turn >= HOUR


async def into_thread(svc: MatchService, live: LiveMatch, message: discord.Message,
                      name: str) -> None:
    """Play ``live`` in a thread made from ``message``, once the database says so; where it
    is if the thread cannot be made (a permission, Discord or the network failing) or saved."""
    try:
        if slow(live):
            thread = await message.create_thread(name=name, auto_archive_duration=WEEK)
        else:
            thread = await message.create_thread(name=name)
    except (discord.HTTPException, *PASSING) as e:
        # The network too: the match is made already, and its table is still to be posted.
        log.info("match %d: no thread (%s: %s); playing in the channel", live.id,
                 e.__class__.__name__, e)
        return
    try:
        await svc.store.set_match_channel(live.id, thread.id)
    except Exception as e:  # saved first: the match is played where the database has it
        if await _saved_after_all(svc, live, thread):
            live.channel_id = thread.id
            return
        log.warning("match %d: the thread could not be saved (%s: %s); playing in the channel",
                    live.id, e.__class__.__name__, e)
        return
    live.channel_id = thread.id


async def _saved_after_all(svc: MatchService, live: LiveMatch, thread: discord.Thread) -> bool:
    """Whether a save of the thread that failed was committed all the same (its answer lost):
    then the match is played there. If not, the thread is deleted, not left empty under the
    match's name beside its table; if that cannot be known, it is left (the database may
    name it)."""
    try:
        row = await svc.store.match(live.id)
    except Exception as e:
        log.info("match %d: whether its thread was saved is unknown (%s)", live.id, e)
        return False
    if row is not None and row.channel_id == thread.id:
        return True
    with contextlib.suppress(discord.HTTPException, *PASSING):
        await thread.delete()
    return False
