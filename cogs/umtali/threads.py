"""A match moved into a thread of its own, made from the message that started it."""

from __future__ import annotations

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
                      name: str, manage: bool) -> discord.Thread | None:
    """Play ``live`` in a thread made from ``message``, once the database says so: that
    thread. Where it is (None) if the thread cannot be made (a permission, Discord or the
    network failing) or saved. ``manage``: the bot may manage threads there (``drop_thread``)."""
    try:
        if slow(live):
            thread = await message.create_thread(name=name, auto_archive_duration=WEEK)
        else:
            thread = await message.create_thread(name=name)
    except (discord.HTTPException, *PASSING) as e:
        # The network too: the match is made already, and its table is still to be posted.
        log.info("match %d: no thread (%s: %s); playing in the channel", live.id,
                 e.__class__.__name__, e)
        return None
    try:
        await svc.store.set_match_channel(live.id, thread.id)
    except Exception as e:  # saved first: the match is played where the database has it
        if await _saved_after_all(svc, live, thread, manage):
            live.channel_id = thread.id
            return thread
        log.warning("match %d: the thread could not be saved (%s: %s); playing in the channel",
                    live.id, e.__class__.__name__, e)
        return None
    live.channel_id = thread.id
    return thread


async def _saved_after_all(svc: MatchService, live: LiveMatch, thread: discord.Thread,
                           manage: bool) -> bool:
    """Whether a save of the thread that failed was committed all the same (its answer lost):
    then the match is played there. If not, the thread is dropped (``drop_thread``), not left
    empty under the match's name beside its table; if that cannot be known, it is left (the
    database may name it)."""
    try:
        row = await svc.store.match(live.id)
    except Exception as e:
        log.info("match %d: whether its thread was saved is unknown (%s)", live.id, e)
        return False
    if row is not None and row.channel_id == thread.id:
        return True
    await drop_thread(thread, manage)
    return False


async def drop_thread(thread: discord.Thread, manage: bool) -> None:
    """A thread made for a match that is not played in it, gone from the channel's list: deleted
    where the bot may manage threads (Discord asks Manage Threads for that, which the
    README's invite does not give), else archived, which its creator may do (locking it would
    ask Manage Threads too). Neither done (Discord failing), it is left: it holds nothing."""
    if manage:
        try:
            await thread.delete()
            return
        except (discord.HTTPException, *PASSING) as e:
            log.info("thread %d: not deleted (%s); archived instead", thread.id, e)
    try:
        await thread.edit(archived=True)
    except (discord.HTTPException, *PASSING) as e:
        log.info("thread %d: not archived (%s); left", thread.id, e)
