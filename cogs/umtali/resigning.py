"""Answering a resignation's confirmation: its "Yes" (the player's wish holds while the hand
they were asked in is still played) and its "No"."""

from __future__ import annotations

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.actions import ephemeral, live_of, player_of, private_panel
from cogs.umtali.in_time import edit_clicked, in_time
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import command
from cogs.umtali.names import safe_name
from cogs.umtali.permissions import member_standing, sees
from umtali.i18n import N_, Tr
from umtali.session import Session

#: Resignations tried while another process keeps moving the match on (each time read again
#: and checked anew): a bound, never reached in play.
RESIGN_TRIES = 5


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
    # away (nor a win an admin's kick would give).
    gone = await opponent_standing(interaction, live, seat)
    if gone in GONE:
        if await in_time(interaction, svc.abandon(live)):
            await answer_clicked(interaction, tr(
                "{name} has left the server, and this match has no clock: it ends with no "
                "result. Nobody wins it and no rating changed; you are free to start another.",
                name=name) if gone == "left" else tr(
                "{name} can't see this match's channel and doesn't take my direct messages, "
                "and this match has no clock: it ends with no result. Nobody wins it and no "
                "rating changed; you are free to start another.", name=name))
        else:  # ended meanwhile, the one thing that stops an abandon
            await ephemeral(interaction, tr("This match is over."))
        return
    if promise == "void":
        # Promised no result, which only an opponent gone gives: anything else is a question
        # they did not answer. Unknown, the question stands, to be clicked again.
        if gone is None:
            await ephemeral(interaction, tr(
                "Couldn't check whether {name} is still on the server, so nothing changed: "
                "try again in a moment.", name=name))
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


def resign_question(live: LiveMatch, seat: int, gone: str | None, tr: Tr) -> str:
    """What ``/umtali resign`` asks; ``gone``: the opponent of a match with no clock cannot be
    reached (``opponent_gone``), which a "Yes" ends with no result."""
    name = safe_name(live.names_in(tr)[1 - seat])
    if gone == "left":
        return tr("{name} has left the server, and this match has no clock: Yes ends it with "
                  "no result (nobody wins it, no rating changes).", name=name)
    if gone == "away":
        return tr("{name} can't see this match's channel and doesn't take my direct messages, "
                  "and this match has no clock: Yes ends it with no result (nobody wins it, "
                  "no rating changes).", name=name)
    return tr("Resign the session? Your opponent wins it.")


#: The standings of an opponent nobody can reach in a match with no clock (``opponent_gone``).
GONE = ("left", "away")


async def opponent_gone(interaction: discord.Interaction, live: LiveMatch,
                        seat: int) -> str | None:
    """How ``seat``'s opponent, a member, cannot be reached in a match with no clock, which
    nothing else would ever end: "left" the match's server (left, kicked or banned: the bot
    hears nothing of it), or "away": still a member, but no longer allowed to see its channel,
    their DMs refusing the bot. None otherwise. A timed match's clock forfeits the one gone
    as it would anyone absent."""
    gone = await opponent_standing(interaction, live, seat)
    return gone if gone in GONE else None


async def opponent_standing(interaction: discord.Interaction, live: LiveMatch,
                            seat: int) -> str | None:
    """"left" or "away" where ``opponent_gone``; "here" where neither, or where it does not
    matter (a timed match, the computer, a match over, a click from another server); None
    where Discord could not say."""
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
    # from it but open to DMs, they still play there: here.
    guild = interaction.guild
    channel = None if guild is None else guild.get_channel_or_thread(live.channel_id)
    hidden = channel is not None and not sees(channel, member)
    return "away" if hidden and live.dm_refused[1 - seat] else "here"


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
