"""A match's channel lost: it refused the bot for good (deleted, locked, permission removed),
or failed for an hour (``retries.TRIES``). The match goes on in the players' DMs, each told
so by a new message, each panel carrying the table and the last turn (``/umtali table`` brings
it back to a channel); a match whose players can no longer be told anything is abandoned. A
channel the match has left meanwhile (``/umtali table`` moved it) loses nothing.

The part of ``cogs.umtali.delivery.Delivery`` that decides this; the sending itself is the
delivery's.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

import discord

from cogs.umtali.dms_again import hold, holds, owe, paid, refused, release
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import only, ping
from cogs.umtali.nonces import match_nonce
from cogs.umtali.out_of_reach import away, back_in_reach, found_away, found_back
from cogs.umtali.outbox import Batch
from cogs.umtali.permissions import reach
from cogs.umtali.refused_here import found, saved_at
from cogs.umtali.removal import owns
from data.models import Place

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


class ChannelLoss(ABC):
    service: MatchService

    @property
    def client(self) -> discord.Client:
        return self.service.client

    @abstractmethod
    async def _hand(self, live: LiveMatch, seat: int, *, announce: bool = False) -> None: ...

    @abstractmethod
    def _hand_failed(self, live: LiveMatch, seat: int, error: Exception) -> bool: ...

    @abstractmethod
    def _retry(self, live: LiveMatch, batch: Batch) -> None: ...

    @abstractmethod
    def _tried(self, live: LiveMatch, place: str, error: Exception | None) -> int: ...

    async def dm_refused(self, live: LiveMatch, seat: int) -> None:
        # Found by a panel (or a turn's DM) sent to DMs taken for open: told once. One tried
        # again while they are taken for closed is refused quietly (``dms_again``).
        await self.refusal_saved(live, seat)
        await self.refusal_said(live, seat)

    async def refusal_saved(self, live: LiveMatch, seat: int) -> None:
        """The seat's DMs refusing the bot, saved, then known to every copy here: what a send
        refused does under the seat's lock (``refused_here.sending``), before the next send
        there goes; then ``refusal_said``, outside it."""
        if not await self.service.store.set_dm_refused(live.id, seat, refused(live, seat)):
            # Saved so already: found by another copy of the match (another process's, this
            # one read before it was saved). Told by that one, unless its notice is still
            # owed as saved (failed for now, and that copy gone): ``tell_refused`` claims it.
            log.info("match %d: seat %d's DMs refuse the bot, as saved already", live.id, seat)
        live.dm_refused[seat] = True
        # For every copy here (``refused_here``).
        await saved_at(self.service, live, seat, found(self.service, live, seat))

    async def refusal_said(self, live: LiveMatch, seat: int) -> None:
        """What follows a refusal saved: the match abandoned if nobody can be told anything
        any more (its channel lost too, as saved: a copy taking it for lost may find it
        brought back), else the player told in the channel, once."""
        if live.channel_lost:
            paid(live, seat)
            if await self.service.abandon_if_unreachable(live) or \
                    not await self._back_in_channel(live):
                return
        if live.over or not await self._in_play(live):
            return  # its final panel refused: nothing left to play from My hand
        await self.tell_refused(live, seat)

    async def _back_in_channel(self, live: LiveMatch) -> bool:
        """Whether a copy taking the match's channel for lost finds it brought back to one as
        saved (``/umtali table`` through another process, the version kept): then taken, the
        player told there, not left untold (the abandon, judged as saved, did not happen).
        Unread (the database failing), it is taken to be lost still."""
        try:
            row = await self.service.store.match(live.id)
        except Exception as e:
            log.info("match %d: whether it is back in a channel could not be read (%s: %s)",
                     live.id, e.__class__.__name__, e)
            return False
        if row is None or row.status != "active" or row.channel_lost:
            return False
        async with live.lock:
            if live.channel_lost and not live.over and live.take_place(
                    Place(row.channel_id, row.table_message_id, False)):
                log.info("match %d: brought back to channel %d since this copy lost its "
                         "channel; brought up to date", live.id, live.channel_id)
        return not live.channel_lost

    async def _in_play(self, live: LiveMatch) -> bool:
        """Whether the match is still in play as saved: a copy of another process's (shown
        again as saved) may send its final panels after that process ended it. Unread (the
        database failing), it is taken to be."""
        try:
            row = await self.service.store.match(live.id)
        except Exception as e:
            log.info("match %d: whether it is still in play could not be read (%s: %s)",
                     live.id, e.__class__.__name__, e)
            return True
        return row is None or row.status == "active"

    async def tell_refused(self, live: LiveMatch, seat: int) -> None:
        """The seat's player told in the channel that their DMs refused the bot. Owed until
        posted: failing for now (raised), it is posted at the seat's next delivery (its hand
        tried again: ``Delivery._hand``), not left untold for the rest of the match. Owed
        too while the player cannot read it (left the server, or may not see its channel):
        posted once they can (``out_of_reach``)."""
        token = owe(live, seat)
        if away(self.service, live, seat):
            return  # out of reach a moment ago: asked again later (``out_of_reach``)
        store = self.service.store
        if not holds(live, seat) and not await store.claim_dm_notice(live.id, seat):
            # Told by another copy of the match (or being told): once, whichever claims it.
            log.info("match %d: seat %d's refused DMs were told already", live.id, seat)
            paid(live, seat)
            return
        hold(live, seat)
        user_id = live.player_ids[seat]
        gone = await reach(self.client, live.guild_id, live.channel_id, user_id)
        if gone in ("left", "hidden"):
            # Nobody to read it: owed until they are back, never pinged for nothing.
            log.info("match %d: seat %d's DMs refuse the bot, and %s: not told in the channel "
                     "while they cannot read it", live.id, seat,
                     "they have left the server" if gone == "left"
                     else "they may not see its channel")
            await found_away(self.service, live, seat)
            return
        if gone == "reached":
            await back_in_reach(self.service, live, seat)
        else:  # (as saved: unknown proves nothing)
            found_back(live, seat)
        channel = self.client.get_partial_messageable(live.channel_id)
        tr = self.service.public_tr(live)
        try:
            await channel.send(
                tr("{mention}, I can't send you direct messages: use the **{button}** button on "
                   "the table to see your cards and play.", mention=ping(user_id),
                   button=tr("My hand")), allowed_mentions=only(user_id),
                nonce=match_nonce(live, "dms refused", seat, token, channel.id))
        except GONE as e:
            paid(live, seat)
            await self.lose_channel(live, e, channel.id)
            if not live.channel_lost and live.channel_id != channel.id:
                # A channel the match had left (brought up to date): said where it is now.
                await store.owe_dm_notice(live.id, seat)
                await self.dm_refused(live, seat)
        except PASSING:
            # Still owed, here (posted at the seat's next delivery) and as saved: should this
            # copy go before that (a restart, the match taken), the next one tells it.
            try:
                await store.owe_dm_notice(live.id, seat)
            except Exception as failed:
                # Held here (saved as told, by the claim): this copy posts it, unclaimed.
                log.info("match %d: seat %d's refused DMs, not told, could not be saved as "
                         "owed (%s: %s)", live.id, seat, failed.__class__.__name__, failed)
            else:
                release(live, seat)
            raise
        else:
            paid(live, seat)

    async def lose_channel(self, live: LiveMatch, error: discord.HTTPException,
                           channel: int, *, turn: bool = False) -> None:
        """``channel``, where something of the match's was sent, refused the bot for good;
        unless its server removed the bot, which ends the match (``cogs.umtali.removal``):
        its players are told that, not to play on in DMs. ``turn``: what was refused
        announced a turn, which the player to act is told of in DMs instead."""
        if live.channel_lost or (not live.over and await self._server_left(live)):
            # (A match over is ended by no removal: what it still had to post is dropped as
            # for any channel lost, lest it be tried at every start.)
            return
        await self._to_dms(live, channel,
                           f"refused the bot for good ({error.status} {error.code})", turn=turn)

    async def _server_left(self, live: LiveMatch) -> bool:
        """Whether the match's server removed the bot. Known once connected (a match brought
        back at a start is sent before): Discord's READY lists every server the bot is in, and
        GUILD_DELETE takes one out. Still listed, Discord is asked all the same: the bot
        removed as a post of the match was on its way, the refusal comes before GUILD_DELETE
        is heard. A server on another process's shard is in no list of this one's: asked too
        (the process running its shard ends the match). A failure to ask is no removal."""
        client = self.client
        if owns(client, live.guild_id):
            await client.wait_until_ready()
        if not owns(client, live.guild_id) or client.get_guild(live.guild_id) is not None:
            try:
                await client.fetch_guild(live.guild_id, with_counts=False)
                return False
            except GONE:
                pass  # the bot is not in it (any more)
            except (discord.HTTPException, *PASSING):
                return False
        log.info("match %d: its channel refused the bot, which its server removed: the "
                 "removal ends the match", live.id)
        return True

    async def _to_dms(self, live: LiveMatch, channel: int, why: str, *,
                      turn: bool = False) -> None:
        if not await self.service.lose_channel(live, channel):
            return  # a channel the match had left: it is in another now
        if live.lost_over:
            # Its end's posts refused: nothing goes on. Its players are shown that end in
            # DMs instead (the table as it ended, and the reveal and ratings of its card).
            log.info("match %d: channel %d %s after the match ended: its end is shown in "
                     "direct messages", live.id, channel, why)
        else:
            log.warning("match %d: channel %d %s; the match goes on in direct messages",
                        live.id, channel, why)
        if await self.service.abandon_if_unreachable(live):
            return
        # Each player is told by a new message (it notifies), until that message is sent
        # (``live.lost_untold``, set with the loss's save).
        for seat in (0, 1):
            try:
                # The player to act, told of the loss by another process already, is still
                # told of a turn by a new panel (``owed_turn``), as in DMs.
                await self._hand(live, seat, announce=turn)
            except PASSING as e:
                if self._hand_failed(live, seat, e):
                    self._retry(live, Batch(hands={seat}))
            else:
                self._tried(live, f"seat {seat}'s DMs", None)
