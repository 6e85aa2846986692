"""A player's hand in their direct messages: the DM panel, edited in place as the match moves,
or sent as a new message when the player must be notified (an edit does not notify): their
turn with the match's channel lost, a warning, the note that the channel was lost."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.final_card import ratings
from cogs.umtali.live import LiveMatch, told_text
from cogs.umtali.mentions import command
from cogs.umtali.nonces import match_nonce
from cogs.umtali.outbox import Batch
from cogs.umtali.refused_here import cleared, found, known, saved_at, sending
from cogs.umtali.reminders import still_warned, turn_of
from cogs.umtali.showing import Seen
from cogs.umtali.stray_panels import replaced_after_edit, saved, strip_unsaved
from umtali.i18n import EN, N_, Tr, languages, tr_for

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


def channel_lost(tr: Tr, *, over: bool = False) -> str:
    """Told to both players in their DMs when the match's channel is lost; ``over``: the
    match ended (its end's posts refused, or the notice owed since), nothing to play on."""
    if over:
        return tr("I can no longer post in this match's channel (it was deleted, locked, or I "
                  "lost permission there), so the end of this match is shown here, with the "
                  "table as it ended.")
    # (It comes back by itself once the bot may post there again: ``channel_return``.)
    return tr("I can no longer post in this match's channel (it was deleted, locked, or I lost "
              "permission there). Play on here: the table comes with your hand. Once I may post "
              "there again, the match goes back there by itself; `{command}` in a channel "
              "brings it there at once.", command=command(tr, "umtali", "table"))


CHANNEL_LOST = channel_lost(EN)

#: The notice as sent before fix180, still on panels sent then: recognised as the notice too.
BEFORE = N_("I can no longer post in this match's channel (it was deleted, locked, or I lost "
            "permission there). Play on here: the table comes with your hand. `{command}` in "
            "another channel brings the match there.")


def tells_lost(message: discord.Message) -> bool:
    """Whether ``message`` (a panel) tells its player that the match's channel was lost, in
    any language (the player's may have changed since it was sent), in any version's words."""
    said = [message.content or "", *(e.description or "" for e in message.embeds)]
    notices = [notice for lang in languages() for notice in (
        channel_lost(tr_for(lang)),
        tr_for(lang)(BEFORE, command=command(tr_for(lang), "umtali", "table")))]
    return any(notice in text for notice in notices for text in said)


def owed_turn(live: LiveMatch, seat: int) -> bool:
    """With the match's channel lost, the seat is to act and owed a new panel telling it so
    (an edit does not notify): its turn's announcement came, and no new panel since."""
    turn = turn_of(live)
    return (live.channel_lost and not live.over and seat == live.session.to_act
            and live.dm_owed[seat] == turn and live.dm_told[seat] != turn)


def owe_at_bring_in(live: LiveMatch) -> set[int]:
    """``live`` brought into play here (a start, a take-over; or read back, a save made here
    found gone through unheard: ``Owners.after_stale``), its channel lost: the seats owed a
    new panel, as saved. The seat to act if it was not told its turn by one (``dm_told``,
    saved with the panel: its holder stopped before, or as, the panel went out, or it
    failed), and each seat not yet told that the channel was lost (``lost_untold``). One
    that went out with its id unsaved is named alike (``nonces``): given back rather than
    notifying twice."""
    if not live.channel_lost or live.over:
        return set()
    owed = set(live.lost_untold)
    seat = live.session.to_act
    if live.is_computer(seat):
        return owed
    live.dm_owed[seat] = turn_of(live)
    return owed | {seat} if owed_turn(live, seat) else owed


async def still_untold(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat is to be told now that the match's channel was lost: owed here, and
    still as saved (another process's notice told it, or this one's whose panel's save was
    refused as that process moved the match on: ``set_dm_message(lost_told=)``). Unread, the
    database failing for now, it is told: twice rather than never."""
    if seat not in live.lost_untold or not live.channel_lost:
        return False
    try:
        untold = (await svc.store.lost_untold(live.id))[seat]
    except Exception as e:
        log.info("match %d: whether seat %d was told of the lost channel could not be read "
                 "(%s: %s)", live.id, seat, e.__class__.__name__, e)
        return True
    if not untold:
        live.lost_untold.discard(seat)
    return untold


def anew(live: LiveMatch, seat: int) -> bool:
    """Whether the seat to act, given another turn's time ("keep waiting"), is to be told it
    by a new panel: with the channel lost (the correspondence DM, ``TurnNotices``, tells it
    where the channel is not lost). Its ``dm_told`` is cleared with the answer's save, so
    that a restart before the panel went out tells it too."""
    return live.channel_lost and not live.over and seat == live.session.to_act


def owe_anew(live: LiveMatch, seat: int) -> None:
    """The seat to act, given another turn's time, is told it as a turn's start is (``anew``),
    its answer saved with its ``dm_told`` cleared."""
    live.dm_owed[seat], live.dm_told[seat] = turn_of(live), None


async def send_hand(svc: MatchService, live: LiveMatch, seat: int, *, new: bool = False,
                    note: str = "", unless: Callable[[], bool] | None = None,
                    tell_turn: bool = False, named: tuple[object, ...] | None = None,
                    lost: bool = False, retry: bool = False) -> bool:
    """The seat's private hand by DM, edited in place (``new``: as a new message, which
    notifies; so too if the seat's turn is owed one, ``owed_turn``: ``tell_turn``, the turn's
    announcement, owes it once a turn, however many deliveries carry it); once refused,
    never tried again. A panel sent before whose id was never saved (the bot stopped between),
    or replaced and not yet stripped, loses its buttons then: one panel offers the moves. One
    at a time for a seat: a warning's new panel sent while a turn's is being saved would clear
    the seat's mark with that one still offering moves, and be replaced by it, the older
    message. ``unless``: not sent if true once its turn comes (a warning whose turn was
    played while it waited). ``named``: what names a new panel's nonce in place of its note,
    whose words may change between two tries of it (a warning's seconds left). ``lost``: a
    new panel whose note tells the seat the channel was lost (``lost_untold``). ``retry``: a
    new panel to DMs that refused the bot (``dms_again``), refused again quietly: whether it
    reached them."""
    # (Known here by another copy of the match, it is known by this one: ``refused_here``.)
    if (not retry and known(svc, live, seat)) or live.is_computer(seat):
        return False
    async with live.dm_locks[seat]:
        if (not retry and known(svc, live, seat)) or (unless is not None and unless()):
            # (Found closed by the send it waited for: refused, told once.)
            return False
        was = live.dm_message_ids[seat]
        if tell_turn and live.channel_lost and seat == live.session.to_act:
            live.dm_owed[seat] = turn_of(live)
        # Decided here, under the seat's lock: a send it waited for may have told the turn.
        new = new or owed_turn(live, seat)
        # Set, the seat's last send left a panel offering moves that is not its panel.
        unsaved = live.dm_sending[seat]
        looked_for = live.dm_looked_for[seat]
        stripped = await _send_hand(svc, live, seat, new=new, note=note,
                                    named=(note,) if named is None else named, lost=lost,
                                    retry=retry)
        if (unsaved or looked_for) and live.dm_message_ids[seat] is not None:
            looked = await strip_unsaved(svc, live, seat)
            stripped = looked and stripped
            if looked and looked_for:
                live.dm_looked_for[seat] = False
        if stripped and live.dm_sending[seat] and not live.dm_answering[seat]:
            # Cleared only once no panel but the seat's own offers moves: else the next
            # delivery (after a restart too) looks again. A click's answer on its way may
            # put the buttons back on the panel just replaced, after this: the bot stopping
            # before they go again (``strip_answered``), they are found at the next start.
            await saved(svc, live, seat)
        return live.dm_message_ids[seat] not in (None, was)


async def _send_hand(svc: MatchService, live: LiveMatch, seat: int, *, new: bool,
                     note: str, named: tuple[object, ...], lost: bool = False,
                     retry: bool = False) -> bool:
    """The panel sent; whether a new one that replaced another took its buttons off (else the
    seat's mark stays set)."""
    version, over, turn = live.version, live.over, turn_of(live)
    seen = svc.hand_seen(live, seat)
    if live.dm_shown[seat] == version and live.dm_look[seat] == seen and not (new or note):
        return True
    # (A warning's own panel says it: no other note comes with one.)
    note = note or still_warned(svc, live, seat, svc.clock())
    if live.channel_lost and over and not live.abandoned:
        # Ended with a result while played in DMs: the ratings the final card under the
        # table would show (a match with no result changes none).
        tr = svc.seat_tr(live, seat)
        said = f"**{tr('Ratings')}**\n{await ratings(svc, live, tr)}"
        note = "\n\n".join(filter(None, (note, said)))
    seen = svc.hand_seen(live, seat)  # (the look the panel is drawn in, as of now)
    shown = await svc.dm_panel(live, seat, note).drawn()
    channel_id, message_id = live.dm_channel_ids[seat], live.dm_message_ids[seat]
    refused_edit = False
    if channel_id is not None and message_id is not None and not new:
        dm = svc.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            await dm.get_partial_message(message_id).edit(**shown.edit())
            if not await replaced_after_edit(svc, live, seat, message_id, dm):
                _shown(svc, live, seat, (version, over, seen), message_id)
            return True
        except GONE:
            if live.dm_message_ids[seat] != message_id:
                # A new message took the panel's place meanwhile (and took this one away):
                # that one is edited, rather than a third sent.
                _shown(svc, live, seat, (version, over, seen), message_id)
                return True
            # Deleted, or DMs closed since: a new message says whether they are.
            refused_edit = True
    user_id = live.player_ids[seat]
    # A new panel of the seat whose turn it shows notifies: it tells that turn (``dm_told``).
    telling = new and not over and seat == turn[3]
    # One new message at a time to the seat from this process, whichever copy sends it: one
    # refused is known to the next before it goes (review105: two copies' new panels, each
    # after its edit was refused, held up together behind Discord's retries, both refused:
    # the soak's seed 2229).
    refused = False
    async with sending(svc, live, seat):
        if await svc.owners.played_past(live):
            # Another process moved the match on as this delivery went out (a call of it held
            # up): sent, the panel would notify a turn played already (its holder tells its
            # own, and finds closed DMs itself). Only brought elsewhere, at this turn, it is
            # sent: that process tells it nothing.
            return False
        if refused_edit and not retry and await _refused_as_saved(svc, live, seat):
            # Found closed meanwhile by another copy (this process's, or another's, which
            # saved it): a new message would be refused once more (the soak's seed 1173,
            # review101).
            await svc.delivery.refusal_saved(live, seat)
            refused = True
        elif not retry and known(svc, live, seat):
            # Found closed by another copy here as this one waited, its notice claimed by this
            # copy's delivery (``ChannelLoss.tell_refused``), as a send found closed at once.
            return False
        else:
            try:
                user = svc.client.get_user(user_id) or await svc.client.fetch_user(user_id)
                if channel_id is not None and message_id is not None and not new:
                    shown = await svc.dm_panel(live, seat, note).drawn()  # files read
                if not live.dm_sending[seat]:
                    # Saved before it is sent: should the bot stop before its id is saved, the
                    # panel is found and stripped of its buttons once it is back
                    # (``strip_unsaved``).
                    await svc.store.set_dm_sending(live.id, seat, True)
                    live.dm_sending[seat] = True
                live.dm_in_flight[seat] = True
                try:
                    # Named (``nonces``): sent again after its answer was lost, it is not doubled.
                    message = await user.send(**shown.send(), nonce=match_nonce(
                        live, "panel", seat, version, *named, message_id))
                    saved = await svc.store.set_dm_message(
                        live.id, seat, message.channel.id, message.id, at_version=version,
                        owner=svc.owners.name, told=told_text(turn) if telling else None,
                        lost_told=lost and new, reopened=retry)
                finally:
                    live.dm_in_flight[seat] = False
            except GONE:
                if retry:
                    # Still closed: as saved, and told when first found (``dms_again``).
                    log.info("match %d: seat %d's DMs still refuse the bot", live.id, seat)
                    await saved_at(svc, live, seat, found(svc, live, seat))
                    return False
                # Saved, then known to every copy here, before the next copy's send goes (under
                # this lock: memory never ahead of the database, a failed save finding it again);
                # the notice in the channel, perhaps slow, outside it.
                await svc.delivery.refusal_saved(live, seat)
                refused = True
    if refused:
        await svc.delivery.refusal_said(live, seat)
        return False
    if not saved:
        # Another process moved the match on while this panel was sent (a turn played through
        # it, which edits the panel it knows), or saved a newer panel (the new holder's own,
        # the match taken as this one went out): this one, never the panel, offers nothing,
        # and this copy's next delivery finds it fell behind, or takes the newer one.
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await message.edit(view=None)
        svc.delivery.enqueue(live, Batch(hands={seat}))
        return False
    if retry:
        live.dm_refused[seat] = False  # cleared with the panel's id (``dms_again``)
        cleared(svc, live, seat)
    replaced = live.dm_message_ids[seat] if new else None
    if replaced == message.id:
        # This very panel, taken meanwhile (a click on it reaching another process, read
        # back by a delivery here: ``Owners.fell_behind``): it replaced the one known as it
        # was sent.
        replaced = message_id
    if telling:
        live.dm_told[seat] = turn  # a new panel notified the player whose turn it is
    if lost and new:
        live.lost_untold.discard(seat)
    live.dm_channel_ids[seat] = message.channel.id
    live.dm_message_ids[seat] = message.id
    svc.delivery.replaced_here(live, seat)
    _shown(svc, live, seat, (version, over, seen), message.id)
    if replaced is not None and replaced != message.id:
        # One panel to play on: the one it replaced, left as it was, would go on offering
        # the moves of an earlier position. Kept, as what was said, without them. Until they
        # are gone the seat stays marked as sending (saved before the new one was sent): the
        # bot stopping here, or Discord failing for now, the next delivery to the seat looks
        # through the DM and takes them off (``strip_unsaved``).
        old = svc.client.get_partial_messageable(message.channel.id,
                                                 type=discord.ChannelType.private)
        try:
            await old.get_partial_message(replaced).edit(view=None)
        except GONE:
            pass  # deleted, or the DMs closed: nothing on it to press
        except (discord.HTTPException, *PASSING):
            return False
    return True


async def _refused_as_saved(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat's DMs are known here, or saved, to refuse the bot; unread (the
    database failing), taken not to be (the new message says)."""
    if known(svc, live, seat):
        return True
    try:
        row = await svc.store.match(live.id)
    except Exception as e:
        log.info("match %d: whether seat %d's DMs refuse the bot could not be read (%s: %s)",
                 live.id, seat, e.__class__.__name__, e)
        return False
    return row is not None and row.dm_refused[seat]


def _shown(svc: MatchService, live: LiveMatch, seat: int,
           drawn: tuple[int, bool, Seen], message_id: int) -> None:
    """The seat's panel (``message_id``) now shows the match as ``drawn`` (its version,
    whether over, and the look it was drawn in: ``dm_look``), unless the match
    moved on or ended while it was drawn or sent (an ending keeps the version, and its own
    edit must not be skipped), or another message took the panel's place meanwhile (a
    warning's new message, sent outside the delivery): then the panel is sent again, lest
    the later edit be lost to this one or made to a message no longer the panel."""
    version, over, seen = drawn
    if live.over == over and live.version == version and \
            live.dm_message_ids[seat] == message_id:
        live.dm_shown[seat], live.dm_look[seat] = version, seen
        return
    live.dm_shown[seat] = None
    svc.delivery.enqueue(live, Batch(hands={seat}))
