"""The time-up question's message (``cogs.umtali.time_out`` asks it,
``cogs.umtali.time_up_answer`` settles its answer): its words, its save, and taking it back
once it no longer stands.

The database decides whether a question just asked stands: saved so only while the match is
still at the version it was asked at, its clock stopped. A move saved meanwhile by another
process (the absent player back, unknown to the asking process's copy) leaves it saved
withdrawn, and the asking process edits it to say so, as the delivery of a move does here.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from cogs.umtali.archived import reopened
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS, ping
from cogs.umtali.names import safe_name
from cogs.umtali.question import Question, back, stands, unsaved_asked, unsaved_at
from cogs.umtali.reminders import when
from cogs.umtali.text_cuts import head, with_end
from cogs.umtali.unheard import settled
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


def question(live: LiveMatch, absent: int, tr: Tr) -> str:
    waiting = 1 - absent
    return tr("{mention}, {name}'s time for this turn is up. Claim the win, or keep waiting and "
              "give {name} another turn's time?", mention=ping(live.player_ids[waiting]),
              name=safe_name(live.names_in(tr)[absent]))


async def remember(svc: MatchService, live: LiveMatch, asked: Question) -> Question | None:
    """Save the question just asked. The database decides whether it stands: only while the
    match is still at its version, its clock stopped (a move saved meanwhile by another
    process, unknown to this copy, withdrew it). Refused so, the copy is reloaded, and the
    question to take back from its message is returned. If the save fails, its buttons
    still answer that they are no longer needed once the match moves on, so this is only
    logged."""
    try:
        if asked.withdrawn:
            saved = await svc.owners.leases.set_question(live.id, asked.dumps(), live.question)
        else:
            saved = await svc.owners.leases.set_question(live.id, asked.dumps(), live.question,
                                                         asked_at=asked.version)
            if not saved:
                log.info("match %d: the time-up question asked at version %d no longer "
                         "stands: the match moved on meanwhile, elsewhere", live.id,
                         asked.version)
                return await _refused(svc, live, asked)
        if saved:
            live.question = asked.dumps()
            return None
        log.info("match %d: the withdrawn time-up question was not saved: another was saved "
                 "meanwhile", live.id)
    except Exception as e:
        log.warning("match %d: the time-up question could not be saved (%s: %s)", live.id,
                    e.__class__.__name__, e)
    unsaved_at[live] = asked.version
    unsaved_asked[live] = asked
    return None


async def _refused(svc: MatchService, live: LiveMatch, asked: Question) -> Question:
    """``asked`` refused as standing: the copy as the database has the match. Moved on by a
    move (and in play), the question is saved withdrawn, unless one asked since stands, and
    returned withdrawn, to say so on its message; else (answered elsewhere, or over) it is
    returned as it is, to take its buttons off alone (an answer says itself what it was)."""
    await svc._reload(live)
    if live.version == asked.version or live.over:
        return asked
    gone = asked._replace(withdrawn=True)
    if stands(Question.loads(live.question), live):
        return gone
    if await svc.owners.leases.set_question(live.id, gone.dumps(), live.question):
        live.question = gone.dumps()
    else:
        log.info("match %d: the time-up question could not be saved withdrawn either",
                 live.id)
    return gone


async def take_back(svc: MatchService, live: LiveMatch, asked: Question) -> None:
    """The question refused as standing, on its message: withdrawn, it says the absent
    player is back (or that the match moved on), its buttons gone, and is then forgotten;
    otherwise only its buttons come off. A withdrawn one's edit failing for now is tried
    again (``void_owed``); a failure otherwise is left to the question's buttons, which answer
    that they are no longer needed."""
    if asked.withdrawn:
        if await edit_void(svc, live, asked) and live.question == asked.dumps():
            await forget(svc, live, asked.dumps())
        return
    kind = discord.ChannelType.private if asked.in_dm else None
    channel = svc.client.get_partial_messageable(asked.channel_id, type=kind)
    try:
        await _edited(svc, asked, lambda: channel.get_partial_message(asked.message_id).edit(
            view=None))
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: the time-up question's buttons could not be removed (%s)",
                 live.id, e)


async def void_question(svc: MatchService, live: LiveMatch) -> None:
    """The match moved on (a move, its end) while its time-up question waited: the question
    says it is no longer needed (withdrawn, that the absent player is back), without its
    buttons. A failure to edit is tried again at the clock's next check (``void_owed``), or
    with the next delivery; a question whose message is gone is simply forgotten. So too a
    question asked here and never saved."""
    unsaved = unsaved_asked.get(live)
    if unsaved is not None and not stands(unsaved, live) and await edit_void(
            svc, live, unsaved) and unsaved_asked.get(live) is unsaved:
        del unsaved_asked[live]
    was = live.question
    asked = Question.loads(was)
    if asked is None or stands(asked, live):
        return
    if await edit_void(svc, live, asked):
        await forget(svc, live, was)


async def edit_void(svc: MatchService, live: LiveMatch, asked: Question) -> bool:
    """The question edited to say it is no longer needed, its buttons off: False if that
    failed for now (owed: tried again at the clock's next check)."""
    tr = svc.seat_tr(live, 1 - asked.absent) if asked.in_dm else svc.public_tr(live)
    if back(asked, live):
        name = safe_name(live.names_in(tr)[asked.absent])
        why = tr("{name} is back at the table and playing: this question is no longer "
                 "needed. {name}'s turn now ends {when}.", name=name,
                 when=when(live.deadline or 0))
    else:
        why = tr("This question is no longer needed: the match moved on.")
    text = with_end(question(live, asked.absent, tr), why, 2000)
    message = svc.client.get_partial_messageable(asked.channel_id).get_partial_message(
        asked.message_id)
    try:
        await _edited(svc, asked, lambda: message.edit(content=text, view=None,
                                                       allowed_mentions=NO_MENTIONS))
    except PASSING as e:
        log.info("match %d: the time-up question could not be edited for now (%s)", live.id, e)
        _owe(svc, live.id, asked)
        return False
    except GONE as e:
        log.info("match %d: the time-up question is gone (%s)", live.id, e)
    _paid(svc, live.id, asked.message_id)
    return True


async def show_answer(svc: MatchService, match_id: int, asked: Question, text: str) -> bool:
    """The question (at ``asked``) edited to show its answer (``text``), its buttons off, where
    the click's own answer could not: False if that failed for now (owed: tried again at the
    clock's next check, lest its buttons stay on, answering nothing any more)."""
    kind = discord.ChannelType.private if asked.in_dm else None
    message = svc.client.get_partial_messageable(asked.channel_id, type=kind).get_partial_message(
        asked.message_id)
    try:
        await _edited(svc, asked, lambda: message.edit(content=head(text, 2000), view=None,
                                                       allowed_mentions=NO_MENTIONS))
    except PASSING as e:
        log.info("match %d: the time-up question could not show its answer for now (%s)",
                 match_id, e)
        _owe(svc, match_id, asked, text)
        return False
    except discord.HTTPException as e:  # gone, or refused for good: nothing to press on it
        log.info("match %d: the time-up question could not show its answer (%s)", match_id, e)
    _paid(svc, match_id, asked.message_id)
    return True


#: By service, then match id and message id: the questions no longer standing whose edit
#: failed for now (a 5xx, the network), tried again at the clock's next check (``void_owed``):
#: a move, whose delivery would try again, may be days away; with the answer to show, for a
#: question answered (``show_answer``), else None (withdrawn, or the match moved on). By id,
#: not by copy: the asking process may have let the match go to the process whose move
#: withdrew the question, and whose copy never knew of it.
_owed: weakref.WeakKeyDictionary[
    MatchService, dict[int, dict[int, tuple[Question, str | None]]]] = weakref.WeakKeyDictionary()


def _owe(svc: MatchService, match_id: int, asked: Question, answer: str | None = None) -> None:
    _owed.setdefault(svc, {}).setdefault(match_id, {})[asked.message_id] = (asked, answer)


def _paid(svc: MatchService, match_id: int, message_id: int) -> None:
    """Nothing more owed for the question's message: edited, or gone."""
    owed = _owed.get(svc, {})
    questions = owed.get(match_id)
    if questions is not None:
        questions.pop(message_id, None)
        if not questions:
            del owed[match_id]


def owes(svc: MatchService, match_id: int) -> bool:
    """Whether an edit of the match's question is still owed here (tests)."""
    return match_id in _owed.get(svc, {})


async def void_owed(svc: MatchService) -> None:
    """The clock's check: each question whose edit failed for now tried again, once, with
    the match as the database has it; forgotten in the database once edited if it is the one
    saved. Let go once edited, its message gone, or the match gone. Never raises."""
    if svc.clock_state.outage is not None:
        return  # the gateway is down (Discord, or the network): tried once it is back
    for match_id, questions in list(_owed.get(svc, {}).items()):
        try:
            live = await svc.lookup(match_id)
        except Exception as e:  # the database, for now: owed still
            log.info("match %d: its time-up question waits for the database (%s: %s)",
                     match_id, e.__class__.__name__, e)
            continue
        for asked, answer in list(questions.values()):
            if answer is not None:
                await _answer_owed(svc, match_id, asked, answer)
                continue
            if live is None or stands(asked, live):
                _paid(svc, match_id, asked.message_id)
                continue
            try:
                if not await edit_void(svc, live, asked):
                    continue  # owed still, to the next check
                if unsaved_asked.get(live) == asked:
                    del unsaved_asked[live]
                if live.question == asked.dumps():
                    await forget(svc, live, asked.dumps())
            except Exception as e:
                # Not a failure for now (edit_void keeps those): never tried every second.
                _paid(svc, match_id, asked.message_id)
                log.warning("match %d: the time-up question could not be taken back (%s: %s)",
                            match_id, e.__class__.__name__, e)


async def _answer_owed(svc: MatchService, match_id: int, asked: Question, answer: str) -> None:
    """An answered question's edit tried again (the match as it is now matters not: its
    answer stands). Never raises."""
    try:
        await show_answer(svc, match_id, asked, answer)
    except Exception as e:  # not a failure for now (those are kept): never tried every second
        _paid(svc, match_id, asked.message_id)
        log.warning("match %d: the time-up question could not show its answer (%s: %s)",
                    match_id, e.__class__.__name__, e)


async def _edited(svc: MatchService, asked: Question,
                  edit: Callable[[], Awaitable[object]]) -> None:
    """The question's message edited; in a thread archived since it was asked (a day with no
    message after it), the thread is brought back first, as for the table's edit: the table's
    may not have gone first (it failed for now, or the table is elsewhere now). Refused for
    good there (locked), a ``GONE`` error, as for a deleted message."""
    if asked.in_dm:
        await edit()
    else:
        await reopened(svc.client, asked.channel_id, edit)


async def forget(svc: MatchService, live: LiveMatch, was: str) -> None:
    async def landed() -> bool | None:
        # Its answer lost after the COMMIT: forgotten as saved is forgotten here too, else
        # kept here for good (a second forget finds ``was`` saved no more), and never asked
        # again while this process runs.
        row = await svc.store.match(live.id)
        return True if row is not None and row.question == "" else None

    done = await settled(f"match {live.id}: its time-up question forgotten",
                         svc.owners.leases.set_question(live.id, "", was), landed)
    if not done and live.question == was:
        # ``was`` saved no more: forgotten already, by a forget here whose answer and read
        # back were both lost (``InDoubt``), is forgotten here too, else kept for good. A
        # read failing leaves it to the next forget: what asked this one goes on.
        try:
            done = await landed() is not None
        except Exception as e:
            log.info("match %d: whether its time-up question was forgotten could not be "
                     "read (%s: %s)", live.id, e.__class__.__name__, e)
    if done and live.question == was:
        live.question = ""
