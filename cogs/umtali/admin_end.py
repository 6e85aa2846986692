"""An admin ends a match with no result (``/umtali-admin end-match``), chosen by a member who
plays it or by its number (its players may have left the server, out of the member picker's
reach): a match nobody can finish (a player who never comes back to a match with no clock), or
one no code can read (a bug, a bad migration, a hand-edited row) whose players every command
would otherwise keep in it for ever. Saved as abandoned, with the admin who ended it
(``matches.ended_by``): history, the deals file and the panels say an admin ended it.

Ended as an abandoned match is (no winner, no rating, its seed revealed once dealt: ``Endings
.abandon``) when its copy can be read; else by its id alone (``Store.abandon_match``, which
reads no state), with nothing revealed. Either way the save is guarded on the match being in
play: a move or a resignation saved first wins, and the admin is told it was over already.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import PASSING
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.names import record_name, safe_name
from cogs.umtali.question import Question
from cogs.umtali.unheard import InDoubt, settled
from data.failing import failing_for_now
from data.models import MatchRow
from umtali.i18n import N_

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: On the DM panels of a match that could not be read.
ENDED = N_("An admin ended this match: no result.")
#: Posted in the match's channel: which admin, as a fair table would be told.
ENDED_BY = N_("An admin, {admin}, ended this match: no result.")


@dataclass(frozen=True, slots=True)
class Ended:
    """A match the admin ended, as needed to tell its players."""

    match_id: int
    guild_id: int
    channel_id: int
    channel_lost: bool
    #: Its state could not be read: ended by its id, its DM panels left to edit here (a match
    #: read has them redrawn by its delivery, as any ending's).
    unread: bool
    player_ids: tuple[int, int]
    #: By seat: the DM channel and panel message to edit (None: none, or the computer's seat).
    panels: tuple[tuple[int, int] | None, ...] = ()
    #: The channel and message of each other control of an unread match to take off (its
    #: table's **My hand**, a time-up question's buttons), which no delivery will redraw.
    stripped: tuple[tuple[int, int], ...] = ()


#: The largest match number a database holds (a 64-bit id): above, no match, and a number
#: PostgreSQL would refuse to compare.
LARGEST = 2**63 - 1


def match_number(typed: str) -> int | None:
    """The match number an admin typed or chose ("123", "#123"); None if it is none."""
    text = typed.strip().removeprefix("#").strip()
    if not text.isascii() or not text.isdigit():
        return None  # (isdigit alone takes "²" and other digits int() refuses)
    number = int(text)
    return number if 0 < number <= LARGEST else None


async def to_end(svc: MatchService, guild_id: int, admin_id: int, *,
                 member_id: int | None = None,
                 match_id: int | None = None) -> MatchRow | str | None:
    """The match ``end_match`` would end, as saved (its columns alone: no state is read, so
    an unreadable match is found too), or why none: None, "over", "own", as it says. Asked
    before the admin confirms, and again by ``end_match`` at the click."""
    if member_id is not None:
        match_id = await svc.store.active_match_of(guild_id, member_id)
    if match_id is None:
        return None
    row = await svc.store.match(match_id)
    if row is None or row.guild_id != guild_id:
        return None
    if row.status != "active":
        return "over"
    if admin_id in row.player_ids and row.computer_seat is None:
        # An admin losing their own rated match would end it unrated: they resign, as any
        # player (a practice match is rated for nobody).
        return "own"
    return row


async def end_match(svc: MatchService, guild_id: int, admin_id: int, *,
                    member_id: int | None = None, match_id: int | None = None,
                    notice: str = "") -> Ended | str | None:
    """End, with no result, the match on the server of the member ``member_id`` or the one
    numbered ``match_id`` (one of them): what was ended; None if the member has none in play,
    or no such match is in play on this server (another server's is not this admin's);
    "over" if it ended meanwhile (whoever saved first); "own" if the admin plays it, rated.
    A failed save raises, nothing changed (memory as the database has it); ``InDoubt`` if
    whether it went through could not be read back. ``admin_id``: who ends it, saved with
    the ending. ``notice``: what its channel is told (``notice_of``), saved with the ending
    after the lines of a turn in progress, when its state is read (else ``tell_ended``
    posts it)."""
    found = await to_end(svc, guild_id, admin_id, member_id=member_id, match_id=match_id)
    if not isinstance(found, MatchRow):
        return found
    match_id = found.id
    try:
        live = await svc.lookup(match_id)
    except Exception as e:
        if failing_for_now(e):
            raise  # the database: nothing would be saved by its id either
        # Read through the engine, it fails (for good, or at every bring-in): ended by its id.
        log.warning("match %d could not be read (%s: %s); an admin ends it by its id",
                    match_id, e.__class__.__name__, e)
        return await _end_unread(svc, match_id, admin_id)
    if live is None or not await svc.abandon(live, ended_by=admin_id, said=notice):
        return "over"
    svc.owners.claims.forget(match_id)  # (the end's log line names the admin: ``log_end``)
    return Ended(match_id, live.guild_id, live.channel_id, live.channel_lost, False,
                 live.player_ids)


async def _end_unread(svc: MatchService, match_id: int, admin_id: int) -> Ended | str:
    row = await svc.store.match(match_id)  # its columns alone: no state is read
    if row is None or row.status != "active":
        return "over"
    # This process holds it from now on, as an abandon's does: another that held a copy (or
    # kept it claimed, unsettled) lets it go at its next renewal.
    # An answer lost after the COMMIT is settled by reading the match back (``unheard``).
    if await settled(f"match {match_id}: ended by an admin", svc.store.abandon_match(
            match_id, "abandoned", svc.clock(), owner=svc.owners.name,
            lease_until=svc.owners.until(), ended_by=admin_id),
            lambda: svc.owners.leases.ended_as(match_id, "abandoned")) is None:
        return "over"
    held = svc.matches.get(match_id)
    if held is not None:
        # (brought in meanwhile, after the failed read): over, and freed with its timers
        held.abandoned, held.ended, held.deadline = True, "abandoned", None
        held.ended_by = admin_id
        svc.forget(held)
    svc.owners.claims.forget(match_id)
    log.info("match %d (unreadable) ended with no result by server admin %d", match_id,
             admin_id)
    panels = tuple(
        None if row.computer_seat == seat or channel is None or message is None
        else (channel, message)
        for seat, (channel, message) in enumerate(zip(row.dm_channel_ids, row.dm_message_ids,
                                                      strict=True)))
    return Ended(match_id, row.guild_id, row.channel_id, row.channel_lost, True, row.player_ids,
                 panels, _controls(row))


def _controls(row: MatchRow) -> tuple[tuple[int, int], ...]:
    """Where an unread match's table and time-up question are, their buttons to take off
    (review153: left on, each click answered "something went wrong")."""
    found = [] if row.channel_lost or row.table_message_id is None else \
        [(row.channel_id, row.table_message_id)]
    try:
        asked = Question.loads(row.question)
    except Exception:
        asked = None  # (as unreadable as the state may be: the table's alone then)
    if asked is not None:
        found.append((asked.channel_id, asked.message_id))
    return tuple(found)


def database_failed(e: BaseException) -> bool:
    """Whether ``e`` is the database failing for now (its outcome unknown too), not a bug."""
    return failing_for_now(e) or (isinstance(e, InDoubt) and e.__cause__ is not None
                                  and failing_for_now(e.__cause__))


async def tell_ended(svc: MatchService, ended: Ended, admin: discord.abc.User) -> None:
    """The channel told the match ended, by ``admin``, and (read or not) the players' DM
    panels: best effort, each failure said at INFO (a channel gone, DMs closed: nothing to
    mend)."""
    client = svc.client
    # (A match read announces it with its ending, after its turn's lines: ``end_match``.)
    if not ended.channel_lost and ended.unread:
        line = notice_of(svc, ended.guild_id, admin)
        await _quietly(ended.match_id, "the channel's notice", client.get_partial_messageable(
            ended.channel_id).send(line, allowed_mentions=NO_MENTIONS))
    for channel_id, message_id in ended.stripped:
        await _quietly(ended.match_id, f"the buttons of message {message_id}",
                       client.get_partial_messageable(channel_id).get_partial_message(
                           message_id).edit(view=None))
    for seat, panel in enumerate(ended.panels):
        if panel is None:
            continue
        channel, message = panel
        text = svc.prefs.member_tr(ended.player_ids[seat])(ENDED)
        await _quietly(ended.match_id, f"seat {seat}'s DM panel",
                       client.get_partial_messageable(channel).get_partial_message(
                           message).edit(content=text, view=None))


def notice_of(svc: MatchService, guild_id: int, admin: discord.abc.User) -> str:
    """What a match's channel is told of ``admin``'s ending, in the channel's words."""
    tr = svc.prefs.guild_tr(guild_id)
    # (A name that shows nothing reads as the records read it, in the channel's words.)
    return tr(ENDED_BY, admin=safe_name(record_name(admin.display_name, admin.id, tr)))


async def _quietly(match_id: int, what: str, sending: Awaitable[object]) -> None:
    try:
        await sending
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: %s of the admin's ending was not sent (%s)", match_id, what, e)
