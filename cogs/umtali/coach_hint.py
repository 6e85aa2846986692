"""The coach's **Hint** button (``cogs.umtali.coach`` thinks of the hint): ``hard``'s move and
why, to the player alone, on their own turn of a practice session."""

from __future__ import annotations

import logging

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.coach import Closing, coach_of
from cogs.umtali.ids import custom_ids, id_of
from cogs.umtali.in_flight import RESTARTING
from cogs.umtali.in_time import answer, defer, in_time
from umtali.ai.coach import Hint
from umtali.ai.review_words import move_words
from umtali.i18n import Tr, sentence
from umtali.view import PlayerView

# The coach's logger, as before the split (log filters, tests).
log = logging.getLogger("cogs.umtali.coach")


def hint_text(tr: Tr, view: PlayerView, advice: Hint) -> str:
    # The move in words alone: a player on Discord clicks, and needs no notation beside them.
    return (tr("**Hint:** the hard computer would {words}.",
               words=move_words(view, advice.move))
            + "\n" + sentence(tr(advice.reason)))


# -- the Hint button ----------------------------------------------------------------------


async def answer_hint(interaction: discord.Interaction, match_id: int) -> None:
    """The Hint button: ``hard``'s move and why, to the player alone, on their own turn of a
    practice session."""
    tr = tr_of(interaction)
    # Wherever the match is held: with several processes, the click may reach any of them.
    live = await in_time(interaction, service(interaction.client).lookup(match_id),
                         new_message=True)
    if live is None or live.over:
        await answer(interaction, tr("This match is over."))
        return
    seat = live.seat_of(interaction.user.id)
    if seat is None or live.is_computer(seat):
        await answer(interaction, tr("This is not your match: only its two players have hands."))
        return
    if live.computer_seat is None:
        await answer(interaction, tr("Hints are for practice sessions against the computer, "
                                   "not for rated matches."))
        return
    if live.session.to_act != seat:
        await answer(interaction, tr("A hint is for your own turn: wait until it is your move."))
        return
    shown = panel_version(interaction.message, live.id)
    if shown is not None and shown != live.version:
        # A panel of an earlier turn (one Discord no longer lets the bot refresh): a hint for
        # the position now would name cards it does not show.
        await answer(interaction, tr("That panel is out of date: ask for a hint on your hand "
                                     "as it is now."))
        return
    # The position checked (the player's turn): moves that land meanwhile do not change it.
    session = live.session
    version = len(session.moves)
    view = session.view(seat)
    # The search takes a few tenths of a second: past Discord's three to answer, at worst.
    await defer(interaction, new_message=True)
    try:
        advice = await coach_of(interaction.client).hint(live, seat, session)
    except Closing:
        # The bot stopping (or the extension unloaded): the search was given up, not failed.
        log.info("match %d: no hint, the bot is stopping", live.id)
        await answer(interaction, tr(RESTARTING))
        return
    except Exception as e:
        log.warning("match %d: no hint (%r)", live.id, e)
        await answer(interaction, tr("No hint right now, sorry: try again in a moment."))
        return
    svc = service(interaction.client)
    if svc.matches.get(live.id) is not live:
        # A copy read from the database (the match held by another process, or let go of
        # meanwhile): it stays as it was read, so the match is read again as it is now.
        try:
            now = await svc.lookup(match_id)
        except Exception as e:
            log.warning("match %d: no hint, the match could not be read again (%r)", live.id, e)
            await answer(interaction, tr("No hint right now, sorry: try again in a moment."))
            return
        if now is None:
            await answer(interaction, tr("This match is over."))
            return
        live = now
    if live.over:
        # Resigned, timed out or abandoned meanwhile: no move was made, the version is the same.
        await answer(interaction, tr("This match is over."))
        return
    if live.version != version:
        await answer(interaction, tr("The match moved on meanwhile: ask again for a hint."))
        return
    await answer(interaction, hint_text(tr, view, advice))


def panel_version(message: discord.Message | None, match_id: int) -> int | None:
    """The position (version) the clicked panel shows, read from its moves' custom ids
    (``umtali:m:<match>:<version>:<action>``); None if it shows no move."""
    prefix = f"umtali:m:{match_id}:"
    for custom_id in custom_ids(message):
        version = custom_id[len(prefix):].split(":", 1)[0]
        if custom_id.startswith(prefix) and version.isascii() and version.isdigit():
            return id_of(version)
    return None
