"""Who has left a server, as the bot last found out, for an admin's lists (review166): the bot
is given no member list (no privileged intent), so it learns that a player has gone only when
Discord answers a member's fetch with "Unknown Member" (``permissions.reach``,
``member_standing``, ``/umtali-admin matches``). Kept in this process's memory: an admin's
listing asks again for the players it shows, a suggestion (every keystroke) never asks. Kept
by client (a test's bots, or a process's, each their own)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Iterable

import discord

from cogs.umtali.failures import PASSING

log = logging.getLogger(__name__)

#: Discord's code for a user who is not a member of the server.
UNKNOWN_MEMBER = 10007
#: Departures remembered at most (the oldest forgotten first): a bound on memory, far above
#: the players of the matches in play on any process.
KEPT = 10_000
#: Members one listing asks Discord about at most: its answer must come in seconds, and the
#: members' route is rate limited by the server.
ASKED_AT_MOST = 20
#: Those questions at a time.
AT_ONCE = 4
#: Seconds the questions are given in all: those unanswered by then are not marked.
ASK_FOR = 2.5

#: By client: (server, user) found gone, in the order they were found.
_left: weakref.WeakKeyDictionary[discord.Client, OrderedDict[tuple[int, int], None]] = \
    weakref.WeakKeyDictionary()


def found_left(client: discord.Client, guild_id: int, user_id: int) -> None:
    """Discord said the user is no member of the server."""
    left = _left.setdefault(client, OrderedDict())
    left[guild_id, user_id] = None
    left.move_to_end((guild_id, user_id))
    while len(left) > KEPT:
        left.popitem(last=False)


def found_here(client: discord.Client, guild_id: int, user_id: int) -> None:
    """The user found a member of the server (back, or never gone)."""
    left = _left.get(client)
    if left is not None:
        left.pop((guild_id, user_id), None)


def has_left(client: discord.Client, guild_id: int, user_id: int) -> bool:
    """Whether the user was last found gone from the server (no request made)."""
    return (guild_id, user_id) in _left.get(client, {})


async def _ask(client: discord.Client, guild: discord.Guild, user_id: int,
               gate: asyncio.Semaphore) -> None:
    async with gate:
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound as e:
            if e.code == UNKNOWN_MEMBER:
                found_left(client, guild.id, user_id)
            return
        except (discord.HTTPException, *PASSING) as e:
            log.info("could not tell whether member %d is still on server %d (%s)", user_id,
                     guild.id, e)
            return
    found_here(client, guild.id, user_id)


async def ask(client: discord.Client, guild: discord.Guild, user_ids: Iterable[int]) -> None:
    """Discord asked about the first ``ASKED_AT_MOST`` of ``user_ids`` (the rest, and those it
    has not answered within ``ASK_FOR`` seconds, left as last found)."""
    wanted = list(dict.fromkeys(user_ids))[:ASKED_AT_MOST]
    if not wanted:
        return
    gate = asyncio.Semaphore(AT_ONCE)
    tasks = [asyncio.ensure_future(_ask(client, guild, user_id, gate)) for user_id in wanted]
    _, late = await asyncio.wait(tasks, timeout=ASK_FOR)
    for task in late:
        task.cancel()
