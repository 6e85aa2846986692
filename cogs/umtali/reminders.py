"""Before a turn's time is up: the warning (a forfeit to come), or by correspondence a
reminder; and by correspondence the DM telling a player their turn has started. Each goes
where the player will see it (the match's channel, else their DMs), a place refused for good
being noted as the delivery notes it, and one failing for now tried again at the next check.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING, Literal

import discord

from cogs.umtali import turn_dms
from cogs.umtali.dm_sends import to_dms as to_dms  # (where the time control's callers find it)
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.judged import judged_deadline
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.nonces import match_nonce
from cogs.umtali.out_of_reach import addressed
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


def when(at: float) -> str:
    """A moment as Discord shows it, relative to each reader's now ("in 2 hours")."""
    return discord.utils.format_dt(dt.datetime.fromtimestamp(at, dt.UTC), "R")


async def turn_warning(svc: MatchService, live: LiveMatch, seat: int, left: int) -> None:
    """The turn's time is nearly up: a warning (forfeit to come), or by correspondence a
    reminder in the player's DM."""
    if live.control.on_timeout != "ask" or live.deadline is None:
        version, deadline = live.version, live.deadline
        try:
            await warn(svc, live, seat, left)
        except PASSING as e:
            log.info("match %d: the warning could not be sent for now (%s)", live.id, e)
            await _warn_again(svc, live, version, deadline)
        return
    tr = svc.seat_tr(live, seat)
    version, deadline = live.version, live.deadline
    other = safe_name(live.names_in(tr)[1 - seat])
    turn = turn_of(live)
    channel = f"<#{live.channel_id}>"
    if live.channel_lost and live.asks_when_late():
        # Played in DMs: the channel is gone, or closed to the bot.
        text = tr("Reminder: your turn in the Umtali match against {name} ends {when}; after "
                  "that, {name} may claim the session. Play from your hand here.", name=other,
                  when=when(deadline))
    elif live.channel_lost:
        text = tr("Reminder: your turn in the Umtali match against {name} ends {when}; after "
                  "that, you forfeit the session. Play from your hand here.", name=other,
                  when=when(deadline))
    elif live.asks_when_late():
        text = tr("Reminder: your turn in the Umtali match against {name} ends {when}; after "
                  "that, {name} may claim the session. Play in {channel}.", name=other,
                  when=when(deadline), channel=channel)
    else:  # the computer cannot be asked: the turn forfeits
        text = tr("Reminder: your turn in the Umtali match against {name} ends {when}; after "
                  "that, you forfeit the session. Play in {channel}.", name=other,
                  when=when(deadline), channel=channel)
    dm = await _dm(svc, live, seat, text, match_nonce(live, "reminder", *turn, deadline))
    if dm:
        await _unless_played(live, turn, deadline, dm)
        return
    if not live.channel_lost:
        tr = svc.public_tr(live)
        mention, mentions = addressed(live, seat, tr)
        said = tr("{mention}, your turn ends {when}; after that, {name} may claim the "
                  "session.", mention=mention, when=when(deadline), name=other) \
            if live.asks_when_late() else \
            tr("{mention}, your turn ends {when}; after that, you forfeit the session.",
               mention=mention, when=when(deadline))
        posted = await post(svc, live, said, mentions,
                            nonce=match_nonce(live, "reminder in the channel", *turn, deadline))
        if posted is not None:
            await _unless_played(live, turn, deadline, posted)
            return
    if dm is None or not live.channel_lost:
        # Failed for now (not refused for good, where it would fail every second): the
        # reminder is still to come, at the next check.
        await _warn_again(svc, live, version, deadline)


async def _warn_again(svc: MatchService, live: LiveMatch, version: int,
                      deadline: float | None) -> None:
    """A warning that failed for now (a 5xx, the network) is still to come, in the database
    as in memory: the next check tries again, if the turn is the same."""
    async with live.lock:
        if (live.over or not live.warned or live.version != version
                or live.deadline != deadline or deadline is None):
            return
        if await svc.store.set_deadline(live.id, version, deadline, owner=svc.owners.name):
            live.warned = False


