"""The waiting player's answer to the time-up question (``cogs.umtali.time_out`` asks it): "Claim
the win" ends the session as timed out, "Keep waiting" gives the absent player another turn's
time; a click on a question no longer needed, or by anyone else, changes nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.clock_state import began
from cogs.umtali.ids import custom_ids
from cogs.umtali.in_dms import anew, owe_anew
from cogs.umtali.in_time import answer, edit_clicked, in_time
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.outbox import Batch
from cogs.umtali.question import Question, stands, unsaved_asked
from cogs.umtali.question_message import question, show_answer
from cogs.umtali.reminders import TurnNotices, when
from cogs.umtali.steps import note_step
from cogs.umtali.text_cuts import with_end
from cogs.umtali.time_out import runs_to
from cogs.umtali.unheard import settled
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

# The time-up question's logger, as before the split (log filters, tests).
log = logging.getLogger("cogs.umtali.time_out")


def _answerable(live: LiveMatch, version: int) -> bool:
    """A button of the question asked at ``version`` may still be answered: its turn's clock
    stopped, at that version, or a saved question of that version still standing (moves made
    within the turn since). Only where a turn run out asks (``asks_when_late``): a match with
    no clock, or the computer's turn, has no deadline either, and a forged id must not claim
    it."""
    if live.over or live.deadline is not None or not live.asks_when_late():
        return False
    asked = Question.loads(live.question)
    return version == live.version or (asked is not None and asked.version == version
                                       and stands(asked, live))


async def answer_timeout(interaction: discord.Interaction, match_id: int, version: int,
                         claim: bool) -> None:
    """"Claim the win" ends the session (once, whoever clicks twice); "Keep waiting" gives the
    absent player another turn's time. Only the waiting player may choose."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    settled = await in_time(interaction, _settle(svc, interaction.user.id, match_id, version,
                                                 claim))
    if settled is None:
        await answer(interaction, tr("This question is no longer needed: the match moved on."))
        if _on_question(interaction):
            await _drop_buttons(interaction)
        return
    live, absent, allowed, asked = settled
    if not allowed:
        await answer(interaction, tr("Only {name} can answer this.",
                                     name=safe_name(live.names_in(tr)[1 - absent])))
        return
    if not claim:
        # The turn's new time, on the table and the absent player's panel: queued before
        # the answer, which Discord may fail (a claim's ending sends its own).
        svc.delivery.enqueue(live, Batch(table=True, hands={absent}))
    # A question sent to the waiting player's DMs is in their language (``_ask``).
    said = svc.seat_tr(live, 1 - absent) if interaction.guild_id is None \
        else svc.public_tr(live)
    # The answer kept whole, the question cut before it if need be (never the other way).
    text = with_end(question(live, absent, said), answered(live, absent, claim, said), 2000)
    message = interaction.message
    if message is not None and (asked is None or message.id == asked.message_id):
        try:
            await edit_clicked(interaction, content=text, view=None)
        except discord.HTTPException:
            # Discord failed the answer (answered as an error): the question shows it by the
            # bot's own edit, else its buttons stay on, answering nothing any more.
            if asked is not None:
                await show_answer(svc, live.id, asked, text)
            raise
    else:
        # Its id on another message (forged): that one is left as it is; the question, when
        # known, says the answer.
        await answer(interaction, text)
        if asked is not None:
            await show_answer(svc, live.id, asked, text)


async def _settle(svc: MatchService, user_id: int, match_id: int, version: int,
                  claim: bool) -> tuple[LiveMatch, int, bool, Question | None] | None:
    """The answer's work: None if the question is no longer needed; else the match, the
    absent seat, whether ``user_id`` (the waiting player) answered it, and the question as
    it was saved (None if unknown)."""
    live = await svc.lookup(match_id)
    if live is None or not _answerable(live, version):
        return None
    absent = live.session.to_act
    asked = Question.loads(live.question)
    if user_id != live.player_ids[1 - absent]:
        return live, absent, False, asked
    if not await decide(svc, live, version, claim):
        return None
    return live, absent, True, asked


