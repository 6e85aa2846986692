"""A server that removed the bot: its matches end with no result, its challenges are withdrawn.

Once removed, the bot can post nothing there, and its results would rate a ladder the server no
longer shows: each match of the server in play ends as an abandoned one does (nobody wins, no
rating changes, the seed revealed on the players' panels), its clock stopped, and each human
player is told by DM (if Discord still lets the bot write to them). Its open challenges and
practice offers are withdrawn. All of it is saved in the database, so that every process sees it.

Discord sends the same GUILD_DELETE for a server in an outage, marked ``unavailable``:
discord.py tells the two apart (``on_guild_unavailable``, ``on_guild_remove``), and only a
removal ends anything. A removal while the bot was down is found when it connects: Discord's
READY lists every server the bot is in (those not there yet as unavailable), so a server with
matches in play that is missing from it, on a shard this process runs, removed the bot.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.names import safe_name, server_name
from cogs.umtali.reminders import to_dms
from umtali.i18n import N_

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Told by DM to each human player of a match ended so. Two messages, not a name put into one:
#: a language may word them differently.
REMOVED = N_("I was removed from the server {server}, so match #{match} against {name} ended "
             "there with no result. Nobody wins it and no rating changed; you are free to "
             "start another.")
REMOVED_UNNAMED = N_("I was removed from the server of match #{match} against {name}, so it "
                     "ended with no result. Nobody wins it and no rating changed; you are "
                     "free to start another.")


def owns(client: discord.Client, guild_id: int) -> bool:
    """Whether ``client`` hears the server's events: on a shard of another process, its
    absence here says nothing."""
    count = client.shard_count
    if not count or count <= 1:
        return True
    shards = (client.shard_ids if isinstance(client, discord.AutoShardedClient)
              else [client.shard_id])
    return shards is None or None in shards or (guild_id >> 22) % count in shards


class Removals:
    """The servers that removed the bot, handled once each; one whose ending failed (the
    database) is tried again by the timer (``retry``) while the bot is still out of it."""

    def __init__(self, svc: MatchService) -> None:
        self.svc = svc
        #: Servers whose ending failed, with their names (None: not known), to try again.
        self.pending: dict[int, str | None] = {}
        #: Servers being ended here, or waiting to be tried again: the clock forfeits no turn
        #: of theirs meanwhile (a result would rate a server that removed the bot).
        self.leaving: set[int] = set()
        #: By server, the matches whose ending failed as it was saved: it may have gone
        #: through (``cogs.umtali.unheard``), and then no longer shows among those in play.
        self.unsure: dict[int, list[LiveMatch]] = {}
        #: READY's sweep could not read the servers in play (the database): the timer sweeps
        #: again. Else a removal while the bot was away waits for the next READY, its matches
        #: played on meanwhile, their channels' refusals taken for it (``ChannelLoss``).
        self.unswept = False

    async def removed(self, guild_id: int, server: str | None) -> bool:
        """End what the bot had going on the server; False (and tried again later) if the
        database failed."""
        store = self.svc.store
        self.leaving.add(guild_id)
        ended: list[LiveMatch] = []
        unsure = self.unsure.setdefault(guild_id, [])
        try:
            withdrawn = await store.withdraw_challenges_in(guild_id)
            await self._found_ended(unsure, ended)
            for match_id in await store.active_matches_in(guild_id):
                live = await self.svc.lookup(match_id)
                if live is None or live.over:
                    continue
                unsure.append(live)
                if await self.svc.abandon(live, channel_lost=True):
                    ended.append(live)
                unsure.remove(live)
        except Exception as e:
            self.pending[guild_id] = server
            log.warning("removed from server %d: its matches could not all be ended (%s: %s); "
                        "trying again", guild_id, e.__class__.__name__, e)
            return False
        finally:
            # Told once every match is ended: DMs take time (Discord's limits), and the
            # matches still in play would wait on them.
            for live in ended:
                await self._tell(live, server)
        self.pending.pop(guild_id, None)
        self.leaving.discard(guild_id)
        self.unsure.pop(guild_id, None)
        if ended or withdrawn:
            log.info("removed from server %d: %d match(es) ended with no result, %d "
                     "challenge(s) withdrawn", guild_id, len(ended), withdrawn)
        return True

    async def _found_ended(self, unsure: list[LiveMatch], ended: list[LiveMatch]) -> None:
        """Of the matches whose ending was in doubt (``unsure``, emptied as each is read),
        those found ended by this process go to ``ended``: their players were never told."""
        for was in list(unsure):
            if await self.svc.owners.leases.ended_as(was.id, "abandoned") is not None:
                ended.append(was)
            unsure.remove(was)

    async def _added_back(self, guild_id: int, server: str | None) -> bool:
        """The bot is back on a server whose ending failed: nothing more is ended there (its
        clocks run again), but a match whose ending was in doubt and went through was ended by
        the removal, and its players are told why; False if that could not be read yet."""
        self.leaving.discard(guild_id)
        ended: list[LiveMatch] = []
        try:
            await self._found_ended(self.unsure.get(guild_id, []), ended)
        except Exception as e:
            log.warning("added back to server %d: whether its matches' endings went through "
                        "could not be read (%s: %s); trying again", guild_id,
                        e.__class__.__name__, e)
            return False
        finally:
            for live in ended:
                await self._tell(live, server)
        self.unsure.pop(guild_id, None)
        return True

    async def _tell(self, live: LiveMatch, server: str | None) -> None:
        """Each human player by DM, once (a courtesy: their panel says the match is over).
        Each DM is its own: a bug telling one player (``to_dms`` lets one through as the
        caller's) is logged, and the others, of this match and the server's next, are told."""
        for seat in (0, 1):
            if live.is_computer(seat):
                continue
            try:
                await self._tell_seat(live, seat, server)
            except Exception:
                log.exception("match %d: seat %d could not be told of the removal", live.id,
                              seat)

    async def _tell_seat(self, live: LiveMatch, seat: int, server: str | None) -> None:
        """Sent as every new message to the seat's DMs from here, one at a time (``to_dms``):
        DMs found closed by a send beside it (a reminder, the final panel) are known to it
        before it goes, and one it finds closed to the next, each refused request counting
        towards Discord's limit of invalid requests."""
        client = self.svc.client
        tr = self.svc.seat_tr(live, seat)
        name, shown = safe_name(live.names_in(tr)[1 - seat]), server_name(server or "")
        text = (tr(REMOVED, server=shown, match=live.id, name=name) if shown
                else tr(REMOVED_UNNAMED, match=live.id, name=name))

        async def send() -> discord.Message:
            user_id = live.player_ids[seat]
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            return await user.send(text, allowed_mentions=NO_MENTIONS)
        try:
            await to_dms(self.svc, live, seat, send)
        except (*GONE, *PASSING) as e:
            log.info("match %d: seat %d could not be told of the removal (%s)", live.id,
                     seat, e)
        except discord.HTTPException as e:
            log.warning("match %d: seat %d could not be told of the removal (%s)",
                        live.id, seat, e)

    async def sweep(self) -> int:
        """At each READY: the servers with something in play that the bot is no longer in
        (removed while it was away); how many were ended."""
        client = self.svc.client
        self.unswept = False
        try:
            servers = await self.svc.store.servers_in_play()
        except Exception as e:
            self.unswept = True
            log.warning("the servers in play could not be read (%s); checked again later", e)
            return 0
        gone = sorted(g for g in servers if owns(client, g) and client.get_guild(g) is None)
        ended = 0
        for guild_id in gone:
            ended += await self.removed(guild_id, self.pending.get(guild_id))
        return ended

    async def retry(self) -> None:
        """The servers whose ending failed, tried again while the bot is still out of them;
        and READY's sweep, if it failed."""
        if self.unswept:
            await self.sweep()
        for guild_id, server in list(self.pending.items()):
            if self.svc.client.get_guild(guild_id) is not None:
                # Added back meanwhile: nothing to end, but what was ended is told.
                if await self._added_back(guild_id, server):
                    self.pending.pop(guild_id, None)
                continue
            await self.removed(guild_id, server)


def hear_removals(client: discord.Client, svc: MatchService) -> None:
    """Have ``client``'s removals from servers (and its READYs, for those it missed) end what
    ``svc`` has going there."""
    async def removed(guild: discord.Guild) -> None:
        await svc.removals.removed(guild.id, guild.name)

    async def ready() -> None:
        await svc.removals.sweep()

    if isinstance(client, commands.Bot):
        client.add_listener(removed, "on_guild_remove")
        client.add_listener(ready, "on_ready")
