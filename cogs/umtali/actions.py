"""Answering a player's action: from a button, a menu or ``/umtali play``.

Bad input, a move out of turn, someone else's button, a stale panel: each gets a short
ephemeral answer and changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.arrange import HandOrder
from cogs.umtali.errors import expired
from cogs.umtali.failures import PASSING
from cogs.umtali.hand_panels import (
    after_move,
    is_dm_panel,
    pane_clock,
    panes,
    refresh_dm,
    refresh_pane,
    show_panel,
)
from cogs.umtali.in_dms import tells_lost
from cogs.umtali.in_time import answer, arrived, edit_clicked, in_time
from cogs.umtali.live import LiveMatch, told_text
from cogs.umtali.names import MAX_ECHO, QUOTED, as_typed, echo, safe_text, visible
from cogs.umtali.outbox import Batch
from cogs.umtali.reminders import still_warned, turn_of
from cogs.umtali.stray_panels import moves_of, shows, strip_answered
from cogs.umtali.unknown import OUT_OF_DATE
from umtali.errors import InvalidMoveError
from umtali.i18n import sentence
from umtali.moves import NOTATION_HELP, TYPED_HELP, Move, typed

log = logging.getLogger(__name__)


async def ephemeral(interaction: discord.Interaction, text: str) -> None:
    await answer(interaction, text)


async def live_of(interaction: discord.Interaction, match_id: int,
                new_message: bool = False) -> LiveMatch | None:
    # Wherever the match is held: the click may reach any process. Asked of the database,
    # which may be busy: the answer is deferred if the lookup and the move take long
    # (``new_message``: the answer is a new panel, not an edit of the one clicked).
    return await in_time(interaction, service(interaction.client).lookup(match_id),
                         new_message=new_message)


async def show_hand(interaction: discord.Interaction, match_id: int, note: str = "") -> None:
    live = await live_of(interaction, match_id, new_message=True)
    tr = tr_of(interaction)
    if live is None or live.over:
        await ephemeral(interaction, tr("This match is over."))
        return
    seat = live.seat_of(interaction.user.id)
    if seat is None:
        await ephemeral(interaction,
                         tr("This is not your match: only its two players have hands."))
        return
    await show_panel(interaction, live, seat, note)


async def play_text(interaction: discord.Interaction, match_id: int, text: str,
                    version: int | None = None, typed_by_hand: bool = False) -> None:
    """Play the move ``text`` names: a panel's value in the notation, or (``typed_by_hand``)
    a move the member typed, where a last card goes face down unless they say ``up`` and a
    card's look-alike letters are read in the member's language (``umtali.letters``)."""
    tr = tr_of(interaction)
    # The engine quotes a move it cannot read with repr(), where a hidden character (a
    # zero-width space, a bidi isolate) takes six to ten: it reads only what shows.
    shown = visible(text)
    if len(shown) > MAX_ECHO:
        # No move is this long, and the engine's answer would quote it all (past Discord's
        # 2,000 characters): answer with the start of it.
        await ephemeral(interaction, tr("“{text}” is not a move. Moves: {moves}.", text=echo(text),
                                         moves=tr(TYPED_HELP if typed_by_hand else NOTATION_HELP)))
        return
    try:
        move, default_side = typed(shown, tr.lang) if typed_by_hand else \
            (Move.parse(shown), False)
    except InvalidMoveError as e:
        said = e.text
        if "text" in said.params:
            # The engine quotes what it could not read: shown as typed (no escapes of a
            # string literal), as text, not markdown.
            said = replace(said, params={**said.params,
                                         "text": tr(QUOTED, text=safe_text(
                                             as_typed(str(said.params["text"]))))})
        await ephemeral(interaction, sentence(tr(said)))
        return
    await play_move(interaction, match_id, move, version, default_side)


def private_panel(interaction: discord.Interaction) -> discord.Message | None:
    """The message clicked, if only the user sees it (an ephemeral panel, or one in their
    DMs): an answer edits no other. A panel's id on a public message (forged: anyone can send
    any custom id to a bot's message) is answered on a private panel of its own."""
    message = interaction.message
    if message is None or not (message.flags.ephemeral or interaction.guild_id is None):
        return None
    return message