async def _dm(svc: MatchService, live: LiveMatch, seat: int, text: str,
              nonce: str) -> discord.Message | Literal[False] | None:
    """A short DM to the seat's player (``nonce``: naming it, ``nonces``): the DM sent, False
    if they cannot be reached that way, None if it failed for now. Sent as the seat's panels
    are, one at a time (``in_dms.send_hand``; ``to_dms``): DMs closed meanwhile, the second
    to go finds them refused, not Discord (each refused request counts towards its limit)."""
    if live.is_computer(seat):
        return False
    user_id = live.player_ids[seat]

    async def send() -> discord.Message:
        channel_id = live.dm_channel_ids[seat]
        if channel_id is not None:
            # The DM channel known (the hand panel's): no user looked up first (a GET each).
            dm = svc.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            return await dm.send(text, nonce=nonce)
        user = svc.client.get_user(user_id) or await svc.client.fetch_user(user_id)
        return await user.send(text, nonce=nonce)

    async with live.dm_locks[seat]:
        try:
            sent = await to_dms(svc, live, seat, send)
        except PASSING as e:
            log.info("match %d: a DM to seat %d failed (%s)", live.id, seat, e)
            return None
    return False if sent is None else sent


async def post(svc: MatchService, live: LiveMatch, text: str,
                mentions: discord.AllowedMentions,
                view: discord.ui.View | None = None, *, nonce: str) -> discord.Message | None:
    """A time-control message in the match's channel (``nonce``: naming it, ``nonces``)."""
    channel = svc.client.get_partial_messageable(live.channel_id)
    try:
        if view is None:
            return await channel.send(text, allowed_mentions=mentions, nonce=nonce)
        return await channel.send(text, view=view, allowed_mentions=mentions, nonce=nonce)
    except GONE as e:
        # Refused for good: the match goes on in DMs, as when a delivery finds it so.
        await svc.delivery.lose_channel(live, e, channel.id)
        return None
    except PASSING as e:
        log.info("match %d: a time-control message could not be posted (%s)", live.id, e)
        return None


#: A turn first seen here (its match brought back by a start or a take-over, or given another
#: turn's time) is told only if it started less than this long ago: a DM panel's refresh later
#: in the turn is not its start, and the turn was told before.
FRESH = 15 * 60.0

Turn = tuple[int, int, int, int]
#: A turn as told: the turn, and None for its start, else the deadline "keep waiting" gave it
#: (told anew, by a new DM: the start's nonce would bring that one back). Not the deadline as
#: told: time given back moves it, and a process bringing the match back (a restart, a
#: take-over) tells the start again under another name, a second DM.
Told = tuple[Turn, float | None]


def turn_of(live: LiveMatch) -> Turn:
    """The turn being played: its game, hand, turn in the hand, and player. A move within the
    turn keeps it, and so does time given back; the saved state holds it over a restart."""
    session = live.session
    return session.game, session.hand_no, session.hand.turns, session.to_act


