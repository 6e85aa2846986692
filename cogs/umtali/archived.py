"""A match's thread archived under it: brought back when the bot may, lost when it may not.

Discord archives a thread after its ``auto_archive_duration`` with no message (by
correspondence a turn may take that long), and a moderator may archive or lock one by hand. A
message sent there brings an archived thread back, unless it is locked; an edit of a message
there is refused (400, 50083). So an edit refused so is tried once more after the bot has
unarchived the thread (it made it, so it may, unless the thread is locked). Where it may not
(locked, a permission taken away), the thread is refused for good, as a deleted channel is
(``cogs.umtali.failures.GONE``): the match goes on in DMs, and nothing is tried for ever.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from cogs.umtali.failures import GONE, PASSING

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Discord's code for an operation refused because its thread is archived.
ARCHIVED = 50083


class ThreadClosed(discord.Forbidden):
    """The thread stays archived for the bot: it may not bring it back (Discord refused the
    unarchive with something else than a 403, or archived it again at once). A ``Forbidden``,
    so that it is handled as a channel refused for good."""

    def __init__(self, cause: discord.HTTPException) -> None:
        super().__init__(cause.response, {"code": cause.code, "message": cause.text})


def archived(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an edit because the thread is archived (a 403
    saying so is already a refusal for good: the thread is locked too)."""
    return (isinstance(error, discord.HTTPException) and not isinstance(error, GONE)
            and error.code == ARCHIVED)


async def unarchive(client: discord.Client, thread_id: int) -> None:
    """Bring the archived thread back. Raises a ``GONE`` error if the bot may not (locked, or
    deleted meanwhile), a ``PASSING`` one if Discord or the network failed for now."""
    try:
        await client.http.edit_channel(thread_id, archived=False)
    except (*GONE, *PASSING):
        raise
    except discord.HTTPException as e:
        raise ThreadClosed(e) from e
    log.info("thread %d was archived; brought back", thread_id)


async def reopened(client: discord.Client, thread_id: int,
                   edit: Callable[[], Awaitable[T]], *, archive_again: bool = False) -> T:
    """``edit`` (of a message in ``thread_id``); refused because the thread is archived, the
    thread is brought back and ``edit`` tried once more. ``archive_again``: the thread is
    archived again after that edit, as it was found (a finished match's, closed by a
    moderator, brought back only for a late edit)."""
    try:
        return await edit()
    except discord.HTTPException as e:
        if not archived(e):
            raise
    await unarchive(client, thread_id)
    try:
        done = await edit()
    except discord.HTTPException as e:
        if archived(e):
            raise ThreadClosed(e) from e  # archived again at once: not a loop
        raise
    if archive_again:
        try:
            await client.http.edit_channel(thread_id, archived=True)
        except (discord.HTTPException, *PASSING) as e:
            log.info("thread %d could not be archived again (%s)", thread_id, e)
    return done