async def _replaced_panel(interaction: discord.Interaction, live: LiveMatch,
                          seat: int) -> bool:
    """Whether the message clicked is a panel in the seat's DMs that is not its DM panel (one
    sent as the bot stopped, its id never saved; one replaced whose buttons could not be taken
    off): then answered, nothing changed, and its buttons taken off once a later panel is
    saved. A new panel whose id is on its way (``dm_in_flight``; in another process,
    ``dm_sending``) is the panel, and so is one replaced only after the click was made."""
    message = interaction.message
    if interaction.guild_id is not None or message is None or message.flags.ephemeral:
        return False
    panel = live.dm_message_ids[seat]
    if message.id == panel or (live.dm_in_flight[seat] and (panel is None or message.id > panel)):
        return False
    if await _saved_since(interaction, live, seat, message):
        return False
    if await _on_its_way(interaction, live, seat, message):
        return False
    panel = live.dm_message_ids[seat]  # (a newer one saved meanwhile: ``_on_its_way``)
    # (Over, the match is not as the panel shows it, whose version an ending keeps: refused,
    # and its buttons taken off below.)
    if panel is not None and message.id < panel and not live.over and shows(message, live):
        # A panel replaced by a newer one but still offering the match as it is: clicked
        # before the newer panel was sent (ids are times), or after it, the buttons put back
        # on it meanwhile (a click's answer from a process that did not know of the newer
        # panel). The move is the turn's as it is: played there, rather than refused to a
        # member who pressed the buttons shown; the answer then takes them off again
        # (``_answer_on_panel``), the newer panel offering the rest.
        return False
    tr = tr_of(interaction)
    if live.over:
        said = tr("This match is over.")
    elif panel is not None and message.id > panel:
        # Sent after the panel in play and never saved: that one is above it.
        said = tr("That panel is not the one in play: play on the one above it in these "
                  "messages.")
    else:
        said = tr("That panel was replaced by a newer one in these messages: play on that one.")
    await ephemeral(interaction, said)
    # Only a hand panel's (an id forged onto another message, a question, takes nothing off).
    if panel is not None and message.id < panel and moves_of(message, live.id):
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await message.edit(view=None)
    elif live.dm_sending[seat] and (svc := service(interaction.client)).matches.get(
            live.id) is live:
        # Its process stopped between sending it and saving its id, and this match came back
        # with no restart here (taken over, or that save failed): the seat's delivery (where
        # the match is held) looks through the DM and takes its buttons off (``stray_panels``), a
        # newer panel sent if none was saved.
        svc.delivery.enqueue(live, Batch(hands={seat}))
    return True


async def _saved_since(interaction: discord.Interaction, live: LiveMatch, seat: int,
                       message: discord.Message) -> bool:
    """Whether ``message`` is the seat's panel as saved since this copy was read: another
    process sent and saved it (one not holding the match shows it again as saved, after a
    delivery of its overtaken), and this copy, the holder's too, never read it. Taken here
    (the older one looked for and stripped). Read only for a click on a panel not known as
    the seat's: a rare click."""
    try:
        # (Within Discord's 3 seconds: a busy database defers the click, ``in_time``.)
        saved = await in_time(interaction, service(interaction.client).owners.leases.shown(
            live.id))
    except Exception as e:  # the database failing for now: judged on what is known here
        log.info("match %d: the panels as saved could not be read (%s: %s)", live.id,
                 e.__class__.__name__, e)
        return False
    if saved is None or saved.panels[seat].message_id != message.id:
        return False
    live.take_newer_panel(seat, saved.panels[seat])
    return live.dm_message_ids[seat] == message.id


async def _on_its_way(interaction: discord.Interaction, live: LiveMatch, seat: int,
                      message: discord.Message) -> bool:
    """Whether ``message``, newer than the seat's saved panel, is the panel another process
    holding the match has sent and is saving the id of (``dm_sending``; or that process
    stopped between): then saved as the seat's panel here too, as that process would save it
    (a member clicks as soon as it comes; the save may wait on a busy database). The process
    holding the match knows its own panels on their way (``dm_in_flight``); one it finds
    unsaved (this process, or the one before a restart, stopped or failed before saving its
    id) is taken too if it shows the match as it is, in play: sent again, the panel's nonce
    would bring that very message back as the seat's panel, the player told meanwhile to
    play on the one above it, which then loses its buttons."""
    svc = service(interaction.client)
    panel = live.dm_message_ids[seat]
    held = svc.matches.get(live.id) is live
    # (Over, the match is not as the panel shows it, whose version an ending may keep: the
    # seat's delivery strips it, as any other panel unsaved.)
    if not live.dm_sending[seat] or (held and (live.over or not shows(message, live))) or (
            panel is not None and message.id < panel) or not moves_of(message, live.id):
        return False
    # A new panel of the turn as it is, to the seat to act, told it that turn (as its
    # process would have saved: ``in_dms``), lest a bring-in of the match tell it again.
    turn = turn_of(live)
    telling = live.channel_lost and not live.over and seat == turn[3] and shows(message, live)
    # The lost channel's notice (``Delivery._hand``): the seat was told, lest it be again.
    lost = live.channel_lost and tells_lost(message)
    saved = await in_time(interaction, svc.store.take_dm_message(
        live.id, seat, message.channel.id, message.id,
        told=told_text(turn) if telling else None, lost_told=lost))
    if saved is None or saved.message_id != message.id:
        # A newer panel was saved meanwhile (a reminder's): the seat's, below the one clicked.
        if saved is not None:
            live.take_newer_panel(seat, saved)
        return False
    if telling:
        live.dm_told[seat] = turn
    if lost:
        live.lost_untold.discard(seat)
    live.dm_channel_ids[seat], live.dm_message_ids[seat] = message.channel.id, message.id
    if held:
        # The panel saved before it still offers moves: the seat's delivery looks through
        # the DM (the mark is set) and takes them off.
        svc.delivery.enqueue(live, Batch(hands={seat}))
    return True


