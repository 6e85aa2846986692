"""A player whose DMs refused the bot is tried there again once a hand: one who opened them
since (Discord's privacy settings) gets the hand panel there again, as before the refusal,
rather than for the rest of the match only through the table's My hand button.

Once a hand, not once a move: each refused try is a request Discord counts against the bot
(its limit of invalid requests), and My hand serves meanwhile. A refusal is told in the
channel once while it lasts: a try that is refused again says nothing. Never with the
match's channel lost: a seat refused then abandoned the match. A notice failing for now (a
5xx) is owed, and posted at the seat's next delivery (``owed``)."""

from __future__ import annotations

import secrets
import weakref
from typing import TYPE_CHECKING

from cogs.umtali.live import LiveMatch
from cogs.umtali.reminders import turn_of
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

#: By match: the hand (game, hand) each refused seat was last refused or tried in. Memory: a
#: restart tries each refused seat once more at its first delivery.
_tried: weakref.WeakKeyDictionary[LiveMatch, dict[int, tuple[int, int]]] = \
    weakref.WeakKeyDictionary()
#: By match: the seats told their DMs are closed, and tried again since: refused again, not
#: told again. A panel that reached the DMs ends it (closed once more, told once more).
_told: weakref.WeakKeyDictionary[LiveMatch, set[int]] = weakref.WeakKeyDictionary()
#: By match: the seats whose refusal is still to be told in the channel (its post failed for
#: now), each by a token drawn as it was first tried, which names it (``nonces``): the retry of
#: a post that went through is not posted twice, and a later refusal's notice is not taken
#: for it.
_owed: weakref.WeakKeyDictionary[LiveMatch, dict[int, str]] = weakref.WeakKeyDictionary()
#: By match: the seats cleared to be tried again whose new panel has not reached them yet (it
#: failed for now): its retry is that new panel, saying so, not a plain one or an edit.
_reopening: weakref.WeakKeyDictionary[LiveMatch, set[int]] = weakref.WeakKeyDictionary()


def reopened(tr: Tr) -> str:
    """Said with the panel that reached the DMs again."""
    return tr("I can send you direct messages again: your hand comes here from now on, as "
              "before.")


def _hand(live: LiveMatch) -> tuple[int, int]:
    game, hand, _turns, _seat = turn_of(live)
    return game, hand


def refused(live: LiveMatch, seat: int) -> bool:
    """The seat's DMs refused the bot (saved): not tried again before the next hand. Whether
    its player is to be told so (not if told already, and tried again since)."""
    _tried.setdefault(live, {})[seat] = _hand(live)
    _reopening.get(live, set()).discard(seat)
    return seat not in _told.get(live, set())


def reached(live: LiveMatch, seat: int) -> None:
    """A panel reached the seat's DMs: a later refusal is told again (and one not told yet
    no longer needs telling)."""
    told = _told.get(live)
    if told is not None and not live.dm_refused[seat]:
        told.discard(seat)
    if not live.dm_refused[seat]:
        paid(live, seat)
        _reopening.get(live, set()).discard(seat)


def reopening(live: LiveMatch, seat: int) -> bool:
    """Whether the seat's DMs, tried again, still await the new panel saying so (it failed for
    now): its next delivery sends it."""
    return not live.dm_refused[seat] and not live.channel_lost and not live.over and \
        seat in _reopening.get(live, set())


def owe(live: LiveMatch, seat: int) -> str:
    """The seat's refusal is to be told in the channel until ``paid``: the token naming it."""
    owing = _owed.setdefault(live, {})
    if seat not in owing:
        owing[seat] = secrets.token_hex(8)
    return owing[seat]


def owed(live: LiveMatch, seat: int) -> bool:
    """Whether the seat's refusal is still to be told in the channel."""
    return seat in _owed.get(live, {})


def paid(live: LiveMatch, seat: int) -> None:
    """The seat's refusal told in the channel (or no longer to be)."""
    owing = _owed.get(live)
    if owing is not None:
        owing.pop(seat, None)


async def try_again(svc: MatchService, live: LiveMatch, seat: int) -> bool:
    """Whether the seat, its DMs refused, is to be sent its panel there again now: once a
    hand, its refusal cleared as saved first (memory never ahead of the database)."""
    if not live.dm_refused[seat] or live.is_computer(seat) or live.channel_lost or live.over:
        return False
    hand = _hand(live)
    tried = _tried.setdefault(live, {})
    if tried.get(seat) == hand:
        return False
    tried[seat] = hand
    if not await svc.store.clear_dm_refused(live.id, seat, svc.owners.name):
        return False  # no longer this process's match in play, or its channel lost
    live.dm_refused[seat] = False
    _told.setdefault(live, set()).add(seat)
    _reopening.setdefault(live, set()).add(seat)
    return True
