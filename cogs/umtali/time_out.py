"""A correspondence turn's time is up: the waiting player is asked whether to claim the session
or to keep waiting (the warnings and reminders before it: ``cogs.umtali.reminders``; the
answer: ``cogs.umtali.time_up_answer``).

By correspondence nobody forfeits on the clock: at the deadline the clock stops (the deadline
saved as none, so a restart does not ask again once the question is saved; a clock stopped
with no question saved is run out again, and asks again) and the waiting player is asked, in
the match's channel, whether to claim the session or to give the absent player another turn's
time. The absent player may still move meanwhile: their first move within the turn withdraws
the question (saved so with the move, ``cogs.umtali.question``) and gives the turn a fresh turn's
time, as "keep waiting" does; if that runs out too, the question is asked once more. The
delivery after such a move (or the move that ends the turn) takes the question's buttons off
and says it is no longer needed (its buttons carry the version asked at too, for a question
that could not be saved or was missed). The question's message, its save and its taking back:
``cogs.umtali.question_message``.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

import discord

from cogs.umtali.clock_state import LATE
from cogs.umtali.failures import PASSING
from cogs.umtali.judged import run_out
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import only
from cogs.umtali.nonces import match_nonce
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import timeout_panel
from cogs.umtali.question import Question, stands, unsaved_at
from cogs.umtali.question_message import forget, question, remember, take_back
from cogs.umtali.reminders import Turn, post, to_dms, turn_of
from cogs.umtali.unheard import InDoubt, settled
from data.failing import failing_for_now

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: The matches whose waiting player is being asked here, between the clock stopping and the
#: question saved (the state a process killed meanwhile leaves, ``ask_again`` mends).
_asking: weakref.WeakSet[LiveMatch] = weakref.WeakSet()
#: Tries in the channel, failing for now, before a question goes to the waiting player's DMs
#: instead: a try that failed may have been posted all the same (its answer lost), and the
#: next one in the channel, of the same nonce, is then given it back, where one in the DMs
#: would be a second question.
CHANNEL_TRIES = 3
#: By match: the question tried in the channel (its turn and version: not the deadline run out,
#: which each restart of its clock moves), how often it failed, and the deadline this process
#: ran its clock on to after the last failure (None: not run on yet, ``ask_again`` restarts
#: it). Counted on only at a time-up of that deadline: any other is the turn's next time-up
#: after "keep waiting" (of the same turn and version), wherever the question was asked, and
#: counts anew. Forgotten once a question is asked here.
_failed_in_channel: weakref.WeakKeyDictionary[
    LiveMatch, tuple[tuple[object, ...], int, float | None]] = weakref.WeakKeyDictionary()
#: By match: how often its question was found deleted and asked anew (``ask_again_if_deleted``),
#: in the new one's nonce: of the same turn and version, within Discord's minutes of keeping a
#: nonce, the old nonce would be given the deleted message back, and nothing asked.
_asked_anew: weakref.WeakKeyDictionary[LiveMatch, int] = weakref.WeakKeyDictionary()



async def ask_waiting_player(svc: MatchService, live: LiveMatch, now: float) -> bool:
    """The turn's time is up: stop its clock and ask the waiting player (beside the tick).
    Never forfeits (returns False); if the question cannot be posted, the clock runs on and
    the next check asks again."""
    async with live.lock:
        deadline, version, absent = live.deadline, live.version, live.session.to_act
        turn = turn_of(live)
        if live.over or deadline is None or not run_out(deadline, now):
            return False
        # Claimed in the database: of two processes, one asks. A claim saved with its answer
        # lost is found claimed (``unheard``): refused again at every check, nobody asked.
        leases = svc.owners.leases
        if not await settled(f"match {live.id}: its clock stopped", leases.stop_clock(
                live.id, version), lambda: leases.stopped_here(live.id, version),
                             doubt=live.doubt):
            return False
        # As saved: the stopped clock's turn is unwarned (a reminder sent is of no more use).
        live.deadline, live.warned = None, False
        _asking.add(live)
    # Beside the timer tick, which must not wait on Discord (``beside``).
    svc.beside.start(_asked(svc, live, deadline, version, absent, turn), live.id,
                     "time-up question")
    return False


async def _asked(svc: MatchService, live: LiveMatch, deadline: float, version: int,
                 absent: int, turn: Turn) -> None:
    try:
        await _ask(svc, live, deadline, version, absent, turn)
    finally:
        _asking.discard(live)


async def _ask(svc: MatchService, live: LiveMatch, deadline: float, version: int,
               absent: int, turn: Turn) -> bool:
    tr = svc.public_tr(live)
    waiting = live.player_ids[1 - absent]
    # One question in the channel a turn's time-up, however often it is tried, whichever
    # process asks (``nonces``): not named by the deadline run out, which a restart in between
    # moves on. After "keep waiting" the turn's next time-up, a turn's time later, is past
    # Discord's minutes of keeping a nonce.
    asked = None if live.channel_lost else await post(
        svc, live, question(live, absent, tr), only(waiting), timeout_panel(live.id, version, tr),
        nonce=match_nonce(live, "question", *turn, version, *_anew(live)))
    asking = (*turn, version)
    if asked is None and not live.over and not live.dm_refused[1 - absent] and (
            live.channel_lost or _channel_failed(live, asking, deadline) >= CHANNEL_TRIES):
        # The channel is lost, or keeps failing: the question reaches the waiting player in
        # their DMs (unless losing it abandoned the match, the absent player's DMs closed too).
        dm = svc.seat_tr(live, 1 - absent)

        async def send() -> discord.Message:
            user = svc.client.get_user(waiting) or await svc.client.fetch_user(waiting)
            return await user.send(question(live, absent, dm),
                                   view=timeout_panel(live.id, version, dm),
                                   nonce=match_nonce(live, "question in dms", *turn, version))
        try:
            asked = await to_dms(svc, live, 1 - absent, send)
        except PASSING as e:
            log.info("match %d: the time-up question could not be sent (%s)", live.id, e)
    if asked is not None:
        _failed_in_channel.pop(live, None)
    async with live.lock:
        if asked is None:
            if live.version == version and live.deadline is None and not live.over:
                # Nobody was asked: the clock runs on, and the next check tries again. Not
                # saved if another process took the match meanwhile: its clock is its own.
                run = await _run_again(svc, live, version, deadline, absent)
                if run:
                    live.deadline, live.warned = deadline, False
                    _ran_on(live, deadline)
                elif run is not None:
                    log.info("match %d: taken by another process before seat %d could be "
                             "asked", live.id, 1 - absent)
            else:
                log.info("match %d: moved on before seat %d could be asked", live.id,
                         1 - absent)
            return False
        # The absent player back meanwhile (their move gave the turn its clock again): asked,
        # and withdrawn at once.
        refused_as_asked = await remember(svc, live, Question(
            asked.channel.id, asked.id, version, absent, asked.channel.id != live.channel_id,
            turn, withdrawn=live.deadline is not None))
    if refused_as_asked is not None:
        await take_back(svc, live, refused_as_asked)
        return False
    log.info("match %d: seat %d's time is up; seat %d asked", live.id, absent, 1 - absent)
    svc.delivery.enqueue(live, Batch(table=True))
    return False


async def _run_again(svc: MatchService, live: LiveMatch, version: int, deadline: float,
                     absent: int) -> bool | None:
    """Under the match's lock, nobody asked: its clock runs out again at ``deadline``, as
    saved; False if another process holds the match now, None if the database fails for now.
    A save of unknown outcome is read back (``settled``): gone through unheard, the clock
    runs in memory too (left stopped here, running in the database, it would never fire here
    again: ``ask_again`` restarts only a clock saved as stopped). Not saved, or unread (the
    match doubted, read back at the next check), memory stays stopped, as saved or behind
    it, and the next check runs the clock out again and asks."""
    try:
        return await settled(
            f"match {live.id}: its clock run on, nobody asked",
            svc.store.set_deadline(live.id, version, deadline, owner=svc.owners.name),
            lambda: runs_to(svc, live, deadline), doubt=live.doubt)
    except Exception as e:
        if not failing_for_now(e) and not isinstance(e, InDoubt):
            raise
        log.info("match %d: seat %d could not be asked, nor its clock run on for now (%s: %s); "
                 "the next check asks again", live.id, 1 - absent, e.__class__.__name__, e)
        return None


def _channel_failed(live: LiveMatch, asking: tuple[object, ...], deadline: float) -> int:
    """The question ``asking`` names, its clock run out at ``deadline``, failed in the channel
    once more: how often so far, at the time-ups this process ran its clock on to."""
    was, failed, ran_on = _failed_in_channel.get(live, ((), 0, None))
    failed = failed + 1 if (was, ran_on) == (asking, deadline) else 1
    _failed_in_channel[live] = (asking, failed, None)
    return failed


def _ran_on(live: LiveMatch, deadline: float, restarted: bool = False) -> None:
    """Nobody asked: this process ran the turn's clock on to ``deadline``, whose time-up is
    the same question's next try. ``restarted`` (``ask_again``): only a clock left stopped
    by a failure here (another process may have stopped it since)."""
    failing = _failed_in_channel.get(live)
    if failing is not None and not (restarted and failing[2] is not None):
        _failed_in_channel[live] = (*failing[:2], deadline)


def _unasked(live: LiveMatch) -> bool:
    """The turn's clock is stopped for a question that was never asked: its process was
    killed meanwhile, or the post and the clock's restart both failed (or it was asked and
    not saved, by a process since stopped: asked once more). A practice's clock is stopped
    only by a version that asked the computer, who never answers: run out again, it forfeits."""
    if (live.over or live.deadline is not None or live.control.on_timeout != "ask"
            or live.is_computer(live.session.to_act) or live in _asking
            or unsaved_at.get(live) == live.version):
        return False
    if not live.asks_when_late():
        return True
    return not stands(Question.loads(live.question), live)


async def ask_again(svc: MatchService, now: float) -> None:
    """Each tick, of the matches held here: a turn whose clock stopped with nobody asked gets
    its clock back, run out, so the tick asks the waiting player (restart-safe: the database
    holds the stopped clock; once: only the holder restarts it, compared and set)."""
    for live in list(svc.matches.values()):
        if not _unasked(live):
            continue
        try:
            async with live.lock:
                # Run out ``LATE`` ago: the check asks at once (it acts on a deadline only
                # once a move made before it can no longer be on its way, ``run_out``).
                if _unasked(live) and await svc.owners.leases.restart_clock(
                        live.id, live.version, now - LATE, live.question):
                    live.deadline, live.warned = now - LATE, False
                    _ran_on(live, now - LATE, restarted=True)
                    log.info("match %d: its time-up question was never asked (or asked of "
                             "the computer); its clock runs out again", live.id)
        except Exception as e:
            log.warning("match %d: its time-up question could not be asked again (%s: %s)",
                        live.id, e.__class__.__name__, e)


async def ask_again_if_deleted(svc: MatchService, live: LiveMatch) -> None:
    """The table posted again (``/umtali table``) while the time-up question stands: if its
    message was deleted since (a moderator tidying the thread; the bot hears nothing of it),
    nobody could answer it any more, and the session would wait for good. Forgotten, it is
    asked again at the next check (``ask_again``), as one never asked is. Only where the
    match is held here (its holder asks); one in DMs, which nobody else can delete, is left."""
    asked = Question.loads(live.question)
    if asked is None or asked.in_dm or not stands(asked, live) or \
            svc.matches.get(live.id) is not live:
        return
    message = svc.client.get_partial_messageable(asked.channel_id).get_partial_message(
        asked.message_id)
    try:
        await message.fetch()
        return
    except discord.NotFound:
        pass
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: whether its time-up question is still there is unknown (%s)",
                 live.id, e)
        return
    async with live.lock:
        if live.question == asked.dumps() and stands(asked, live):
            try:
                await forget(svc, live, live.question)
            except Exception as e:
                # The table is posted and saved: the command did what it was asked, and the
                # next /umtali table looks again. So too with the forget's read back failing
                # (``InDoubt``): the database failing for now all the same.
                if not failing_for_now(e) and not isinstance(e, InDoubt):
                    raise
                log.warning("match %d: its time-up question was deleted; it could not be "
                            "forgotten (%s: %s)", live.id, e.__class__.__name__, e)
                return
            _asked_anew[live] = _asked_anew.get(live, 0) + 1
            log.info("match %d: its time-up question was deleted; asked again", live.id)


def _anew(live: LiveMatch) -> tuple[object, ...]:
    """What names a question asked anew, its first deleted, apart from the first."""
    again = _asked_anew.get(live, 0)
    return ("anew", again) if again else ()


# Public: "keep waiting" reads its save back so too (``time_up_answer.decide``).
async def runs_to(svc: MatchService, live: LiveMatch, deadline: float | None) -> bool | None:
    """True if the match is saved at ``live``'s version with its clock running to
    ``deadline`` (set by this process, its answer lost); else None."""
    row = await svc.store.match(live.id)
    saved = row is not None and (row.version, row.status, row.deadline) == (
        live.version, "active", deadline)
    return True if saved else None
