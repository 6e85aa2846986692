"""``/umtali table``: the live table posted again, or a snapshot.

A match has one live table, the message that is edited with every turn and carries the
buttons. Only a player of the match can move it: in the match's own channel (the old one was
buried or deleted), or, when the match's channel was lost, in any channel the opponent can
see too. Anyone else, a player asking elsewhere, and a player who may not write where they ask
(a read-only channel, where Discord lets them run commands all the same), gets a private
snapshot saying where the live table is.

The lookups may wait on a busy database: answered within Discord's 3 seconds (``in_time``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.board_posts import may_post
from cogs.umtali.channel_return import posted_here
from cogs.umtali.durations import wait_seconds
from cogs.umtali.failures import PASSING, UNKNOWN_MESSAGE
from cogs.umtali.in_time import answer, in_time, post_public, thinking
from cogs.umtali.judged import judged_deadline
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.names import member_name
from cogs.umtali.panels import table_panel
from cogs.umtali.permissions import missing_here, not_in_thread, refusal, sees
from cogs.umtali.retiring import table_link
from cogs.umtali.service import MatchService
from cogs.umtali.showing import table_of
from cogs.umtali.table_doubts import doubted
from cogs.umtali.time_out import ask_again_if_deleted
from cogs.umtali.under_way import failed
from umtali.i18n import EN, Tr

log = logging.getLogger(__name__)

#: Seconds within which a player's table is not posted again in its own channel: each post is
#: a new public message (the old one edited to point at it), and a minute holds a move or two.
#: A table scrolled out of sight that soon is a click away through the link the refusal gives.
TABLE_AGAIN = 60.0
#: Seconds a live table found still there (held back by the limit) is taken to be there
#: without looking again: one request to Discord, not one each time a player asks.
SEEN_FOR = 10.0


def snapshot_note(live: LiveMatch, tr: Tr = EN) -> str:
    if live.channel_lost or live.table_message_id is None:
        return tr("A snapshot: this match is played in direct messages for now.")
    return tr("A snapshot, not kept up to date: here is [the live table]({link}).",
              link=table_link(live))


async def post_table(interaction: discord.Interaction) -> None:
    assert interaction.guild is not None
    svc = service(interaction.client)
    tr = tr_of(interaction)
    # Asked of the database, which may be busy: past two seconds the command is deferred.
    mine = await in_time(interaction, svc.member_match(interaction.guild.id, interaction.user.id))
    here = None
    if mine is None and interaction.channel_id is not None:
        here = await in_time(interaction, svc.channel_match(interaction.channel_id))
    live = mine or here
    if live is None:
        await answer(interaction, tr("There is no match here, and you are not playing one."))
        return
    movable = live is mine and (live.channel_lost or live.channel_id == interaction.channel_id)
    if not movable or not may_post(interaction):
        note = snapshot_note(live, tr)
        if movable:
            # A read-only channel stays so: the table comes privately, as boards and stats do.
            note = tr("You can't send messages in this channel, so the table is not posted "
                      "again here.") + " " + note
        # A snapshot is for the member's eyes alone: in their language, picture and all; its
        # turn ending as the live table says it (time owed, the clocks standing still).
        look = dataclasses.replace(svc.table_look(live), tr=tr)
        shown = await table_of(live, note, look, snapshot=True,
                               judged=judged_deadline(svc, live, svc.clock())).drawn()
        if thinking(interaction):
            await interaction.edit_original_response(**shown.edit())
        else:
            await interaction.response.send_message(**shown.send(), ephemeral=True)
        return
    # In the match's own channel the table goes as text where the bot may no longer attach
    # its picture (an admin took Attach Files away during the match), as at every move.
    if missing := missing_here(interaction, files=live.channel_lost):
        await answer(interaction, refusal(missing, tr))
        return
    if closed := await in_time(interaction, not_in_thread(interaction)):
        await answer(interaction, closed)
        return
    if live.channel_lost and (hidden := await in_time(interaction, _hidden_from(interaction,
                                                                             live))):
        # Its turns, pings and all, would be announced where the opponent never looks.
        await answer(interaction, tr("{name} can't see this channel: bring the table to a "
                                     "channel you both can see.", name=hidden))
        return
    noted = None
    if not live.channel_lost:
        # Posted again in its own channel: each post is a new public message, so no more
        # often than ``TABLE_AGAIN`` (kept in the database: any process may answer).
        noted = await _turn_to_post(interaction, svc, live)
        if noted is None:
            return
    await _posted(interaction, live, noted)


async def _turn_to_post(interaction: discord.Interaction, svc: MatchService,
                        live: LiveMatch) -> float | None:
    """When this post was noted against the limit (``note_table_posted``); None if it is
    held back, the member answered. Held back by a post under way here, the member waits for
    its outcome (``under_way``): failed, it was taken back, and this one may go."""
    tr = tr_of(interaction)
    waits = 3  # (posts failing one after another: the last is not waited for)
    while True:
        noted = svc.clock()
        wait, last = await in_time(interaction, svc.store.note_table_posted(
            live.id, live.channel_id, noted, TABLE_AGAIN))
        if wait <= 0:
            return noted
        waits -= 1
        posted = await _outcome(interaction, svc, live) if waits else None
        gone: bool | None = False
        if posted is None and not svc.tables_under_way.busy(live.id):
            gone = await in_time(interaction, _gone(interaction, svc, live, last, noted))
            if gone:
                return noted
            if gone is None and waits:
                # Found deleted by the other player too, whose post was noted first: if it is
                # under way here, its outcome.
                posted = await _outcome(interaction, svc, live)
        if posted is False:
            continue  # (taken back: noted again)
        # (its outcome taken now: by the time the answer below went, it may have ended)
        pending = svc.tables_under_way.pending(live.id)
        if posted is None and (gone is None or pending is not None):
            if gone is None:
                # The link not yet known here (nor a wait: it counts from that post).
                await answer(interaction, tr("The live table was deleted, and is being posted "
                                             "again right now: if it does not appear in a "
                                             "moment, ask again."))
            else:
                await answer(interaction, tr("The table is being posted again right now: if "
                                             "it does not appear in a moment, ask again."))
            if pending is not None:
                # Past the wait, here: followed to its end. (Another process's is not known
                # here: a server's commands reach one process, unless its shard moved.)
                svc.beside.start(_told_if_failed(interaction, pending), live.id,
                                 "word of a table's post that failed")
            return None
        # (less the time waited since it was measured: for the outcome, for the database)
        left = wait - max(0.0, svc.clock() - noted)
        await answer(interaction, tr.plural(
            "The table was posted again a moment ago: here is [the live table]({link}). You "
            "can post it again in {count} second.",
            "The table was posted again a moment ago: here is [the live table]({link}). You "
            "can post it again in {count} seconds.", wait_seconds(left),
            link=table_link(live)))
        # What the player may have come for all the same: the question beside the table,
        # deleted since it was asked, is asked again.
        await ask_again_if_deleted(svc, live)
        return None


async def _told_if_failed(interaction: discord.Interaction,
                          pending: asyncio.Future[bool]) -> None:
    """The post the member was told was on its way (``pending``, its outcome), followed to its
    end: told if it failed."""
    if await failed(pending):
        tr = tr_of(interaction)
        await interaction.followup.send(tr("The table that was being posted again could not "
                                           "be posted: ask again."), ephemeral=True)


async def _outcome(interaction: discord.Interaction, svc: MatchService,
                   live: LiveMatch) -> bool | None:
    """The outcome of the table's post under way here (``UnderWay.outcome``)."""
    return await in_time(interaction, svc.tables_under_way.outcome(live.id))