async def play_move(interaction: discord.Interaction, match_id: int, move: Move,
                    version: int | None = None, default_side: bool = False) -> None:
    """Apply ``move`` for the user; answer on the panel it came from (``version`` given) or on
    the seat's one ephemeral panel, and bring the seat's other panels up to date."""
    message = private_panel(interaction)
    # From a panel (``version``), the answer edits it; else it is the seat's panel anew.
    new_message = version is None or message is None
    svc = service(interaction.client)
    tr = tr_of(interaction)
    # When the move reached the bot, before any lookup (which may wait on the database);
    # the clock forfeits no turn it may be in time for until it is judged.
    came = arrived(interaction)
    with svc.move_arriving(match_id, came):
        live = await live_of(interaction, match_id, new_message)
        if live is None:
            await ephemeral(interaction, tr("This match is over."))
            return
        seat = live.seat_of(interaction.user.id)
        if seat is not None and message is not None and \
                await _replaced_panel(interaction, live, seat):
            return
        before = live.version
        # Judged by when it was made (Discord's stamp), not when it arrived (``clock.LATE``).
        made = interaction.created_at.timestamp()
        outcome = await in_time(interaction, svc.act(live, interaction.user.id, move, version,
                                                     made, came, default_side),
                                new_message=new_message)
    seat = live.seat_of(interaction.user.id)
    if outcome.error is not None:
        said = sentence(tr(outcome.error))
        if outcome.stale and seat is not None and not live.over and \
                is_dm_panel(live, seat, message):
            # The seat's DM panel moved on as it was clicked (a double tap, the opponent's
            # move): it is brought up to date where it is, as after every move; a second
            # panel beside it said "here is your hand" of the hand already there (review153).
            refresh_dm(live, seat, interaction.client)
            await ephemeral(interaction, tr("That panel had moved on: it is being brought up "
                                            "to date with your hand as it is now."))
        elif outcome.stale and seat is not None and not live.over:
            await show_panel(interaction, live, seat, said)
        else:
            await ephemeral(interaction, said)
        return
    assert seat is not None
    on_dm = False
    try:
        if version is None or message is None:
            await show_panel(interaction, live, seat, before=before)
        else:
            # The action came from a panel: update that panel in place. A finished match's
            # panel is empty: hand_panel offers nothing when it is nobody's turn.
            on_dm = await _answer_on_panel(interaction, live, seat, message)
    except BaseException:
        # The answer failed (Discord, the network): the move stands, and the mover's DM
        # panel follows it all the same (a DM panel's own answer hands itself back).
        if message is None or not is_dm_panel(live, seat, message):
            refresh_dm(live, seat, interaction.client)
        raise
    await after_move(interaction, live, seat, on_dm=on_dm)