async def decide(svc: MatchService, live: LiveMatch, version: int, claim: bool) -> bool:
    """Under the match's lock: the session ends as timed out (``claim``), or the absent
    player gets another turn's time; False if the question was answered or the match moved
    on meanwhile (of two clicks racing, one wins)."""
    async with live.lock:
        if not _answerable(live, version):
            return False
        absent = live.session.to_act
        # The question is forgotten in the answer's own save, never before it: a save that
        # fails (or a bot stopped first) leaves it standing as saved, answerable again, its
        # buttons on (answered, the click's own edit takes them off, not a delivery).
        if claim:
            # Only on the clock stopped as saved: a copy read before "keep waiting" was
            # saved (another process's, a second click's) still shows it stopped, at the
            # same version (review152: the claim was saved after the other answer).
            if not await svc._resign(live, absent, "timed out", stopped=True):
                return False
            unsaved_asked.pop(live, None)
            return True
        # The clock runs where the match is held: here, from now on.
        await svc.owners.hold(live)
        # A step of the clock not seen yet is looked at first, and the clock noted as set
        # now (``began``), as a move's is: else the next check owed the new time the step.
        note_step(svc)
        at = svc.clock()
        deadline = live.control.deadline(at, live.reserves[absent])
        # An answer lost after the COMMIT is settled by reading the match back (``unheard``).
        # Held from this save too: ``hold`` takes nothing of a copy held here, and another
        # process may have taken the match since (this one's lease lapsed), its clock
        # stopped, which nothing would run again. The turn to tell anew by a new DM panel
        # is saved with it, lest a restart between the two leave the new time untold. Only
        # on the clock stopped as saved, as a claim: of two answers racing (two processes'
        # copies), one is saved.
        untold = absent if anew(live, absent) else None
        if not await settled(f"match {live.id}: kept waiting", svc.store.set_deadline(
                live.id, live.version, deadline, taker=svc.owners.name,
                lease_until=svc.owners.until(), untold=untold, answered=True),
                             lambda: runs_to(svc, live, deadline), doubt=live.doubt):
            # Answered or moved on meanwhile, elsewhere: this copy is brought up to date.
            await svc._reload(live)
            return False
        live.question = ""  # (forgotten with the answer, as saved)
        live.deadline, live.warned = deadline, False
        began(svc, live, at)
        # A question asked and not saved is answered too: no delivery is to void it.
        unsaved_asked.pop(live, None)
        # Another turn's time: the absent player is told of it as of a turn's start.
        for listener in svc.hand_listeners:
            if isinstance(listener, TurnNotices):
                listener.forget(live)
        if untold is not None:
            owe_anew(live, untold)  # as saved (a channel lost meanwhile notifies itself)
        return True


def answered(live: LiveMatch, absent: int, claim: bool, tr: Tr) -> str:
    """The waiting player's answer, added to the question."""
    names = live.names_in(tr)
    waiting, gone = safe_name(names[1 - absent]), safe_name(names[absent])
    if claim:
        return tr("{name} claimed the win.", name=waiting)
    return tr("{name} keeps waiting: {other}'s turn now ends {when}.", name=waiting,
              other=gone, when=when(live.deadline or 0))


def _on_question(interaction: discord.Interaction) -> bool:
    """Whether the message clicked may be a time-up question: a message whose buttons are
    all a question's (``TimeoutButton``), not another of the bot's, such as the table,
    carrying a forged id among its own."""
    ids = custom_ids(interaction.message)
    return bool(ids) and all(i.endswith((":claim", ":wait")) for i in ids)


async def _drop_buttons(interaction: discord.Interaction) -> None:
    """The question's buttons are of no more use: take them off its message."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(view=None)
    except discord.HTTPException as e:
        log.info("the time-up question's buttons could not be removed (%s)", e)
