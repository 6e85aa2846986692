"""Running out of time under a time control: warnings and reminders, the turn's DM by
correspondence, and the waiting player's choice when a correspondence turn's time is up.

By correspondence nobody forfeits on the clock: at the deadline the clock stops (the deadline
saved as none, so a restart does not ask again) and the waiting player is asked, in the match's
channel, whether to claim the session or to give the absent player another turn's time. The
absent player may still move meanwhile; the buttons carry the turn's version, so a move makes
them answer that they are no longer needed.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.delivery import GONE, PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import only, ping
from cogs.umtali.names import safe_name
from cogs.umtali.outbox import Batch
from cogs.umtali.panels import timeout_panel
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)


def _when(at: float) -> str:
    return discord.utils.format_dt(dt.datetime.fromtimestamp(at, dt.UTC), "R")


# -- warnings --------------------------------------------------------------------------------

async def turn_warning(svc: MatchService, live: LiveMatch, seat: int, left: int) -> None:
    """The turn's time is nearly up: a warning (forfeit to come), or by correspondence a
    reminder in the player's DM."""
    if live.control.on_timeout != "ask" or live.deadline is None:
        await svc.delivery.warn(live, seat, left)
        return
    deadline, other = live.deadline, safe_name(live.names[1 - seat])
    tr = svc.seat_tr(live, seat)
    channel = f"<#{live.channel_id}>"
    text = tr("Reminder: your turn in the Umtali match against {name} ends {when}; after "
              "that, {name} may claim the session. Play in {channel}.", name=other,
              when=_when(deadline), channel=channel)
    if await _dm(svc, live, seat, text):
        return
    if not live.channel_lost:
        tr = svc.public_tr(live)
        said = tr("{mention}, your turn ends {when}; after that, {name} may claim the "
                  "session.", mention=ping(live.player_ids[seat]), when=_when(deadline),
                  name=other)
        await _post(svc, live, said, only(live.player_ids[seat]))


async def _dm(svc: MatchService, live: LiveMatch, seat: int, text: str) -> bool:
    """A short DM to the seat's player; False if they cannot be reached that way."""
    if live.dm_refused[seat] or live.is_computer(seat):
        return False
    user_id = live.player_ids[seat]
    try:
        user = svc.client.get_user(user_id) or await svc.client.fetch_user(user_id)
        await user.send(text)
    except (*GONE, *PASSING) as e:
        log.info("match %d: a DM to seat %d failed (%s)", live.id, seat, e)
        return False
    return True


async def _post(svc: MatchService, live: LiveMatch, text: str,
                mentions: discord.AllowedMentions,
                view: discord.ui.View | None = None) -> bool:
    channel = svc.client.get_partial_messageable(live.channel_id)
    try:
        if view is None:
            await channel.send(text, allowed_mentions=mentions)
        else:
            await channel.send(text, view=view, allowed_mentions=mentions)
    except (*GONE, *PASSING) as e:
        log.info("match %d: a time-control message could not be posted (%s)", live.id, e)
        return False
    return True


class TurnNotices:
    """By correspondence, a DM to the player whose turn starts (a DM panel's edit does not
    notify), once a turn: a turn is told apart by its version and deadline (another turn's
    time, given by the waiting player, is told too)."""

    def __init__(self, svc: MatchService) -> None:
        self.svc = svc
        self.told: dict[int, tuple[int, float]] = {}

    async def __call__(self, live: LiveMatch) -> None:
        if live.over:
            self.told.pop(live.id, None)
            return
        seat = live.session.to_act
        if (not live.control.notify_turn or live.deadline is None
                or self.told.get(live.id) == (live.version, live.deadline)
                or not live.reachable(seat)):
            return
        self.told[live.id] = (live.version, live.deadline)
        tr = self.svc.seat_tr(live, seat)
        channel = f"<#{live.channel_id}>"
        await _dm(self.svc, live, seat, tr(
            "Your turn in the Umtali match against {name}: play in {channel} (or from your "
            "hand here). Your turn ends {when}.", name=safe_name(live.names[1 - seat]),
            channel=channel, when=_when(live.deadline)))


# -- the waiting player's choice -------------------------------------------------------------

def question(live: LiveMatch, absent: int, tr: Tr) -> str:
    waiting = 1 - absent
    return tr("{mention}, {name}'s time for this turn is up. Claim the win, or keep waiting and "
              "give {name} another turn's time?", mention=ping(live.player_ids[waiting]),
              name=safe_name(live.names[absent]))


