"""A match in direct messages because its channel refused the bot goes back there by itself once
the bot may post there again (review166: a permission taken away for a moment moved a match to
DMs for good, and giving it back did nothing until a player ran ``/umtali table``).

Whether it may is read from discord.py's cache (no request): the channel there, not a locked
thread, and the bot's View Channel, Send Messages (in a thread: Send Messages in Threads) and
Embed Links in it. Looked at when the gateway says a server's channel, thread or role changed,
a lost match's thread unarchived (which discord.py tells as a thread joined) or the bot's own
roles changed (Discord sends the bot's own member's updates without the members intent), and at
the clock's check every ``CHECK_EVERY`` seconds (a restart while lost; an event missed). A
channel deleted stays lost. The
table is posted there and the match moved to it as ``/umtali table`` moves it (``posted_here``,
the same path: a version-checked save, the DM panels drawn again without the table), the table
left behind there retired (it no longer says a clock runs), and the players told once, in the
channel. Only by the process holding the match, and once in ``RETURN_AGAIN`` seconds a match (a
permission flapping; plus a random part, so that matches lost together, as at a restart, are
not tried together ever after), ``AT_ONCE`` at most at a time, and ``SETTLE`` seconds after
it was found lost at the soonest: a channel that refuses the post again stays lost, nothing
changed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import weakref
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.lost_at import found_back, found_lost, lost_in
from cogs.umtali.mentions import NO_MENTIONS, only, ping
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import table_panel
from cogs.umtali.retiring import BROUGHT, retire
from cogs.umtali.table_moves import TableMoved, TableTooLate
from cogs.umtali.time_out import ask_again_if_deleted
from umtali.i18n import N_, Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Seconds between two returns of one match to its channel (and two tries that failed).
RETURN_AGAIN = 600.0
#: Seconds a match stays lost, from when it was first found so here, before it may go back:
#: a permission taken away and given back at once (an admin's edit in two steps) settles.
SETTLE = 120.0
#: Seconds between two looks at every lost match by the clock's check.
CHECK_EVERY = 300.0
#: Returns (a channel fetched, a table drawn and posted) under way at once, by service.
AT_ONCE = 4

#: By match: when (``MatchService.ticks``) it last went back, or was tried.
_tried: weakref.WeakKeyDictionary[LiveMatch, float] = weakref.WeakKeyDictionary()
#: The matches whose lost channel was found deleted: never asked about again.
_deleted: weakref.WeakSet[LiveMatch] = weakref.WeakSet()
#: By service: when the clock's check last looked.
_looked: weakref.WeakKeyDictionary[MatchService, float] = weakref.WeakKeyDictionary()
#: By service: the returns under way (``AT_ONCE``).
_gates: weakref.WeakKeyDictionary[MatchService, asyncio.Semaphore] = \
    weakref.WeakKeyDictionary()

BACK = N_("{mentions}: I can post in this channel again, so this match is back here. Play on "
          "with the table just above; your direct messages show your hand as before.")


def channel_of(client: discord.Client, live: LiveMatch) -> discord.abc.GuildChannel | \
        discord.Thread | None:
    """The match's channel as the cache has it (None: deleted, or not known here)."""
    guild = client.get_guild(live.guild_id)
    channel = None if guild is None else guild.get_channel_or_thread(live.channel_id)
    return channel if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else None


def missing(channel: discord.abc.GuildChannel | discord.Thread) -> list[str]:
    """What keeps the bot from posting a match's table in ``channel``, as far as the cache
    tells: the first permission it lacks of View Channel, Send Messages (in a thread: Send
    Messages in Threads) and Embed Links (its name, untranslated: discord.py takes the later
    ones away with an earlier one, which alone is to be given back), or "locked" for a thread
    locked to it; none if it may post there."""
    me = channel.guild.me
    if me is None:
        return []
    perms = channel.permissions_for(me)
    if isinstance(channel, discord.Thread) and channel.locked and not perms.manage_threads:
        return ["locked"]
    send = ("send_messages_in_threads", N_("Send Messages in Threads")) \
        if isinstance(channel, discord.Thread) else ("send_messages", N_("Send Messages"))
    needed = (("view_channel", N_("View Channel")), send, ("embed_links", N_("Embed Links")))
    return [label for name, label in needed if not getattr(perms, name)][:1]


def usable(client: discord.Client, live: LiveMatch) -> discord.abc.Messageable | None:
    """The match's lost channel, if the bot may post there again (an archived thread, not
    locked, is opened again by the post)."""
    channel = channel_of(client, live)
    if channel is None or not isinstance(channel, discord.abc.Messageable):
        return None
    try:
        return None if missing(channel) else channel
    except discord.ClientException:
        return None  # a thread whose parent channel is not cached: not known to be usable


def due(svc: MatchService, live: LiveMatch) -> bool:
    """Whether the match is lost, held here, lost for ``SETTLE`` seconds at least, and not
    back (or tried) lately."""
    if not live.channel_lost:
        found_back(live)
        return False
    if live.over or live.lost_over or svc.matches.get(live.id) is not live:
        found_back(live)  # (not looked at again by its server's events)
        return False
    now = svc.ticks()
    if now - found_lost(live, now) < SETTLE:
        return False
    at = _tried.get(live)
    return at is None or now - at >= RETURN_AGAIN