class TurnNotices:
    """By correspondence, a DM to the player whose turn starts (a DM panel's edit does not
    notify), once a turn (``turn_of``); another turn's time, given by the waiting player, is
    told too (``forget``)."""

    def __init__(self, svc: MatchService) -> None:
        self.svc = svc
        self.told: dict[int, Turn] = {}
        #: The turns whose DM failed for now (by match id): tried again at the clock's next
        #: check, named as at the first try.
        self.failed: dict[int, Told] = {}
        #: The turns given another turn's time ("keep waiting"), and the deadline it gave (by
        #: match id): told as the waiting player's choice.
        self.anew: dict[int, Told] = {}
        #: The turns a DM was sent here for, or is on its way (by match id): only these make
        #: the channel's mention of the turn silent. ``told`` alone is no DM: a turn brought
        #: back mid-turn is marked told, and nothing told the player here (review145).
        self.dm_told: dict[int, Turn] = {}
        self.telling: dict[int, Turn] = {}

    def forget(self, live: LiveMatch) -> None:
        """The turn was given another turn's time (its deadline now): told anew."""
        self.told.pop(live.id, None)
        self.anew[live.id] = (turn_of(live), live.deadline)

    def drop(self, match_id: int) -> None:
        """The match ended, or another process holds it now: nothing is kept for it here (a
        match brought back later is told as one first seen)."""
        self.told.pop(match_id, None)
        self.failed.pop(match_id, None)
        self.anew.pop(match_id, None)
        self.dm_told.pop(match_id, None)
        self.telling.pop(match_id, None)

    def tracked(self, match_id: int) -> bool:
        return match_id in self.told or match_id in self.failed or match_id in self.anew

    async def again(self) -> None:
        """The clock's check: the turns' DMs that failed for now, tried again. All taken at
        once: run beside the tick, a second check may start another round while this one
        waits on Discord, and each DM is to be tried by one round."""
        failed, self.failed = self.failed, {}
        for match_id, told in failed.items():
            live = self.svc.matches.get(match_id)
            if live is not None and self._due(live) and turn_of(live) == told[0]:
                await self._tell(live, told)

    async def __call__(self, live: LiveMatch) -> None:
        if self.svc.matches.get(live.id) is not live:
            # A copy not held here (shown as saved: a member's choice made through this
            # process, a delivery overtaken): its holder tells the turn. Told from here, it
            # would be told again at each such showing, nothing being kept for it here.
            await self._dropped(live)
            return
        if live.over:
            self.drop(live.id)
            if self._telling(live):
                for seat in (0, 1):
                    await turn_dms.played(self.svc, live, seat)
            return
        turn = turn_of(live)
        if self._telling(live):
            # The other seat's turn is played: its turn DM goes (one stands at most).
            await turn_dms.played(self.svc, live, 1 - live.session.to_act)
        if not self._due(live) or self.told.get(live.id) == turn:
            return
        first = live.id not in self.told
        self.told[live.id] = turn
        if first and self._in_mid_turn(live):
            return  # brought back in the middle of a turn told before
        anew = self.anew.get(live.id)
        await self._tell(live, (turn, anew[1] if anew is not None and anew[0] == turn else None))

    async def _dropped(self, live: LiveMatch) -> None:
        """A copy not held here tells nothing, but one held as its delivery began, dropped
        since, nothing held here now: another process took the match as it went out. Taken
        at this turn (``/umtali table``), that process tells the turn nothing (its delivery
        sends the table alone): told from here, as by a copy first seen, nothing kept.
        Played on there, that process tells its own turn."""
        if (not self.svc.delivery.began_held(live) or self.svc.matches.get(live.id) is not None
                or not self._due(live) or await self.svc.owners.played_past(live)):
            return
        if self._in_mid_turn(live):
            return  # in the middle of a turn told before
        await self._tell(live, (turn_of(live), None))

    def _in_mid_turn(self, live: LiveMatch) -> bool:
        """The turn to act began more than ``FRESH`` seconds ago (its clock run down so far)."""
        return live.deadline is not None and live.deadline - self.svc.clock() < (
            live.control.turn + live.reserves[live.session.to_act] - FRESH)

    def told_now(self, live: LiveMatch) -> bool:
        """The player to act was told this turn by a DM (that notified them) sent here, or is
        being told (the channel's mention of it is then sent silent). A turn marked told with
        no DM sent (brought back mid-turn, taken over, refused) is not: the mention pings."""
        turn = turn_of(live)
        return self._due(live) and turn in (self.dm_told.get(live.id),
                                            self.telling.get(live.id))

    @staticmethod
    def _telling(live: LiveMatch) -> bool:
        """Turns of the match are told by DM (by correspondence, two players)."""
        return live.control.notify_turn and live.computer_seat is None

    @staticmethod
    def _due(live: LiveMatch) -> bool:
        # Against the computer, whose reply comes within seconds of the player's move, a DM a
        # turn would be noise: the reminder before a turn's end still comes. With the channel
        # lost, the turn's new DM panel notifies and says as much (``in_dms``): a second DM.
        return (live.control.notify_turn and live.deadline is not None and not live.over
                and live.computer_seat is None and not live.channel_lost
                and live.reachable(live.session.to_act))

    async def _tell(self, live: LiveMatch, told: Told) -> None:
        turn, seat, deadline = told[0], told[0][3], live.deadline
        tr = self.svc.seat_tr(live, seat)
        name, ends = safe_name(live.names_in(tr)[1 - seat]), when(deadline or 0)
        channel = f"<#{live.channel_id}>"
        text = tr("Your turn in the Umtali match against {name}: play in {channel} (or from "
                  "your hand here). Your turn ends {when}.", name=name, channel=channel,
                  when=ends) if told[1] is None else \
            tr("{name} keeps waiting for your move in the Umtali match: play in {channel} (or "
               "from your hand here). Your turn now ends {when}.", name=name, channel=channel,
               when=ends)
        given = () if told[1] is None else ("given", told[1])
        self.telling[live.id] = turn
        try:
            sent = await _dm(self.svc, live, seat, text,
                             match_nonce(live, "turn", *turn, *given))
        finally:
            if self.telling.get(live.id) == turn:
                del self.telling[live.id]
        if sent:
            self.dm_told[live.id] = turn
        if sent is None:
            # Failed for now: still to tell, at the next check (if it is still this turn).
            self.failed[live.id] = told
        elif sent:
            # It stands, the seat's one before deleted; saved first, so that a process seeing
            # the turn played from now on deletes it.
            await turn_dms.stands(self.svc, live, seat, sent)
            # Sent outside the match's lock: the turn may have been played (or timed out)
            # while it was on its way. A move within the turn keeps it: still their turn. So
            # does time given to the turn meanwhile (an outage's, given back), as it keeps a
            # DM sent before: deleted, nothing would tell them the turn is theirs.
            if played(live, turn, live.deadline):
                await turn_dms.played(self.svc, live, seat, sent)


