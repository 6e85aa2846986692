"""Seasons on Discord: the server's choice, and which board ``/umtali leaderboard`` shows.
The tick that ends the seasons whose time is over and posts each one's summary once is
``season_summaries``'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.umtali.access import store, tr_of
from cogs.umtali.calendar_words import folded, season_name, season_of_name
from cogs.umtali.lacking import lacking, own_permissions
from cogs.umtali.names import visible
from cogs.umtali.numbers import listed
from cogs.umtali.options import on_off
from cogs.umtali.suggesting import suggested
from data.models import GuildSettings
from data.seasons import same_cadence
from umtali.i18n import N_, Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

CADENCE_CHOICES = [
    app_commands.Choice(name=N_("off: one all-time board"), value="off"),
    app_commands.Choice(name=N_("monthly: a new season every calendar month"), value="monthly"),
    app_commands.Choice(name=N_("quarterly: a new season every three months"),
                        value="quarterly"),
]
#: The leaderboard's ``season`` value for the all-time board.
ALL_TIME = "all"
#: Suggestions Discord shows for an option at most.
MENU = 25
#: The board a custom id names: this server's all time, all servers', or a season's.
BOARD_PATTERN = r"server|global|[0-9]{4}-(?:Q[1-4]|[0-9]{2})"


def is_season(board: str) -> bool:
    return board not in ("server", "global")


def cadence_word(tr: Tr, cadence: str) -> str:
    if cadence == "monthly":
        return tr("monthly")
    if cadence == "quarterly":
        return tr("quarterly")
    return on_off(tr, False)


def seasons_words(settings: GuildSettings, tr: Tr,
                  guild: discord.Guild | None = None, in_play: str | None = None) -> str:
    """The server's seasons as the settings answer's last lines. With ``guild``: said
    as the summaries' channel is now, not as it was when chosen (closed to the bot or deleted
    since, the next summary would be dropped there, unseen). ``in_play``: the season in play
    (``Seasons.in_play``), which runs to its end, its summary posted, seasons off or not."""
    head = tr("Leaderboard:")
    channel_id = settings.season_channel_id
    if settings.seasons == "off" and in_play is None:
        if not channel_id:
            return "\n".join((head, tr("- Seasons: off")))
        # The channel chosen stays saved for when seasons are turned on: shown, as it is.
        kept = f"<#{channel_id}>"
        return "\n".join((head, tr("- Seasons: off"), tr(
            "- Summaries' channel, should seasons be turned on: {channel}", channel=kept)))
    cadence = tr("- Seasons: {cadence}", cadence=cadence_word(tr, settings.seasons)
                 if in_play is None or settings.seasons != "off" else
                 tr("off after the {season} season", season=season_name(tr, in_play)))
    return "\n".join((head, cadence, _summaries_line(settings, tr, guild)))


def _summaries_line(settings: GuildSettings, tr: Tr, guild: discord.Guild | None) -> str:
    channel_id = settings.season_channel_id
    if not channel_id:
        return tr("- Season summaries: {channel}", channel=tr("not posted (no channel set)"))
    channel = None if guild is None else guild.get_channel(channel_id)
    if guild is not None and channel is None:
        return tr("- Season summaries: {channel}",
                  channel=tr("not posted (their channel is gone: choose another)"))
    missing = summary_missing(channel) if isinstance(channel, discord.TextChannel) else []
    mention = f"<#{channel_id}>"
    if missing:
        # (the names worked out first: a call inside ``tr.plural`` hides it from the catalogue)
        names = listed(missing, tr)
        return tr.plural(
            "- Season summaries: {channel}, but I can't post them there now: I need the "
            "{names} permission there.",
            "- Season summaries: {channel}, but I can't post them there now: I need the "
            "{names} permissions there.", len(missing), channel=mention, names=names)
    return tr("- Season summaries: {channel}", channel=mention)


#: What posting a summary takes, with the names Discord shows (as in ``permissions``).
SUMMARY_NEEDS = (("view_channel", N_("View Channel")), ("send_messages", N_("Send Messages")),
                 ("embed_links", N_("Embed Links")))


def summary_missing(channel: discord.TextChannel) -> list[str]:
    """What the bot lacks to post summaries in ``channel`` (``SUMMARY_NEEDS``' labels); none
    when that is not known here."""
    me = channel.guild.me
    if me is None:
        return []  # not known here: the summary's own post will tell
    return lacking(channel.permissions_for(me), own_permissions(channel, me), SUMMARY_NEEDS)


def summary_refusal(channel: discord.TextChannel, tr: Tr) -> str | None:
    """Why season summaries cannot go to ``channel`` (the bot may not post there), or None.
    Said when it is chosen: else the first summary, a month later, would be dropped unseen."""
    missing = summary_missing(channel)
    if not missing:
        return None
    names = listed(missing, tr)
    return tr.plural(
        "I can't post season summaries in {channel}: I need the {names} permission there. "
        "Nothing was changed.",
        "I can't post season summaries in {channel}: I need the {names} permissions there. "
        "Nothing was changed.", len(missing), channel=channel.mention, names=names)


def summaries_posted(settings: GuildSettings, guild: discord.Guild | None) -> bool:
    """Whether a season's summary would be posted now: a channel is set, there, and open to
    the bot (as far as is known here)."""
    channel_id = settings.season_channel_id
    if not channel_id:
        return False
    channel = None if guild is None else guild.get_channel(channel_id)
    if guild is not None and channel is None:
        return False
    return not (isinstance(channel, discord.TextChannel) and summary_missing(channel))


def cadence_note(running: str | None, cadence: str, tr: Tr, summarised: bool = True) -> str:
    """After a change of cadence, what becomes of the season in play (it runs to its end:
    ``data.seasons``); empty when nothing is worth saying. ``summarised``: whether its summary
    would be posted (``summaries_posted``)."""
    if running is None:
        return ""
    if cadence == "off" and not summarised:
        return tr("The {season} season still ends at its usual time, with no summary "
                  "posted (no channel I can post it in); no new season follows.",
                  season=season_name(tr, running))
    if cadence == "off":
        return tr("The {season} season still ends at its usual time, with its summary; "
                  "no new season follows.", season=season_name(tr, running))
    if not same_cadence(running, cadence):
        return tr("The {season} season runs to its usual end; the new cadence starts "
                  "with the next season.", season=season_name(tr, running))
    return ""


# -- which board the leaderboard shows ------------------------------------------------------


def is_all_time(asked: str, tr: Tr) -> bool:
    """Whether the ``season`` typed names the all-time board (``all``, ``all time``, or the
    member's own words for it), however it is spaced, cased or padded with hidden
    characters."""
    return folded(visible(asked)) in (ALL_TIME, "all time", folded(tr("all time")))


async def chosen_board(svc: MatchService, guild_id: int, asked: str | None,
                       tr: Tr) -> str | None:
    """The server board ``/umtali leaderboard`` shows: ``server`` (all time) or a season's
    id; by default the current season when the server runs seasons, or the one still in
    play after they were turned off (it counts to its end). A season is asked for by its id
    (``2026-12``, as the suggestions give it) or by its name as shown, in any language the bot
    speaks ("December 2026", «декабрь 2026»: typed by hand). None: the server never had the
    season asked for."""
    if asked is None:
        settings = await svc.store.guild_settings(guild_id)
        if settings.seasons == "off":
            return await svc.store.seasons.in_play(guild_id, svc.clock()) or "server"
        current = await svc.store.seasons.current(guild_id, settings.seasons, svc.clock())
        return current or "server"
    if is_all_time(asked, tr):
        return "server"
    typed = visible(asked)
    season = season_of_name(typed) or typed.upper()
    return season if await svc.store.seasons.had(guild_id, season) else None


async def season_choices(interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    """The server's seasons, newest first, after the all-time board; filtered by what was
    typed (each of its words found in a suggestion's name or its id). On every keystroke: the
    seasons' rows alone, their players kept with them."""
    if interaction.guild is None:
        return []
    tr = tr_of(interaction)
    typed = folded(visible(current)).split()
    seasons = await suggested(interaction, store(interaction.client).seasons.of(
        interaction.guild.id), "the seasons")
    if seasons is None:
        return []
    choices = [app_commands.Choice(name=tr("all time"), value=ALL_TIME)]
    for s in seasons:
        name = season_name(tr, s.season)
        label = tr.plural("{season} season · {count} player", "{season} season · {count} players",
                          s.players, season=name)
        choices.append(app_commands.Choice(name=label, value=s.season))
    return [c for c in choices
            if all(word in folded(f"{c.name} {c.value}") for word in typed)][:MENU]


def season_title(tr: Tr, where: str, board: str, seasons_on: bool) -> str | None:
    """A server board's title when seasons are involved; None: the plain all-time title."""
    if is_season(board):
        return tr("Umtali leaderboard · {where} · {season} season", where=where,
                  season=season_name(tr, board))
    if board == "server" and seasons_on:
        return tr("Umtali leaderboard · {where} · all time", where=where)
    return None
