"""A player whose DMs refused the bot is tried there again once a hand: one who opened them
since (Discord's privacy settings) gets the hand panel there again, as before the refusal,
rather than for the rest of the match only through the table's My hand button.

Once a hand, whichever process holds the match, claimed in the database (``dm_tried``): each
refused try is a request Discord counts against the bot (its limit of invalid requests), and
My hand serves meanwhile. The refusal stays saved while the panel is tried: every process
goes on taking the DMs for closed, and a try refused again says nothing (the refusal was told
in the channel once, when it was found). Only a panel that reached the DMs clears it, saved
with its id in one write (``set_dm_message``). Never with the match's channel lost: a seat
refused then abandoned the match. A notice failing for now (a 5xx) is owed, and posted at the
seat's next delivery (``owed``): by this copy, or, saved so (``UNTOLD``), by the copy of the
process that has the match next, claimed once (``claim_dm_notice``)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from cogs.umtali.live import LiveMatch
from cogs.umtali.refused_here import hand_in_play
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

#: By match: the hand each refused seat was last claimed or refused in here, so that each
#: delivery does not ask the database (a fresh copy asks once more, and is refused).
_tried: weakref.WeakKeyDictionary[LiveMatch, dict[int, int]] = weakref.WeakKeyDictionary()
#: By match: the hand each seat's claimed try was made in while it has not ended (it failed for
#: now, a 5xx): the seat's next delivery in that hand makes it again, named as before (its
#: nonce: one the 5xx had in fact delivered is not doubled), rather than leave the DMs to the
#: next hand, and such a panel offering the moves of a position gone meanwhile.
_trying: weakref.WeakKeyDictionary[LiveMatch, dict[int, int]] = weakref.WeakKeyDictionary()
#: By match: the seats whose refusal is still to be told in the channel (its post failed for
#: now), each by what names it (``owe``).
_owed: weakref.WeakKeyDictionary[LiveMatch, dict[int, str]] = weakref.WeakKeyDictionary()
#: By match: the seats whose notice this copy claimed (``claim_dm_notice``) and has not
#: posted, nor saved as owed again (the database failing with the post): its to post, with no
#: claim (the database has it told).
_held: weakref.WeakKeyDictionary[LiveMatch, set[int]] = weakref.WeakKeyDictionary()


def reopened(tr: Tr) -> str:
    """Said with the panel that reached the DMs again."""
    return tr("I can send you direct messages again: your hand comes here from now on, as "
              "before.")


def hand_of(live: LiveMatch) -> int:
    """The hand in play as one number, growing through the session (game * 100 + hand)."""
    return hand_in_play(live)


def refused(live: LiveMatch, seat: int) -> int:
    """The seat's DMs refused the bot in the hand in play: not tried again before the next
    (its number, saved with the refusal)."""
    hand = hand_of(live)
    _tried.setdefault(live, {})[seat] = hand
    return hand


def owe(live: LiveMatch, seat: int) -> str:
    """The seat's refusal is to be told in the channel until ``paid``: what names it, the hand
    it was first owed in (``nonces``: the retry of a post that went through is not posted
    twice, nor is the notice of another process finding the same refusal, as two may: a copy
    shown again as saved edits the closed DMs too; refused once a hand at most, a later
    refusal is another hand's)."""
    owing = _owed.setdefault(live, {})
    if seat not in owing:
        owing[seat] = str(hand_of(live))
    return owing[seat]


def owed(live: LiveMatch, seat: int) -> bool:
    """Whether the seat's refusal is still to be told in the channel: owed by this copy, or
    as saved when it was read (the copy that owed it gone: stopped, or the match taken from
    it). Told by whichever copy claims it first (``MessageQueries.claim_dm_notice``)."""
    return seat in _owed.get(live, {}) or live.dm_untold[seat]


def hold(live: LiveMatch, seat: int) -> None:
    """The seat's notice claimed by this copy, until it is posted (``paid``) or saved as
    owed again (``release``)."""
    _held.setdefault(live, set()).add(seat)


def holds(live: LiveMatch, seat: int) -> bool:
    """Whether this copy holds the claim on the seat's notice."""
    return seat in _held.get(live, ())


def release(live: LiveMatch, seat: int) -> None:
    """The seat's notice no longer held here: saved as owed again, for any copy to claim."""
    _held.get(live, set()).discard(seat)


def paid(live: LiveMatch, seat: int) -> None:
    """The seat's refusal told in the channel (or no longer to be)."""
    live.dm_untold[seat] = False
    release(live, seat)
    owing = _owed.get(live)
    if owing is not None:
        owing.pop(seat, None)


async def try_again(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat, its DMs refused, is to be sent a new panel there now: once a hand,
    claimed in the database (by this process's copy, or another's, or one before a restart:
    at most once)."""
    if not live.dm_refused[seat] or live.is_computer(seat) or live.channel_lost or live.over:
        return False
    hand = hand_of(live)
    trying = _trying.setdefault(live, {})
    if trying.get(seat) == hand:
        return True  # claimed here, and failed for now
    tried = _tried.setdefault(live, {})
    if tried.get(seat, 0) >= hand:
        return False
    before, tried[seat] = tried.get(seat), hand
    try:
        claimed = await svc.store.claim_dm_try(live.id, seat, hand, svc.owners.name)
    except BaseException:
        # Not saved (the database failing): tried again at the hand's next delivery, not a
        # hand later, as memory would have it (review152).
        if tried.get(seat) == hand:
            if before is None:
                tried.pop(seat, None)
            else:
                tried[seat] = before
        raise
    if not claimed:
        return False
    trying[seat] = hand
    return True


def tried_out(live: LiveMatch, seat: int) -> None:
    """The seat's try made: its panel reached the DMs, or was refused, or dropped."""
    trying = _trying.get(live)
    if trying is not None:
        trying.pop(seat, None)

