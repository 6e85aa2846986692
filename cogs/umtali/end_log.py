"""One INFO line for each session's start and end, for whoever runs the bot (review166: three
sessions played left nothing between "Invite link" and "Closed"). Ids, never names: a log is
kept and shared where the players' names have no business; and no line per move."""

from __future__ import annotations

import logging

from cogs.umtali.live import LiveMatch

log = logging.getLogger(__name__)


def kind(live: LiveMatch) -> str:
    return "practice" if live.computer_seat is not None else "rated"


def log_start(live: LiveMatch) -> None:
    log.info("match %d started: guild %d, %s, %s rules", live.id, live.guild_id, kind(live),
             live.session.rules.name)


def _lasted(seconds: float) -> str:
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, seconds_left = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{seconds_left:02d}s" if hours else \
        f"{minutes}m{seconds_left:02d}s"


def log_end(live: LiveMatch, now: float) -> None:
    """Said by the process that saved the end, once it is saved: its result (the winning seat
    and how, or how it ended with none), the games won, how long it lasted and its moves."""
    session = live.session
    if session.over:
        result = f"seat {session.winner} won ({session.how})"
    else:
        by = f" by server admin {live.ended_by}" if live.ended_by is not None else ""
        result = f"no result ({live.ended or 'abandoned'}{by})"
    won = session.games_won
    lasted = _lasted(now - live.started) if live.started else "?"
    log.info("match %d ended: guild %d, %s, %s, games %d-%d, %s, %d moves", live.id,
             live.guild_id, kind(live), result, won[0], won[1], lasted, len(session.moves))