def look(svc: MatchService, guild_id: int | None = None) -> None:
    """Each lost match held here (of server ``guild_id`` alone, if given) whose channel the
    bot may post in again goes back there, beside the caller. A channel the cache does not
    have (a thread archived, which discord.py forgets; or deleted) is asked of Discord, once
    in ``RETURN_AGAIN`` a match; found deleted, it is not asked again."""
    if svc.clock_state.outage is not None or not svc.client.is_ready():
        return  # the cache is not to be trusted: looked at again once connected
    # A server's event: its matches found lost alone (a match lost but not yet found so,
    # read at a restart, is found by the clock's first check, which looks at them all).
    matches = list(svc.matches.values()) if guild_id is None else lost_in(guild_id)
    for live in matches:
        if live in _deleted or not due(svc, live):
            continue
        if channel_of(svc.client, live) is None or usable(svc.client, live) is not None:
            _tried[live] = svc.ticks() + random.uniform(0.0, CHECK_EVERY)
            svc.beside.start(bring_back(svc, live), live.id, "return to its channel")


async def _reachable(svc: MatchService, live: LiveMatch) -> discord.abc.Messageable | None:
    """The match's channel if the bot may post there: as cached, or fetched if the cache does
    not have it (one request)."""
    if channel_of(svc.client, live) is not None:
        return usable(svc.client, live)
    try:
        channel = await svc.client.fetch_channel(live.channel_id)
    except discord.NotFound:
        _deleted.add(live)
        log.info("match %d: its channel %d was deleted: it stays in direct messages",
                 live.id, live.channel_id)
        return None
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: its channel %d could not be fetched (%s)", live.id,
                 live.channel_id, e)
        return None
    try:
        lacking = missing(channel) if isinstance(channel, discord.abc.GuildChannel |
                                                 discord.Thread) else ["unknown"]
    except discord.ClientException:
        return None  # a thread whose channel the bot does not see
    return None if lacking or not isinstance(channel, discord.abc.Messageable) else channel


def deleted(live: LiveMatch) -> bool:
    """Whether the match's lost channel was found deleted (``look``)."""
    return live in _deleted


def check(svc: MatchService) -> None:
    """The clock's check: every ``CHECK_EVERY`` seconds, ``look``."""
    now = svc.ticks()
    at = _looked.get(svc)
    if at is not None and now - at < CHECK_EVERY:
        return
    _looked[svc] = now
    look(svc)


async def bring_back(svc: MatchService, live: LiveMatch) -> None:
    """The match's table posted in its lost channel, and the match moved there."""
    gate = _gates.setdefault(svc, asyncio.Semaphore(AT_ONCE))
    async with gate:
        if not due_still(svc, live):
            return
        channel = await _reachable(svc, live)
        if channel is None:
            return
        row = await svc.store.match(live.id)
        if row is None or row.status != "active" or not row.channel_lost:
            return  # brought back (or ended) meanwhile, by a player or another process
        if svc.tables_under_way.busy(live.id):
            return  # a player's ``/umtali table`` under way: it brings the match back
        tr = svc.public_tr(live)
        try:
            with svc.tables_under_way.posting(live.id):
                message = await _sent(svc, live, channel, tr)
                if not await posted_here(svc, live, message):
                    return
        except _Refused:
            return
    log.info("match %d: the bot may post in channel %d again: the match is back there",
             live.id, live.channel_id)
    await tell_back(svc, live, channel, tr)


class _Refused(Exception):
    """The table's post refused (logged): the post under way failed, not made."""


async def _sent(svc: MatchService, live: LiveMatch, channel: discord.abc.Messageable,
                tr: Tr) -> discord.Message:
    """The match's table posted in ``channel``; ``_Refused`` if it could not be."""
    try:
        table = await svc.table_message(live).drawn()
        return await channel.send(**table.send(), view=table_panel(live.id, tr),
                                  allowed_mentions=NO_MENTIONS)
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: its channel %d still refuses the bot (%s); it stays in "
                 "direct messages", live.id, live.channel_id, e)
        raise _Refused from e


def due_still(svc: MatchService, live: LiveMatch) -> bool:
    return live.channel_lost and not live.over and svc.matches.get(live.id) is live


async def posted_here(svc: MatchService, live: LiveMatch, message: discord.Message) -> bool:
    """The match moved to ``message``, its live table just posted (``/umtali table``, or its
    return): the table it replaced retired, the DM panels drawn again without the table.
    Whether it moved; a table posted in vain is taken down or says where the live one is."""
    was_lost = live.channel_lost
    try:
        old = await svc.move_to(live, message.channel.id, message.id)
    except TableMoved:
        # The other player brought it to another channel a moment before: this one is no
        # live table, and says where that is.
        await retire(svc.client, live, message.id, message.channel.id, BROUGHT)
        return False
    except TableTooLate:
        # The match ended as this was posted: shown as it ended, nothing left to click.
        ended = await svc.table_message(live).drawn()
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await message.edit(**{**ended.edit(), "view": None})
        return False
    except Exception:
        # Not saved: taken down, or it would stay behind as it is, buttons and all, beside
        # the live table the database has.
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await message.delete()
        raise
    found_back(live)  # (a later loss settles from its own time)
    # A move made while this was posted is shown on the new table too; the DM panels no
    # longer need to carry the table once the match has a channel again.
    svc.delivery.enqueue(live, Batch(table=True, hands={0, 1} if was_lost else set()))
    if old is not None and old != message.id:
        await retire(svc.client, live, old)
    # The question beside the table, if it was deleted since it was asked, is asked again.
    await ask_again_if_deleted(svc, live)
    return True


async def tell_back(svc: MatchService, live: LiveMatch, channel: discord.abc.Messageable,
                    tr: Tr) -> None:
    """The players told, once, in the channel, that the match is back there (a failure is no
    matter: the table is there, and their DM panels no longer carry it)."""
    people = [live.player_ids[seat] for seat in (0, 1) if not live.is_computer(seat)]
    try:
        await channel.send(tr(BACK, mentions=" ".join(ping(p) for p in people)),
                           allowed_mentions=only(*people))
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: its players could not be told it is back in its channel (%s)",
                 live.id, e)