async def _answer_on_panel(interaction: discord.Interaction, live: LiveMatch, seat: int,
                           message: discord.Message) -> bool:
    """Show the seat's hand on the panel clicked; whether that is the seat's DM panel."""
    svc = service(interaction.client)
    # The position shown: an ending (a resignation, the clock) keeps the version.
    version, over = live.version, live.over
    on_dm = is_dm_panel(live, seat, message)
    if on_dm:
        # Marked before the drawing: the turn's delivery, under way meanwhile, leaves this
        # panel to the answer instead of editing it too.
        svc.answered_on_dm(live, seat, message.id, version)
    try:
        # Drawn off the event loop, from the position of this moment (the edit would be as
        # late). The DM panel as the delivery shows it: with the channel lost, the table too;
        # a warning standing in the turn said again (``still_warned``): the delivery, this
        # answer marked, leaves the panel to it.
        drawing = (svc.dm_panel(live, seat, still_warned(svc, live, seat, svc.clock()))
                   if on_dm else svc.hand_shown(live, seat))
        look = live.pane_look[seat]  # (the look an ephemeral panel is drawn in: ``keep``)
        clock = pane_clock(live)
        # (The move's save may have used up most of Discord's 3 seconds: ``in_time``.)
        shown = await in_time(interaction, drawing.drawn())
    except BaseException:
        if on_dm:
            live.dm_shown[seat] = None
            svc.delivery.enqueue(live, Batch(hands={seat}))
        raise
    # A message of the seat's DMs that was its panel when the click was checked, replaced
    # since by a newer one (a click on that one taking it: ``_on_its_way``; a warning's):
    # the answer puts the buttons back on it too, and they go again.
    panel = live.dm_message_ids[seat]
    replaced = not on_dm and interaction.guild_id is None and not message.flags.ephemeral \
        and panel is not None and message.id < panel
    answering = on_dm or replaced
    # Counted until the buttons it may put back on a replaced panel are off again, not just
    # until it lands: a new panel's send ending in between would clear the seat's mark.
    live.dm_answering[seat] += answering
    try:
        try:
            # The picture travels with the edit, replacing the one from before the click.
            await edit_clicked(interaction, **shown.edit())
        except BaseException as e:
            if on_dm:
                # Not shown after all (Discord refused, the network failed): the DM panel is
                # edited by the bot's own call instead.
                live.dm_shown[seat] = None
                svc.delivery.enqueue(live, Batch(hands={seat}))
            if not expired(e):
                raise
            # Its answer came too late (Discord delivered the click late, or the bot was
            # slow): the move stands, and nobody can be told.
            log.info("match %d: the answer to a click came too late (%s)", live.id, e)
            return on_dm
        finally:
            if shown.view is not None:
                shown.view.stop()
        if answering and live.dm_message_ids[seat] != message.id:
            # A new panel replaced it while the answer was drawn or on its way (the turn's
            # warning), taking its buttons off: the answer put them back.
            await strip_answered(svc, live, seat, message)
            return on_dm
    finally:
        live.dm_answering[seat] -= answering
    if on_dm and (live.version, live.over) != (version, over):
        # The match moved on or ended meanwhile (the computer, the clock, a resignation):
        # this edit showed an older position, perhaps over the ending's own edit, so the DM
        # panel is edited again after it.
        live.dm_shown[seat] = None
        svc.delivery.enqueue(live, Batch(hands={seat}))
    if not on_dm and message.flags.ephemeral:
        # Kept as showing what it showed: moved on since, it is edited after the move.
        panes(interaction.client).keep(live, seat, interaction, (version, over, look, clock))
    return on_dm


async def player_of(interaction: discord.Interaction, match_id: int,
                     not_yours: str) -> tuple[LiveMatch, int] | None:
    """The match, still in play, and the user's seat in it; else None, and the user told."""
    live = await live_of(interaction, match_id)
    seat = None if live is None else live.seat_of(interaction.user.id)
    if live is None or live.over:
        tr = tr_of(interaction)
        await ephemeral(interaction, tr("This match is over."))
        return None
    if seat is None:
        await ephemeral(interaction, not_yours)
        return None
    return live, seat


async def set_order(interaction: discord.Interaction, match_id: int,
                    order: HandOrder | None) -> None:
    """Lay the user's hand out in ``order``, from now on and in every match (it is saved);
    None, no order the menu offers: refused, their choice kept."""
    tr = tr_of(interaction)
    if order is None:
        await ephemeral(interaction, tr(OUT_OF_DATE))
        return
    found = await player_of(interaction, match_id,
                             tr("This is not your match: only its two players have hands."))
    if found is None:
        return
    live, seat = found
    if await _replaced_panel(interaction, live, seat):
        return
    svc = service(interaction.client)
    message = private_panel(interaction)
    # Saved before the answer: a write elsewhere may hold the database for seconds.
    await in_time(interaction, svc.prefs.set_hand_order(interaction.user.id, order.value),
                  new_message=message is None)
    if message is None:
        await show_panel(interaction, live, seat)
        return
    if await _answer_on_panel(interaction, live, seat, message):
        await refresh_pane(interaction.client, live, seat)
    else:
        refresh_dm(live, seat, interaction.client)
