"""The notices after downtime in a match's channel: the bot offline (a restart,
``clock.resume_after_downtime``; on the DM panels of a match played in DMs), the database
failing (``db_outage``, paid by ``give_back``): how long nobody could play, whose turn it still
is and when it now ends."""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.announcing import with_turn, your_turn
from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.out_of_reach import addressed
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger("cogs.umtali.clock")


def offline_notice(seconds: float, name: str, when: str, tr: Tr) -> str:
    """The notice after an outage: how long it was (in seconds, minutes or hours), whose turn
    it still is, and when that turn now ends."""
    minutes = round(seconds / 60)
    if minutes < 2:
        return tr.plural(
            "I was offline for {count} second, so nobody could play. It is still {name}'s "
            "turn, which now ends {when}.",
            "I was offline for {count} seconds, so nobody could play. It is still {name}'s "
            "turn, which now ends {when}.", round(seconds), name=name, when=when)
    if minutes < 120:
        return tr.plural(
            "I was offline for {count} minute, so nobody could play. It is still {name}'s "
            "turn, which now ends {when}.",
            "I was offline for {count} minutes, so nobody could play. It is still {name}'s "
            "turn, which now ends {when}.", minutes, name=name, when=when)
    return tr.plural(
        "I was offline for {count} hour, so nobody could play. It is still {name}'s turn, "
        "which now ends {when}.",
        "I was offline for {count} hours, so nobody could play. It is still {name}'s turn, "
        "which now ends {when}.", round(seconds / 3600), name=name, when=when)


async def offline_in_dms(svc: MatchService, live: LiveMatch, offline: float) -> None:
    """The notice after an outage on each player's DM panel (an edit: the turn's own new panel
    or warning notifies); one that fails for now is left to the panel's next edit."""
    if live.deadline is None:
        return
    stamp = discord.utils.format_dt(dt.datetime.fromtimestamp(live.deadline, dt.UTC), "R")
    for seat in (0, 1):
        tr = svc.seat_tr(live, seat)
        name = safe_name(live.names_in(tr)[live.session.to_act])
        try:
            await svc.delivery.send_hand(live, seat, note=offline_notice(offline, name, stamp, tr))
        except PASSING as e:
            log.info("match %d: the offline notice could not reach seat %d (%s)", live.id,
                     seat, e)


def unsaved_notice(svc: MatchService, live: LiveMatch, seconds: float, deadline: float) -> str:
    """The notice after a database outage of ``seconds``, in the match's channel: about how
    long I could not save moves (as seen: it may have failed a little before), whose
    turn it still is and when it now ends (``deadline``), pinging its player as a turn's
    announcement does."""
    stamp = discord.utils.format_dt(dt.datetime.fromtimestamp(deadline, dt.UTC), "R")
    tr = svc.public_tr(live)
    seat = live.session.to_act
    name = safe_name(live.names_in(tr)[seat])
    turn = your_turn(tr, addressed(live, seat, tr)[0])
    return with_turn(turn, _unsaved(seconds, name, stamp, tr))


def _unsaved(seconds: float, name: str, when: str, tr: Tr) -> str:
    minutes = round(seconds / 60)
    if minutes < 2:
        return tr.plural(
            "The database failed for about {count} second: I could not save moves, so "
            "nobody could play. It is still {name}'s turn, which now ends {when}.",
            "The database failed for about {count} seconds: I could not save moves, so "
            "nobody could play. It is still {name}'s turn, which now ends {when}.",
            round(seconds), name=name, when=when)
    if minutes < 120:
        return tr.plural(
            "The database failed for about {count} minute: I could not save moves, so "
            "nobody could play. It is still {name}'s turn, which now ends {when}.",
            "The database failed for about {count} minutes: I could not save moves, so "
            "nobody could play. It is still {name}'s turn, which now ends {when}.", minutes,
            name=name, when=when)
    return tr.plural(
        "The database failed for about {count} hour: I could not save moves, so nobody "
        "could play. It is still {name}'s turn, which now ends {when}.",
        "The database failed for about {count} hours: I could not save moves, so nobody "
        "could play. It is still {name}'s turn, which now ends {when}.", round(seconds / 3600),
        name=name, when=when)
