"""What this process knows of DMs that refused the bot, whichever of its copies of a match found
it: each refused request counts towards Discord's limit of invalid requests, so once a copy here
found a seat's DMs refused, no copy here sends there again in that hand. A copy read before the
refusal was saved (an action's, its lookup answered just before; held here once its move is
saved, or handed a delivery shown again as saved: ``overtaken``) knows nothing of it in its
own ``dm_refused``: it takes it from here before it sends (``known``).

Kept for the hand it was found in (``dms_again.hand_of``), known to the copies in that hand
and to those a hand behind (read before it: nothing they know is newer); the refusal as saved
is every copy's read since, and a copy read before sends at most once in a later hand
(refused, it learns it as saved already); DMs reopened meanwhile through another process
(``dms_again``: a panel tried again that reached them, in a later hand) are not taken for
closed here. Nor are DMs reopened through another process in that very hand (its try claimed
before the refusal was saved here, reaching them after): kept with the match's version as
saved once the refusal was (``saved_at``), the refusal yields to a copy read from the database
at a later version, its ``dm_refused`` clear (``read``): reopened since, as saved. A copy
whose read is not known here (made otherwise, or the version unread) takes it, as before.

Freed once the match is over: here, or, another process ending it, at this process's next
renewal of its leases (``Owners.sweep``: the matches it keeps refusals of and does not hold
read again, in one statement, beside the renewal)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from cogs.umtali.live import LiveMatch

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: By process: (match, seat) -> the hand its DMs were last found refusing the bot in, here, the
#: match's version as saved once that refusal was (None: not read, or not yet), and the finding
#: (``found``'s token: only its own ``saved_at`` sets the version).
_found: weakref.WeakKeyDictionary[
    MatchService, dict[tuple[int, int], tuple[int, int | None, object]]] = \
    weakref.WeakKeyDictionary()
#: By process: (match, seat) -> the lock its new messages to the seat's DMs go out under
#: (``sending``), and how many copies hold it or wait for it (kept only while any does).
_sending: weakref.WeakKeyDictionary[
    MatchService, dict[tuple[int, int], tuple[asyncio.Lock, int]]] = weakref.WeakKeyDictionary()
#: By copy: the version it was read from the database at (its ``dm_refused`` as saved then).
_read: weakref.WeakKeyDictionary[LiveMatch, int] = weakref.WeakKeyDictionary()


def hand_in_play(live: LiveMatch) -> int:
    """The hand in play as one number, growing through the session (game * 100 + hand)."""
    return live.session.game * 100 + live.session.hand_no


def read(live: LiveMatch) -> LiveMatch:
    """``live`` was just made from the match's row (its ``dm_refused`` as saved)."""
    _read[live] = live.version
    return live


def found(svc: MatchService, live: LiveMatch, seat: int) -> object:
    """A copy here found the seat's DMs refusing the bot (or learnt so as saved): then
    ``saved_at``, with the token returned."""
    token = object()
    found_here = _found.setdefault(svc, {})
    entry = found_here.get((live.id, seat))
    if entry is None or entry[0] <= hand_in_play(live):
        # (A copy a hand behind, its send answered late, does not hide a later hand's.)
        found_here[live.id, seat] = (hand_in_play(live), None, token)
    return token


@contextlib.asynccontextmanager
async def sending(svc: MatchService, live: LiveMatch, seat: int) -> AsyncIterator[None]:
    """What a new message to the seat's DMs goes out under, whichever copy here sends it: one
    at a time, a refusal one met is ``known`` to the next before it is sent (two copies,
    each sending after its edit was refused, would both be refused: Discord's answers held up
    together by its retries, neither knew of the other's)."""
    locks = _sending.setdefault(svc, {})
    key = (live.id, seat)
    lock, users = locks.get(key, (asyncio.Lock(), 0))
    locks[key] = (lock, users + 1)
    try:
        async with lock:
            yield
    finally:
        lock, users = locks[key]
        if users > 1:
            locks[key] = (lock, users - 1)
        else:
            del locks[key]


async def saved_at(svc: MatchService, live: LiveMatch, seat: int, token: object) -> None:
    """The refusal ``found`` saved (``token``: that finding's), the match's version read: a
    copy read at a later version read it as saved, or its clearing since (reopened). Unread
    (the database failing), the refusal stands for the hand; found again meanwhile, the
    version is that later finding's to read (this read, answered late, may be of before its
    save)."""
    try:
        progress = await svc.owners.leases.progress(live.id)
    except Exception as e:
        log.debug("match %d: its version could not be read (%s: %s)", live.id,
                  e.__class__.__name__, e)
        return
    found_here = _found.get(svc, {})
    entry = found_here.get((live.id, seat))
    if progress is not None and entry is not None and entry[2] is token:
        found_here[live.id, seat] = (entry[0], progress[0], token)


def cleared(svc: MatchService, live: LiveMatch, seat: int) -> None:
    """A panel tried again reached the seat's DMs: open again."""
    _found.get(svc, {}).pop((live.id, seat), None)


def forget(svc: MatchService, match_id: int) -> None:
    """Free what a finished match kept here (``Delivery.forget``)."""
    found_here = _found.get(svc, {})
    for key in [key for key in found_here if key[0] == match_id]:
        del found_here[key]


def known(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat's DMs are known here to refuse the bot: by ``live`` itself, or, found
    by another copy here in this hand, taken into ``live`` now, its notice in the channel
    perhaps still owed as saved (that copy's post failed for now): ``live``'s delivery of the
    seat claims it (``ChannelLoss.tell_refused``), told once whichever copy claims it."""
    if live.dm_refused[seat]:
        return True
    found_here = _found.get(svc, {})
    entry = found_here.get((live.id, seat))
    if entry is None or entry[0] < hand_in_play(live):
        # (A copy a hand ahead tries once: DMs may have reopened since. One a hand behind was
        # read before the refusal and knows nothing newer: a practice's review of its hand,
        # slow to think, held such a copy; it sent, refused once more: the soak's seed 2268.)
        return False
    read_at = _read.get(live)
    if entry[1] is not None and read_at is not None and read_at > entry[1]:
        # Read since the refusal was saved, open as saved: reopened through another process.
        del found_here[live.id, seat]
        return False
    live.dm_refused[seat] = live.dm_untold[seat] = True
    return True


def kept(svc: MatchService) -> set[int]:
    """The matches a refusal is kept for here (freed once over: ``forget``, at this process's
    end or, ended elsewhere, at its renewals' sweep, ``Owners.sweep``)."""
    return {key[0] for key in _found.get(svc, {})}
