"""What a challenge says, in the server's language as posted (everyone in the channel reads
it): its embed and buttons, the lines it ends with (declined, withdrawn, accepted and the draw
for first dealer), and, privately, why a limit against spam refused one."""

from __future__ import annotations

import datetime as dt
import math

import discord

from cogs.umtali.durations import wait_seconds
from cogs.umtali.fair import sealed_offer_line, seats_line
from cogs.umtali.names import challenge_names, safe_name
from cogs.umtali.options import clock_words, rules_words
from cogs.umtali.panels import challenge_panel
from cogs.umtali.render import COLOUR
from cogs.umtali.rules_text import command
from cogs.umtali.time_control import time_control
from data.models import Challenge
from data.store import Refused
from umtali.i18n import Tr


def challenge_refusal(e: Refused, opponent: str, tr: Tr) -> str:
    """Why a limit against spam refused a challenge, in a sentence."""
    if e.reason == "stopped":
        # Neutral, and only to the challenger: nothing is posted, nobody pinged.
        return tr("{opponent} isn't taking challenges from you.", opponent=opponent)
    # Units in words with their plural forms, rounded up (a bare "s" or "h" is read as the
    # letter; a wait said short of its end would be refused again), as ``errors`` says its own.
    hours = math.ceil(e.retry_after / 3600)
    minutes = max(1, math.ceil(e.retry_after / 60))
    if e.reason == "declined" and e.retry_after > 3600:
        return tr.plural("{opponent} declined your last challenge: you can challenge them "
                         "again in {count} hour.",
                         "{opponent} declined your last challenge: you can challenge them "
                         "again in {count} hours.", hours, opponent=opponent)
    if e.reason == "unanswered" and e.retry_after > 3600:
        return tr.plural("You have challenged {opponent} several times of late with no answer: "
                         "you can challenge them again in {count} hour.",
                         "You have challenged {opponent} several times of late with no answer: "
                         "you can challenge them again in {count} hours.", hours,
                         opponent=opponent)
    if e.reason == "pair" and e.mine:
        # Withdrawn with its Decline button (``answer_challenge``), as the README says.
        return tr("You have already challenged {opponent}: wait for their answer, or withdraw "
                  "it with its **{button}** button.", opponent=opponent,
                  button=tr.ctx("button", "Decline"))
    if e.reason == "pair":
        return tr("There is already an open challenge between you and {opponent}: answer it, "
                  "or wait until it expires.", opponent=opponent)
    if e.reason == "declined":
        return tr.plural("{opponent} declined your last challenge: you can challenge them "
                         "again in {count} minute.",
                         "{opponent} declined your last challenge: you can challenge them "
                         "again in {count} minutes.", minutes, opponent=opponent)
    if e.reason == "unanswered":
        return tr.plural("You have challenged {opponent} several times of late with no answer: "
                         "you can challenge them again in {count} minute.",
                         "You have challenged {opponent} several times of late with no answer: "
                         "you can challenge them again in {count} minutes.", minutes,
                         opponent=opponent)
    if e.reason == "open":
        return tr("You have too many open challenges: wait until one is answered or expires "
                  "before you send another.")
    return tr.plural("Slow down: you can send another challenge in {count} second.",
                     "Slow down: you can send another challenge in {count} seconds.",
                     wait_seconds(e.retry_after))


def challenge_embed(ch: Challenge, tr: Tr, status: str = "") -> discord.Embed:
    """The challenge as posted, in the server's language; ``status`` once it is answered."""
    text = tr("<@{challenger}> challenges <@{opponent}> to a session of Umtali (best of three "
              "games of four hands).\nRules: {rules} · clock: {timer}.",
              challenger=ch.challenger_id, opponent=ch.opponent_id,
              rules=rules_words(tr, ch.variant, ch.optional_melding),
              timer=clock_and_time_out(tr, ch))
    if ch.rematch_of is not None:
        text += "\n" + tr("A rematch of session #{match}: the seats are turned round.",
                          match=ch.rematch_of)
    text += "\n" + seats_line(ch.seated[0][0], ch.seated[1][0], tr)
    if ch.commitment:
        text += "\n" + sealed_offer_line(ch.commitment, tr)
    if status:
        text += f"\n**{status}**"
    else:
        expires = discord.utils.format_dt(dt.datetime.fromtimestamp(ch.expires_at, dt.UTC), "R")
        text += "\n" + tr("The challenge expires {when}.", when=expires)
        # A member invited by a friend may never have played: where to learn, before they
        # answer. The command is named in the server's language, as the whole embed is (it is
        # everyone's): a command mention (</umtali rules:ID>) would not name it in each reader's
        # own, for Discord draws a mention with the name written in it, never the reader's
        # localized one (discord/discord-api-docs#5518, #7309), and one written in another
        # language does not run the command.
        text += "\n" + tr("New to Umtali? `{rules}` explains the game, privately.",
                           rules=command(tr, ("umtali", "rules")))
    return discord.Embed(title=tr("Umtali challenge"), description=text, colour=COLOUR)


def clock_and_time_out(tr: Tr, ch: Challenge) -> str:
    """The challenge's clock and what running out does between two members (fix187), as the
    practice offer says its own: blitz, normal and a bare turn timer forfeit; by
    correspondence the waiting player is asked (``LiveMatch.asks_when_late``)."""
    words = clock_words(tr, ch.time_control, ch.turn_timer)
    control = time_control(ch.time_control, ch.turn_timer)
    if not control.timed:
        return words
    if control.on_timeout == "ask":
        return tr("{clock}; run out of time and your opponent may claim the session",
                  clock=words)
    return tr("{clock}; run out of time and you lose the session", clock=words)


def challenge_buttons(ch: Challenge, tr: Tr) -> discord.ui.View:
    """Accept and Decline, in the server's language (everyone in the channel sees them)."""
    return challenge_panel(ch.id, tr, (ch.challenger_id, ch.opponent_id))


def declined(ch: Challenge, tr: Tr) -> str:
    return tr("{name} declined.", name=safe_name(challenge_names(ch, tr)[1]))


def withdrawn(ch: Challenge, tr: Tr) -> str:
    return tr("{name} withdrew the challenge.", name=safe_name(challenge_names(ch, tr)[0]))


def accepted(accepter: str, names: tuple[str, str], drawn: str, dealer: int, tr: Tr) -> str:
    """The challenge accepted by ``accepter`` (always the challenged member: in a rematch the
    seats are turned round, so not always seat 1), and the draw for first dealer (``drawn``,
    as the names by seat show)."""
    return tr("{name} accepted.", name=accepter) + " " + dealer_drawn(drawn, names[dealer], tr)


def dealer_drawn(drawn: str, dealer: str, tr: Tr) -> str:
    return tr("Draw for first dealer: {rounds}. {name} deals first.", rounds=drawn, name=dealer)
