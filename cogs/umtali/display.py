"""``/umtali display``: how a member's own panels look, the same on every server.

Pictures can be switched off (the text is always there, for a screen reader or a slow phone),
and the hand drawn with a four-colour deck (diamonds blue, clubs green). The public table
keeps the usual two colours: everyone at the table sees the same picture.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.hand_panels import panes, refresh_dm, refresh_pane
from cogs.umtali.in_time import answer, in_time
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.prefs import Changed
from cogs.umtali.stops import stops_line, stops_unread
from data.failing import failing_for_now
from umtali.i18n import EN, Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


def describe(pictures: bool, four_colour: bool, tr: Tr = EN) -> str:
    if not pictures:
        return tr("Your panels show your hand as text alone, without pictures.")
    if four_colour:
        return tr("Your panels show your hand as a picture, in a four-colour deck (♦ blue, "
                  "♣ green), with the text beside it.")
    return tr("Your panels show your hand as a picture, in the usual two colours, with the "
              "text beside it.")


def _picture(four_colour: bool, tr: Tr) -> str:
    """The picture a member chose, for a sentence."""
    if four_colour:
        return tr("a picture in a four-colour deck (♦ blue, ♣ green)")
    return tr("a picture in the usual two colours")


def plain_here(four_colour: bool, tr: Tr) -> str:
    """A member who chose pictures, on a server whose matches are text alone: what they will
    see here comes first (the choice said first was taken back after it), then the choice,
    which stands on other servers."""
    return tr("On this server your hand is shown as text alone: its matches have pictures "
              "off, whatever you choose. On other servers your panels show it as {picture}, "
              "with the text beside it.", picture=_picture(four_colour, tr))


def no_pictures(four_colour: bool, tr: Tr) -> str:
    """A member who chose pictures, from a bot that draws none: text alone everywhere, the
    choice kept for when it does."""
    return tr("Your hand is shown as text alone: this bot draws no pictures. Your choice is "
              "kept for when it does: {picture}.", picture=_picture(four_colour, tr))


async def set_display(interaction: discord.Interaction, pictures: bool | None,
                      four_colour: bool | None) -> None:
    svc = service(interaction.client)
    me = interaction.user.id
    now = svc.prefs.of(me)
    if pictures is not None or four_colour is not None:
        # Saved even when this process holds it already: it may not have read yet a change
        # made through another process. A write elsewhere may hold the database for seconds:
        # answered in time all the same.
        now = await in_time(interaction, svc.prefs.set_look(me, pictures=pictures,
                                                            four_colour=four_colour))
        # The hand on show changes at once, not at the next turn: in the matches held here
        # and the open "My hand" panels answered here, beside this answer (``redraw_own``);
        # in those held elsewhere, from here (even with no change seen here: it may have
        # been drawn through the other process).
        try:
            await _redraw_elsewhere(interaction, me)
        except Exception as e:
            if not failing_for_now(e):
                raise
            # Read after the look was saved: the change stands, said so, not "try again";
            # those matches show it at their next move.
            log.info("member %d's matches could not be read to redraw them (%s: %s)", me,
                     e.__class__.__name__, e)
    tr = tr_of(interaction)
    if now.pictures and not svc.pictures:
        said = no_pictures(now.four_colour, tr)
    elif now.pictures and interaction.guild_id in svc.prefs.plain_guilds:
        said = plain_here(now.four_colour, tr)
    else:
        said = describe(now.pictures, now.four_colour, tr)
    # A member's own options live here: whose challenges they stopped, too.
    try:
        stopped = await in_time(interaction, svc.store.stopped_by(me))
    except Exception as e:
        if not failing_for_now(e):
            raise
        # Read after the look was saved: the change stands, said so, not "try again".
        log.info("member %d's stops could not be read (%s: %s)", me, e.__class__.__name__, e)
        said += "\n" + stops_unread(tr)
    else:
        if stopped:
            said += "\n" + stops_line(stopped, tr)
    await answer(interaction, said)


async def _redraw_elsewhere(interaction: discord.Interaction, me: int) -> None:
    """The member's hand drawn again in their matches held by another process."""
    svc = service(interaction.client)
    for match_id in await in_time(interaction, svc.owners.leases.of_member(me)):
        live = await in_time(interaction, svc.lookup(match_id))
        seat = None if live is None else live.seat_of(me)
        if live is not None and seat is not None and not live.over and \
                svc.matches.get(live.id) is not live:
            refresh_dm(live, seat, interaction.client)