async def ask_waiting_player(svc: MatchService, live: LiveMatch, now: float) -> bool:
    """The turn's time is up: stop its clock and ask the waiting player. Never forfeits
    (returns False); if the question cannot be posted, the clock runs on and the next check
    asks again."""
    async with live.lock:
        if live.over or live.deadline is None or now < live.deadline:
            return False
        deadline, version, absent = live.deadline, live.version, live.session.to_act
        # Claimed in the database: of two processes, one asks.
        if not await svc.owners.leases.stop_clock(live.id, version):
            return False
        live.deadline = None
    tr = svc.public_tr(live)
    waiting = live.player_ids[1 - absent]
    asked = not live.channel_lost and await _post(
        svc, live, question(live, absent, tr), only(waiting), timeout_panel(live.id, version, tr))
    if not asked and not live.dm_refused[1 - absent]:
        # The channel is lost: the question reaches the waiting player in their DMs.
        dm = svc.seat_tr(live, 1 - absent)
        try:
            user = svc.client.get_user(waiting) or await svc.client.fetch_user(waiting)
            await user.send(question(live, absent, dm), view=timeout_panel(live.id, version, dm))
            asked = True
        except (*GONE, *PASSING) as e:
            log.info("match %d: the time-up question could not be sent (%s)", live.id, e)
    async with live.lock:
        if not asked and live.version == version and live.deadline is None and not live.over:
            # Nobody was asked: the clock runs on, and the next check tries again.
            await svc.store.set_deadline(live.id, version, deadline)
            live.deadline = deadline
            return False
    log.info("match %d: seat %d's time is up; seat %d asked", live.id, absent, 1 - absent)
    svc.delivery.enqueue(live, Batch(table=True))
    return False


async def answer_timeout(interaction: discord.Interaction, match_id: int, version: int,
                         claim: bool) -> None:
    """"Claim the win" ends the session (once, whoever clicks twice); "Keep waiting" gives the
    absent player another turn's time. Only the waiting player may choose."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    live = await svc.lookup(match_id)
    if live is None or live.over or live.version != version or live.deadline is not None:
        await interaction.response.send_message(
            tr("This question is no longer needed: the match moved on."), ephemeral=True)
        await _drop_buttons(interaction)
        return
    absent = live.session.to_act
    if interaction.user.id != live.player_ids[1 - absent]:
        await interaction.response.send_message(
            tr("Only {name} can answer this.", name=safe_name(live.names[1 - absent])),
            ephemeral=True)
        return
    public = svc.public_tr(live)
    if not await decide(svc, live, version, claim):
        await interaction.response.send_message(
            tr("This question is no longer needed: the match moved on."), ephemeral=True)
        await _drop_buttons(interaction)
        return
    text = question(live, absent, public) + "\n" + answered(live, absent, claim, public)
    await interaction.response.edit_message(content=text[:2000], view=None)
    if not claim:
        svc.delivery.enqueue(live, Batch(table=True, hands={absent}))


async def decide(svc: MatchService, live: LiveMatch, version: int, claim: bool) -> bool:
    """Under the match's lock: the session ends as timed out (``claim``), or the absent
    player gets another turn's time; False if the question was answered or the match moved
    on meanwhile (of two clicks racing, one wins)."""
    async with live.lock:
        if live.over or live.version != version or live.deadline is not None:
            return False
        absent = live.session.to_act
        if claim:
            return await svc._resign(live, absent, "timed out")
        # The clock runs where the match is held: here, from now on.
        await svc.owners.hold(live)
        deadline = live.control.deadline(svc.clock(), live.reserves[absent])
        if not await svc.store.set_deadline(live.id, version, deadline):
            return False
        live.deadline, live.warned = deadline, False
        return True


def answered(live: LiveMatch, absent: int, claim: bool, tr: Tr) -> str:
    """The waiting player's answer, added to the question."""
    waiting, gone = safe_name(live.names[1 - absent]), safe_name(live.names[absent])
    if claim:
        return tr("{name} claimed the win.", name=waiting)
    return tr("{name} keeps waiting: {other} has until {when}.", name=waiting, other=gone,
              when=_when(live.deadline or 0))


async def _drop_buttons(interaction: discord.Interaction) -> None:
    """The question's buttons are of no more use: take them off its message."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(view=None)
    except discord.HTTPException as e:
        log.info("the time-up question's buttons could not be removed (%s)", e)
