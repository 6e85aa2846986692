"""Answering a resignation's confirmation: its "Yes" (the player's wish holds while the hand
they were asked in is still played) and its "No"."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.actions import ephemeral, live_of, player_of, private_panel
from cogs.umtali.in_time import edit_clicked, in_time
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import command
from cogs.umtali.names import safe_name
from cogs.umtali.permissions import member_standing, sees
from data.failing import failing_for_now
from umtali.i18n import N_, Tr
from umtali.session import Session

log = logging.getLogger(__name__)

#: Resignations tried while another process keeps moving the match on (each time read again
#: and checked anew): a bound, never reached in play.
RESIGN_TRIES = 5

#: How long the opponent of a match with no clock must have been out of reach (counted from
#: when the bot first found them so) before a "Yes" to resign ends it with no result: a day,
#: so that a kick for a moment (a losing player's friend's, or their own) voids nothing.
NO_RESULT_AFTER = 24 * 3600.0


def same_hand(session: Session, version: int | None) -> bool:
    """Whether the hand in play is still the one in play at ``version`` (moves since then
    played in it, none ending it)."""
    if version is None or not 0 <= version <= len(session.moves):
        return False
    if version == len(session.moves):
        return True
    # Replayed to where it was asked (a whole session replays in about a millisecond).
    then, _ = Session.replay(session.rules, session.seed, session.moves[:version],
                             session.first_deal)
    return (then.game, then.hand_no) == (session.game, session.hand_no)


async def confirm_resign(interaction: discord.Interaction, match_id: int,
                         version: int | None, promise: str | None = "loss") -> None:
    """Resign the session, as asked at ``version``. The player's wish holds whatever moves
    were made in the hand since (the computer's or the opponent's, or their own); once that
    hand ended, the position is one they were not asked about (another hand, another game),
    and the question has expired. A confirmation of old, with no version, has too, and so has
    one with no ``promise``: it cannot say whether it agreed to a loss or to no result.
    ``promise`` "void": asked while the opponent had left, the "Yes" ends the match with no
    result, and nothing else (never a rated loss)."""
    tr = tr_of(interaction)
    found = await player_of(interaction, match_id, tr("This is not your match."))
    if found is None:
        return
    live, seat = found
    if promise is None or not same_hand(live.session, version):
        await ephemeral(interaction, tr(EXPIRED, command=command(tr, "umtali", "resign")))
        return
    svc = service(interaction.client)
    name = safe_name(live.names_in(tr)[1 - seat])
    # Nothing else would ever end a match with no clock whose opponent left: no clock
    # forfeits the one gone, who can no longer play, nor resign (the server's commands).
    # Ended as a match nobody can finish is: no result, not a loss to a player who walked
    # away (nor a win an admin's kick would give). Only once they have been gone a day: a
    # kick for a moment voids nothing (``NO_RESULT_AFTER``).
    absence = await opponent_absence(interaction, live, seat)
    if absence == UNSAVED:
        await ephemeral(interaction, unsaved(name, tr))
        return
    if isinstance(absence, Gone) and absence.over(svc.clock()):
        if await in_time(interaction, svc.abandon(live)):
            await answer_clicked(interaction, tr(
                "{name} has left the server, and this match has no clock: it ends with no "
                "result. Nobody wins it and no rating changed; you are free to start another.",
                name=name) if absence.how == "left" else tr(
                "{name} can't see this match's channel and doesn't take my direct messages, "
                "and this match has no clock: it ends with no result. Nobody wins it and no "
                "rating changed; you are free to start another.", name=name))
        else:  # ended meanwhile, the one thing that stops an abandon
            await ephemeral(interaction, tr("This match is over."))
        return
    if promise == "void":
        # Promised no result, which only an opponent gone a day gives: anything else is a
        # question they did not answer. Unknown, the question stands, to be clicked again.
        if absence is None:
            await ephemeral(interaction, tr(
                "Couldn't check whether {name} is still on the server, so nothing changed: "
                "try again in a moment.", name=name))
        elif isinstance(absence, Gone):
            # Back, then gone again since the question: their day starts anew.
            await answer_clicked(interaction, tr(
                "{name} came back, and was found out of reach again {since}: the match can end "
                "with no result from {until}. This question is out of date, and nothing "
                "changed. Use {command} again if you still want to stop.", name=name,
                since=stamp(absence.since, "R"), until=stamp(absence.void_from, "f"),
                command=command(tr, "umtali", "resign")))
        else:
            await answer_clicked(interaction, tr(
                "{name} is back on the server: this question is out of date, and nothing "
                "changed. Use {command} again if you still want to stop.",
                name=name, command=command(tr, "umtali", "resign")))
        return
    for _ in range(RESIGN_TRIES):
        if not same_hand(live.session, version):
            break
        # Checked again under the match's lock: the moves landing meanwhile (a computer's
        # turn, move by move) are looked at there; a try is spent only on a copy another
        # process moved on, read again.
        if await in_time(interaction, svc.resign(
                live, seat, still=lambda session: same_hand(session, version))):
            await answer_clicked(interaction, tr("You resigned: {name} wins the session.",
                                                  name=name))
            return
        if live.over:
            await ephemeral(interaction, tr("This match is over."))
            return
    await ephemeral(interaction, tr(EXPIRED, command=command(tr, "umtali", "resign")))


def stamp(at: float, style: discord.utils.TimestampStyle) -> str:
    """A moment as Discord shows it to each reader, in their time zone and language."""
    return discord.utils.format_dt(dt.datetime.fromtimestamp(at, dt.UTC), style)


@dataclass(frozen=True)
class Gone:
    """The opponent of a match with no clock out of reach: ``how`` ("left" the server, or
    "away": hidden from its channel, their DMs refusing the bot), ``since`` when the bot first
    found them so (saved: ``Store.gone_since``)."""

    how: str
    since: float

    @property
    def void_from(self) -> float:
        """From when a "Yes" to resign ends the match with no result."""
        return self.since + NO_RESULT_AFTER

    def over(self, now: float) -> bool:
        """Whether they have been out of reach long enough for no result."""
        return now >= self.void_from


def resign_question(live: LiveMatch, seat: int, gone: Gone | None, now: float,
                    tr: Tr) -> str:
    """What ``/umtali resign`` asks; ``gone``: the opponent of a match with no clock cannot be
    reached (``opponent_absence``): a day after they were first found so, a "Yes" ends it with no
    result; before, it is a resignation, and the question says so, and from when."""
    name = safe_name(live.names_in(tr)[1 - seat])
    if gone is not None and gone.over(now):
        if gone.how == "left":
            return tr("{name} has left the server, and this match has no clock: Yes ends it "
                      "with no result (nobody wins it, no rating changes).", name=name)
        return tr("{name} can't see this match's channel and doesn't take my direct messages, "
                  "and this match has no clock: Yes ends it with no result (nobody wins it, "
                  "no rating changes).", name=name)
    if gone is not None:
        since, until = stamp(gone.since, "R"), stamp(gone.void_from, "f")
        if gone.how == "left":
            return tr("{name} has left the server (first found out of reach {since}), and "
                      "this match has no clock. If {name} is still gone at {until} (a day "
                      "after I first found them gone), Yes then ends it with no result. Yes now "
                      "is a resignation: {name} wins the session.",
                      name=name, since=since, until=until)
        return tr("{name} can't see this match's channel and doesn't take my direct messages "
                  "(first found out of reach {since}), and this match has no clock. If {name} "
                  "is still out of reach at {until} (a day after I first found them so), Yes "
                  "then ends it with no result. Yes now is a resignation: {name} wins the "
                  "session.",
                  name=name, since=since, until=until)
    return tr("Resign the session? Your opponent wins it.")


#: The standings of an opponent nobody can reach in a match with no clock (``opponent_gone``).
GONE = ("left", "away")


async def opponent_absence(interaction: discord.Interaction, live: LiveMatch,
                           seat: int) -> Gone | str | None:
    """How ``seat``'s opponent, a member, cannot be reached in a match with no clock, which
    nothing else would ever end (a timed match's clock forfeits the one gone as it would anyone
    absent): ``Gone``, "left" the match's server (left, kicked or banned: the bot hears
    nothing of it), or "away" (still a member, no longer allowed to see its channel, their DMs
    refusing the bot), with since when as saved: now, if they were not
    found so before (saved first: a restart or another process counts from it too); "here"
    where neither (found in reach, what was saved is forgotten: a later absence counts from
    its own start), or where it does not matter; None where Discord could not say; ``UNSAVED``
    where the database failed (nothing was changed)."""
    standing = await opponent_standing(interaction, live, seat)
    svc = service(interaction.client)
    try:
        if standing == "reached":
            await in_time(interaction, svc.store.found_back(live.id, 1 - seat))
            return "here"
        if standing in GONE:
            since = await in_time(interaction, svc.store.gone_since(live.id, 1 - seat,
                                                                    svc.clock()))
            # (None: the match is in no database any more, a fault said where it is read.)
            return "here" if since is None else Gone(standing, since)
    except Exception as e:
        if not failing_for_now(e):
            raise
        # Not known as saved, the day's start could be another's: nothing is done on it.
        log.warning("match %d: whether seat %d is out of reach could not be saved (%s: %s)",
                    live.id, 1 - seat, e.__class__.__name__, e)
        return UNSAVED
    return standing


#: ``opponent_absence``'s answer where the database failed: nothing was done, nor is.
UNSAVED = "unsaved"


def unsaved(name: str, tr: Tr) -> str:
    """Said where ``opponent_absence`` is ``UNSAVED``."""
    return tr("The database did not answer as I checked whether {name} can still be reached, "
              "so nothing changed: try again in a moment.", name=name)


async def opponent_standing(interaction: discord.Interaction, live: LiveMatch,
                            seat: int) -> str | None:
    """"left" or "away" where ``opponent_absence`` says ``Gone``; "reached" where Discord was
    asked, and they are neither; "here" where it does not matter (a timed match, the
    computer, a match over, a click from another server); None where Discord could not say."""
    if live.over or live.control.timed or live.is_computer(1 - seat):
        return "here"
    # Asked of the match's server alone: the id names the match only, and a "Yes" sent from
    # another server (a forged id) would find there an opponent who was never on it.
    if interaction.guild_id != live.guild_id:
        return "here"
    said, member = await in_time(interaction, member_standing(interaction,
                                                              live.player_ids[1 - seat]))
    if said == "left":
        return "left"
    if member is None:
        return None
    # Seen from the match's channel (asked from another, its answer is that one's). Hidden
    # from it but open to DMs, they still play there: in reach.
    guild = interaction.guild
    channel = None if guild is None else guild.get_channel_or_thread(live.channel_id)
    hidden = channel is not None and not sees(channel, member)
    return "away" if hidden and live.dm_refused[1 - seat] else "reached"


EXPIRED = N_("This confirmation has expired: the match has moved on. Use {command} again if "
             "you still want to resign.")


async def cancel_resign(interaction: discord.Interaction, match_id: int) -> None:
    tr = tr_of(interaction)
    live = await live_of(interaction, match_id)
    # Ended meanwhile (resigned from another confirmation, timed out, played out): there is
    # nothing left to play on in.
    said = (tr("This match is over.") if live is None or live.over
            # Its id names the match alone: anyone may send it (a forged click).
            else tr("This is not your match.") if live.seat_of(interaction.user.id) is None
            else tr("Cancelled: you play on."))
    await answer_clicked(interaction, said)


async def answer_clicked(interaction: discord.Interaction, text: str) -> None:
    """The confirmation clicked replaced by ``text``, its buttons gone; on a public message
    (a forged id), ``text`` as a private answer, the message left alone."""
    if private_panel(interaction) is None:
        await ephemeral(interaction, text)
    else:
        await edit_clicked(interaction, content=text, view=None)