async def _posted(interaction: discord.Interaction, live: LiveMatch,
                  noted: float | None) -> None:
    """Post the live table of ``live`` in the interaction's channel, and move the match
    there (from the table before, or from its lost channel). ``noted``: when this post was
    noted against the limit (``note_table_posted``), taken back if it fails. Under way
    (``tables_under_way``) until it is saved, or taken back: a member held back by it waits
    for that."""
    svc = service(interaction.client)
    with svc.tables_under_way.posting(live.id):
        await _post(interaction, svc, live, noted)


async def _post(interaction: discord.Interaction, svc: MatchService, live: LiveMatch,
                noted: float | None) -> None:
    try:
        table = await svc.table_message(live).drawn()
        message = await post_public(interaction, **table.send(),
                                    view=table_panel(live.id, svc.public_tr(live)),
                                    allowed_mentions=NO_MENTIONS)
    except BaseException:
        # (the bot stopping too: the player may post it at once when it is back)
        await _unnote(svc, live, noted)
        raise
    try:
        await posted_here(svc, live, message)
    except Exception:
        await _unnote(svc, live, noted)
        raise


async def _gone(interaction: discord.Interaction, svc: MatchService, live: LiveMatch,
                last: float, now: float) -> bool | None:
    """Whether the live table, held back by the post noted at ``last``, was deleted since (a
    moderator, a player): then the limit does not hold it back, and this post is noted at
    ``now`` instead (once: None if another post was noted first, the other player's who found
    it gone too). The bot hears of no deletion (no message events): it looks, unless it
    looked less than ``SEEN_FOR`` ago (then once that time is over: ``table_doubts``). Unknown
    (Discord failing): False, held."""
    table = live.table_message_id
    if table is None:
        return False
    # (on the process's steady clock: kept here alone, a wall clock set forward would end it)
    seen, ticks = live.table_seen, svc.ticks()
    if seen is not None and seen[0] == table and 0 <= ticks - seen[1] < SEEN_FOR:
        # Not looked at: looked at once that time is over, and the member told if it was gone.
        doubted(svc, live, table, seen[1] + SEEN_FOR, interaction)
        return False
    message = svc.client.get_partial_messageable(live.channel_id).get_partial_message(table)
    try:
        await message.fetch()
        live.table_seen = table, ticks
        return False
    except (discord.HTTPException, *PASSING) as e:
        if not isinstance(e, discord.NotFound) or e.code != UNKNOWN_MESSAGE:
            log.info("match %d: whether its live table is still there is unknown (%s)",
                     live.id, e)
            return False
    if await svc.store.note_table_gone(live.id, live.channel_id, table, last, now):
        return True
    return None


async def _unnote(svc: MatchService, live: LiveMatch, noted: float | None) -> None:
    """The post noted at ``noted`` is not there (not posted, or not known to be; or taken
    down): the player may try again at once rather than wait on a table they never saw."""
    if noted is not None:
        with contextlib.suppress(Exception):  # (the database failing: a minute's wait at most)
            await svc.store.unnote_table_posted(live.id, noted)


async def _hidden_from(interaction: discord.Interaction, live: LiveMatch) -> str | None:
    """The name of the member playing ``live`` with the user if they cannot see the
    interaction's channel; None if they can, or if that cannot be known (they left the
    server: they see none of its channels, and the match goes on by DM all the same)."""
    seat = live.seat_of(interaction.user.id)
    channel = interaction.channel
    if seat is None or live.is_computer(1 - seat) or interaction.guild is None or \
            channel is None:
        return None
    try:
        # Fetched: the bot is given no member list (no members intent).
        member = await interaction.guild.fetch_member(live.player_ids[1 - seat])
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: the opponent's access to channel %d is unknown (%s)", live.id,
                 channel.id, e)
        return None
    return None if sees(channel, member) else member_name(member)
