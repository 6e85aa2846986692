"""``/umtali table`` held back, answered with the live table's link as seen a moment ago
(``tables.SEEN_FOR``), not looked at again: a player asking again and again would make the bot
ask Discord each time. The bot hears of no deletion (no message events), so a table deleted
within that time was given as a dead link. Now the first such answer of that time has the table
looked at once it ends (one request, however many asked meanwhile), and each member answered
so is told, privately, if it was deleted or replaced since.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from weakref import WeakKeyDictionary

import discord

from cogs.umtali.access import tr_of
from cogs.umtali.failures import PASSING, UNKNOWN_MESSAGE
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import command
from cogs.umtali.retiring import table_link
from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


class _Doubts:
    """The members answered from a memo, by match and the table they were given (a look at one
    table says nothing of the link to another, posted since), and the looks waiting for its
    end."""

    def __init__(self, svc: MatchService) -> None:
        self.told: dict[tuple[int, int], list[discord.Interaction]] = {}
        self.looks: set[asyncio.Task[None]] = set()
        svc.closing.append(self.close)

    async def close(self) -> None:
        for task in list(self.looks):
            task.cancel()
        await asyncio.gather(*self.looks, return_exceptions=True)


_doubts: WeakKeyDictionary[MatchService, _Doubts] = WeakKeyDictionary()


def doubted(svc: MatchService, live: LiveMatch, table: int, until: float,
            interaction: discord.Interaction) -> None:
    """``interaction`` was answered with ``table``'s link, taken to be there until ``until``
    (by ``svc.ticks``) without looking: looked at then, and the member told if it was not.
    Not once the service is closing: the look would outlive it."""
    if svc.closed:
        return
    doubts = _doubts.get(svc)
    if doubts is None:
        doubts = _doubts[svc] = _Doubts(svc)
    told = doubts.told.setdefault((live.id, table), [])
    told.append(interaction)
    if len(told) == 1:
        task = asyncio.create_task(_look(svc, doubts, live, table, until),
                                   name=f"umtali-table-doubted-{live.id}-{table}")
        doubts.looks.add(task)
        task.add_done_callback(doubts.looks.discard)


async def _look(svc: MatchService, doubts: _Doubts, live: LiveMatch, table: int,
                until: float) -> None:
    # Due by the service's steady clock, not the loop's: the same in a process, but a
    # test's clock holds the look back until it moves on.
    while (left := until - svc.ticks()) > 0:
        await asyncio.sleep(left)
    told = doubts.told.pop((live.id, table), [])
    if live.table_message_id != table or live.channel_lost:
        # Replaced meanwhile (posted again, or found deleted by a turn's edit and posted
        # anew), or the match left its channel: the link they were given is not its table.
        said = "replaced"
    else:
        message = svc.client.get_partial_messageable(live.channel_id).get_partial_message(table)
        try:
            await message.fetch()
            live.table_seen = table, svc.ticks()
            return
        except (discord.HTTPException, *PASSING) as e:
            if not isinstance(e, discord.NotFound) or e.code != UNKNOWN_MESSAGE:
                log.info("match %d: whether its live table is still there is unknown (%s)",
                         live.id, e)
                return
        live.table_seen = None
        said = "deleted"
    for interaction in told:
        tr = tr_of(interaction)
        if said == "deleted":
            text = tr("The table linked above was deleted since: ask again with `{command}` to "
                      "post it.", command=command(tr, "umtali", "table"))
        elif live.channel_lost or live.table_message_id is None:
            text = tr("The table linked above is no longer the live one: this match is played "
                      "in direct messages for now.")
        else:
            text = tr("The table linked above is no longer the live one: here is [the live "
                      "table]({link}).", link=table_link(live))
        # (an interaction past its 15 minutes, Discord failing: the link stays as it was)
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await interaction.followup.send(text, ephemeral=True)
