"""``/umtali-admin end-match`` as the admin sees it: a member's match or one chosen by its
number (``match``, suggested from the server's matches in play as the admin types: a match
whose players left the server is out of the member picker's reach), the question asked before
it ends (``admin_confirm``), the answers, and the suggestions. The ending itself:
``admin_end``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.umtali.access import service, tr_of
from cogs.umtali.admin_confirm import asked
from cogs.umtali.admin_end import (
    database_failed,
    end_match,
    match_number,
    notice_of,
    tell_ended,
    to_end,
)
from cogs.umtali.departures import has_left
from cogs.umtali.in_time import answer, in_time
from cogs.umtali.mentions import NO_MENTIONS, command
from cogs.umtali.names import MAX_ECHO, label_name, member_name, safe_text, shorten
from cogs.umtali.options import names_in
from cogs.umtali.private import send_private
from cogs.umtali.suggesting import suggested
from cogs.umtali.text_cuts import ELLIPSIS
from cogs.umtali.unheard import InDoubt
from data.failing import failing_for_now
from data.models import MatchRow
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)
#: Discord's most for a choice's label.
LABEL = 100


async def run_end_match(interaction: discord.Interaction,
                        member: discord.Member | discord.User | None,
                        match: str | None) -> None:
    """Find the member's match, or the match numbered ``match``, and ask the admin whether
    to end it (ephemeral): **End it** ends it (``admin_confirm``, then ``finish``). What
    would refuse the ending (no such match here, over, the admin's own) is said at once."""
    assert interaction.guild is not None
    svc = service(interaction.client)
    tr = tr_of(interaction)
    if (member is None) == (match is None):
        await answer(interaction, tr("Give either a member or a match, one of the two: nothing "
                                     "changed."))
        return
    number = None if match is None else match_number(match)
    if match is not None and number is None:
        await answer(interaction, tr(
            "“{typed}” is not a match number: choose a match from the suggestions, or type its "
            "number. Nothing changed.", typed=safe_text(shorten(match.strip(), MAX_ECHO))))
        return
    try:
        found = await in_time(interaction, to_end(
            svc, interaction.guild.id, interaction.user.id,
            member_id=None if member is None else member.id, match_id=number))
    except Exception as e:
        if not failing_for_now(e):
            raise
        # A read alone: nothing was changed, nor asked.
        log.warning("server admin %d's end of a match could not be read (%s: %s)",
                    interaction.user.id, e.__class__.__name__, e)
        await answer(interaction, tr("The match could not be ended (the database failed): "
                                     "nothing changed. Try again in a moment."))
        return
    if not isinstance(found, MatchRow):
        await answer(interaction, _refusal(
            tr, found, "" if member is None else member_name(member), number))
        return
    text, view = asked(found, interaction.user.id, _ago(tr, svc.clock() - found.created_at), tr)
    await send_private(interaction, view, content=text, allowed_mentions=NO_MENTIONS)


async def finish(interaction: discord.Interaction, match_id: int,
                 said: Callable[[str], Awaitable[None]]) -> None:
    """End the match numbered ``match_id`` with no result, the admin's **End it** clicked,
    each check made again (``end_match``): what became of it ``said`` (the question replaced
    by it); the database failing, answered privately, the question left to be clicked again."""
    guild_id = interaction.guild_id  # (its guild may not be cached: the id is the click's)
    assert guild_id is not None
    svc = service(interaction.client)
    tr = tr_of(interaction)
    try:
        ended = await in_time(interaction, end_match(
            svc, guild_id, interaction.user.id, match_id=match_id,
            notice=notice_of(svc, guild_id, interaction.user)))
    except Exception as e:
        # Memory as the database has it: said plainly, to be tried again (which also tells
        # whether a save of unknown outcome went through: the match is over then).
        passing = database_failed(e)
        log.log(logging.WARNING if passing else logging.ERROR,
                "server admin %d's end of match %d failed (%s: %s)", interaction.user.id,
                match_id, e.__class__.__name__, e, exc_info=not passing)
        await answer(interaction, tr(
            "The database failed, and whether the match ended could not be read: use "
            "this command again in a moment to see.") if isinstance(e, InDoubt) else tr(
            "The match could not be ended (the database failed): nothing changed. Try "
            "again in a moment."))
        return
    if ended is None:
        # (Another server's, by a forged click: that message is none of this one's.)
        await answer(interaction, _refusal(tr, ended, "", match_id))
        return
    text = tr("Match #{match} is ended with no result: nobody wins it, no rating changed, and "
              "both players are free to play again.", match=match_id)
    if ended == "over" and await _ended_by(svc, interaction, match_id):
        # A second click of the admin's (a double click): the first ended it and says so on
        # the question; this one must not say "nothing changed" over it (review156).
        await answer(interaction, text)
        return
    if isinstance(ended, str):
        await said(_refusal(tr, ended, "", match_id))
        return
    if ended.unread:
        text += " " + tr("Its saved state could not be read, so its deals could not be "
                         "revealed.")
    try:
        await said(text)
    finally:
        # Told whatever became of the admin's answer: else the panels of a match that could
        # not be read would offer moves for good (nothing else draws them again).
        await tell_ended(svc, ended, interaction.user)


async def _ended_by(svc: MatchService, interaction: discord.Interaction, match_id: int) -> bool:
    """Whether the match was ended with no result by this very admin (their other click)."""
    row = await in_time(interaction, svc.store.match(match_id))
    return row is not None and row.status != "active" and row.ended_by == interaction.user.id


def _refusal(tr: Tr, found: str | None, name: str, number: int | None) -> str:
    """Why no match is ended: ``to_end``'s or ``end_match``'s None, "own" or "over", for the
    member ``name`` (empty: the match numbered ``number``)."""
    if found is None:
        return tr("{name} has no match in play on this server: nothing changed.",
                  name=name) if name else tr(
            "There is no match #{match} in play on this server: nothing changed.", match=number)
    if found == "own":
        return tr("You play in this match, rated: an admin cannot end their own match with no "
                  "result. `{command}` ends it, as it does for any player. Nothing changed.",
                  command=command(tr, "umtali", "resign"))
    return tr("{name}'s match is already over (it ended just now): nothing changed.",
              name=name) if name else tr("Match #{match} is already over: nothing changed.",
                                         match=number)


def _ago(tr: Tr, seconds: float) -> str:
    """How long ago a match started, its unit in words with its plural form ("started 3 hours
    ago", «начат 3 часа назад»): a screen reader says "3 h" as the letter. Minutes under an
    hour, hours under two days (a day and some hours reads worse than 30 hours), then days."""
    minutes = max(0, int(seconds // 60))
    if minutes < 1:
        return tr("started less than a minute ago")
    if minutes < 60:
        return tr.plural("started {count} minute ago", "started {count} minutes ago", minutes)
    if minutes < 48 * 60:
        return tr.plural("started {count} hour ago", "started {count} hours ago", minutes // 60)
    return tr.plural("started {count} day ago", "started {count} days ago",
                     minutes // (24 * 60))


def choice_label(tr: Tr, match_id: int, a: str, b: str, started: str,
                 left: tuple[bool, bool] = (False, False)) -> str:
    """A suggestion's label within Discord's ``LABEL`` characters: the names (isolated) cut,
    each to its share, never the match's number nor how long ago it started, which tell two
    matches of the same players apart, nor the mark of a player who has left the server
    (``left``: the match an admin is told to end)."""
    def label(x: str, y: str) -> str:
        x, y = (tr("{name} (left)", name=name) if gone else name
                for name, gone in ((x, left[0]), (y, left[1])))
        return tr("#{match} · {a} vs {b} · {started}", match=match_id, a=x, b=y,
                  started=started)

    whole = label(a, b)
    over = len(whole) - LABEL
    if over <= 0:
        return whole
    room = max(2, len(a) + len(b) - over)
    # The shorter name kept whole if it fits in half the room: the longer has the rest.
    first = min(len(a), max(room // 2, room - len(b)))
    return shorten(label(_cut_name(a, first), _cut_name(b, room - first)), LABEL)


def _cut_name(name: str, room: int) -> str:
    """``name`` in at most ``room`` characters (at least one), an ellipsis if cut."""
    if len(name) <= room:
        return name
    return shorten(name, room - 1) + ELLIPSIS if room > 1 else ELLIPSIS


async def match_choices(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    """The server's matches in play, newest first, filtered by what was typed (a number's
    first digits, a player's name): one indexed read of at most 25 rows, on every keystroke.
    The database failing for now offers none (a warning), as a stale client's question is.
    Only a manager is offered them: the command's check does not guard its suggestions, and
    a server may give the command to members without Manage Server."""
    if interaction.guild is None or not interaction.permissions.manage_guild:
        return []
    svc = service(interaction.client)
    tr = tr_of(interaction)
    try:
        found = await suggested(interaction, svc.store.in_play_in(
            interaction.guild.id, current[:MAX_ECHO]), "the matches in play")
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.warning("the matches in play could not be suggested (%s: %s)",
                    e.__class__.__name__, e)
        return []
    now = svc.clock()
    choices = []
    for m in found or ():
        a, b = names_in(m.names, m.computer_seat, m.computer_level, tr)
        left = tuple(m.computer_seat != seat and has_left(interaction.client, interaction.guild.id,
                                                          m.player_ids[seat])
                     for seat in (0, 1))
        label = choice_label(tr, m.match_id, label_name(a), label_name(b),
                             _ago(tr, now - m.created_at), (left[0], left[1]))
        choices.append(app_commands.Choice(name=label, value=str(m.match_id)))
    return choices