async def redraw_guild(svc: MatchService, guild_id: int) -> list[LiveMatch]:
    """The server's look (language, pictures) changed: the table and DM panels of each of its
    matches held here are drawn again at once, not at their next move; the matches so queued.
    Each through its match's delivery queue: one edit after another, a channel lost leaving
    only the DM panels (they carry the table), a failure tried again as a move's would be.
    A copy kept here of a match another process took since is left alone: drawn from here,
    it would put an older position back over the one that process shows."""
    queued = []
    for live in [m for m in svc.matches.values() if m.guild_id == guild_id and not m.over]:
        if await _held(svc, live, "the server's new look"):
            live.dm_shown = [None, None]  # the same version, drawn anew
            svc.delivery.enqueue(live, Batch(table=True, hands={0, 1}))
            queued.append(live)
    return queued


async def _held(svc: MatchService, live: LiveMatch, look: str) -> bool:
    """Whether ``live`` is still the copy of its match held here, in play (read: another
    process may have taken it since the last renewal)."""
    try:
        held = await svc.owners.leases.holder(live.id) == svc.owners.name
    except Exception as e:  # its next move shows the new look all the same
        log.warning("match %d: not redrawn in %s (%s: %s)", live.id, look,
                    e.__class__.__name__, e)
        return False
    return held and svc.matches.get(live.id) is live and not live.over


async def redraw_members(svc: MatchService, members: frozenset[int]) -> None:
    """Members' own look (language, pictures, colours, hand order) changed through another
    process (read at lease renewal): their DM panels in the matches held here, and their
    open "My hand" panels this process answered (only it has their tokens, wherever the
    match is held), drawn again now, not at the next move."""
    for live in [m for m in svc.matches.values() if not m.over]:
        seats = {s for s in (0, 1) if live.player_ids[s] in members}
        if seats and await _held(svc, live, "a player's new look"):
            for seat in seats:
                live.dm_shown[seat] = None  # the same version, drawn anew
            svc.delivery.enqueue(live, Batch(hands=seats))
    await _refresh_panes(svc, [key for key, pane in panes(svc.client).panes.items()
                               if pane.interaction.user.id in members])


async def redraw_own(svc: MatchService, user_id: int) -> None:
    """A member's own look changed through this process (``/umtali display``, a hand order
    chosen, a newly seen locale): their DM panels in the matches held here and their open
    "My hand" panels answered here drawn again now, those not shown in it yet (what the
    command drew itself is not drawn twice: ``dm_look``, ``Pane.look``). The processes
    holding their other matches redraw theirs at their next renewal (``redraw_members``)."""
    for live in [m for m in svc.matches.values() if not m.over]:
        seats = {s for s in (0, 1) if live.player_ids[s] == user_id}
        if seats and await _held(svc, live, "a player's new look"):
            # Not forced: the delivery draws again only a panel in another look than now.
            svc.delivery.enqueue(live, Batch(hands=seats))
    await _refresh_panes(svc, [key for key, pane in panes(svc.client).panes.items()
                               if pane.interaction.user.id == user_id])


def watch_member_looks(svc: MatchService) -> Callable[[int], None]:
    """A member's look changed through this process: their panels drawn again beside it,
    off the interaction's way (``redraw_own``). The listener, to be removed when the
    extension unloads."""
    def redrawn(user_id: int) -> None:
        svc.beside.start(redraw_own(svc, user_id), None, "redraw in a member's new look")
    svc.prefs.saved_listeners.append(redrawn)
    return redrawn


async def _refresh_panes(svc: MatchService, keys: list[tuple[int, int]]) -> None:
    """The open "My hand" panels known here of these (match, seat), drawn again as their
    matches are as saved (held here or not)."""
    for match_id, seat in keys:
        try:
            live = await svc.lookup(match_id)
        except Exception as e:  # its next edit shows the new look all the same
            log.warning("match %d: seat %d's open panel not redrawn in a new look (%s: %s)",
                        match_id, seat, e.__class__.__name__, e)
            continue
        if live is not None:
            await refresh_pane(svc.client, live, seat)


async def redraw_changed(svc: MatchService, changed: Changed) -> None:
    """What a lease renewal read changed through another process, drawn again: run after
    the renewal, beside it (its reads may wait on a busy database; the renewals may not)."""
    await svc.prefs.tell(changed)
    if changed.members:
        await redraw_members(svc, changed.members)


def watch_guild_looks(svc: MatchService) -> Callable[[int], Awaitable[object]]:
    """A server's look changed through another process (read at lease renewal): its matches
    held here are drawn again too. The listener, to be removed when the extension unloads."""
    async def redrawn(guild_id: int) -> None:
        queued = {live.id for live in await redraw_guild(svc, guild_id)}
        # The open "My hand" panels too, as the admin's own process does (``admin.settings``):
        # of the matches queued, and those this process answered on the server.
        await _refresh_panes(svc, [key for key, pane in panes(svc.client).panes.items()
                                   if key[0] in queued or pane.interaction.guild_id == guild_id])
    svc.prefs.look_listeners.append(redrawn)
    return redrawn