async def warn(svc: MatchService, live: LiveMatch, seat: int, left: int) -> None:
    """``left`` seconds remain for the seat's turn: say so where the player will see it (a new
    DM, which notifies, with the channel lost)."""
    deadline, turn = live.deadline, turn_of(live)
    if not live.channel_lost:
        channel = svc.client.get_partial_messageable(live.channel_id)
        tr = svc.public_tr(live)
        mention, mentions = addressed(live, seat, tr)
        try:
            sent = await channel.send(f"{mention}, {time_left(tr, left)}",
                                      allowed_mentions=mentions,
                                      nonce=match_nonce(live, "warning", *turn, deadline))
        except GONE as e:
            await svc.delivery.lose_channel(live, e, channel.id)
        else:
            await _unless_played(live, turn, deadline, sent)
            return
    if not played(live, turn, deadline):
        # Checked again once the seat's panel sent before it is out, which it waits for: the
        # turn may have been played meanwhile.
        # Named by its turn's deadline, not its words: tried again a check later, it says a
        # second less, and is the same warning (``nonces``).
        await svc.delivery.send_hand(live, seat, new=True,
                                     note=time_left(svc.seat_tr(live, seat), left),
                                     unless=lambda: played(live, turn, deadline),
                                     named=("warning", deadline))


def still_warned(svc: MatchService, live: LiveMatch, seat: int, now: float) -> str:
    """What the seat's panel says while a warning of its turn stands: given in a new panel
    (``warn``, the channel lost), any later draw of the panel in the turn would take it away
    (the table brought back to a channel, through another process too); said again there,
    with the time left then, by the deadline the clock judges the turn by
    (``judged_deadline``: time still owed to the turn, its clock standing still in an outage
    under way, here or at its holder's). By the deadline in memory it said fewer seconds than
    the player had meanwhile, and nothing once that one had passed. By correspondence the
    reminder is a DM of its own."""
    if not live.warned or live.over or live.deadline is None or \
            live.control.on_timeout == "ask" or seat != live.session.to_act:
        return ""
    deadline = judged_deadline(svc, live, now)
    if deadline is None or now >= deadline:
        return ""
    return time_left(svc.seat_tr(live, seat), max(1, round(deadline - now)))


def played(live: LiveMatch, turn: Turn, deadline: float | None) -> bool:
    """The turn that ends at ``deadline`` is over (played, or the match ended), or was
    given other time."""
    return live.over or turn_of(live) != turn or live.deadline != deadline


async def _unless_played(live: LiveMatch, turn: Turn, deadline: float | None,
                         sent: discord.Message) -> None:
    """A warning (or by correspondence a reminder, or the DM telling the turn's start) posted
    while the turn it speaks of was played (the lock let go, a move saved while it was on its
    way) would tell a player whose turn is over that it is theirs: it is deleted."""
    if not played(live, turn, deadline):
        return
    try:
        await sent.delete()
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: a message of a turn since played could not be deleted (%s)",
                 live.id, e)


def time_left(tr: Tr, left: int) -> str:
    """A turn's warning, with ``left`` seconds to go."""
    return tr.plural("{count} second left for your turn, or you forfeit the session.",
                     "{count} seconds left for your turn, or you forfeit the session.", left)
