"""Seasons on Discord: the server's choice, which board ``/umtali leaderboard`` shows, and the
tick that ends the seasons whose time is over and posts each one's summary once.

The season ends themselves are the store's (``data.seasons``): exactly once, whoever comes
first. A summary is claimed for a while before it is posted, so that two ticks (or two
processes) never post it twice, and marked posted after; a post that fails for now gives the
claim back for a later tick, and a process that stopped in between leaves a claim that its
restart takes back (or, past its time, another process).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.umtali.access import service, store, tr_of
from cogs.umtali.final_card import show_counted
from cogs.umtali.names import safe_name, visible
from cogs.umtali.nonces import nonce_of
from cogs.umtali.numbers import listed, one_decimal
from cogs.umtali.options import on_off
from cogs.umtali.removal import owns
from cogs.umtali.render import COLOUR
from data.models import BoardPage, GuildSettings
from data.seasons import same_cadence
from umtali.i18n import N_, Tr, languages, tr_for

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

CADENCE_CHOICES = [
    app_commands.Choice(name=N_("off: one all-time board"), value="off"),
    app_commands.Choice(name=N_("monthly: a new season every calendar month"), value="monthly"),
    app_commands.Choice(name=N_("quarterly: a new season every three months"),
                        value="quarterly"),
]
#: The leaderboard's ``season`` value for the all-time board.
ALL_TIME = "all"
#: The board a custom id names: this server's all time, all servers', or a season's.
BOARD_PATTERN = r"server|global|[0-9]{4}-(?:Q[1-4]|[0-9]{2})"
#: How often the seasons are checked (a season ends at a month's turn: a minute is prompt).
TICK_EVERY = 60.0
#: How long a process holds a season's summary it is posting: past that (the process
#: stopped, and is not started again under its name), another process posts it.
CLAIM = 300.0
MEDALS = ("🥇", "🥈", "🥉")
#: The most players a season's summary lists: a tie may hold any number (a summary's lines,
#: each up to about 110 characters, stay well within an embed's 4,096).
LISTED = 10


def is_season(board: str) -> bool:
    return board not in ("server", "global")


def cadence_word(tr: Tr, cadence: str) -> str:
    if cadence == "monthly":
        return tr("monthly")
    if cadence == "quarterly":
        return tr("quarterly")
    return on_off(tr, False)


def seasons_words(settings: GuildSettings, tr: Tr,
                  guild: discord.Guild | None = None) -> str:
    """The server's seasons in a sentence, for the settings summary. With ``guild``: said
    as the summaries' channel is now, not as it was when chosen (closed to the bot or deleted
    since, the next summary would be dropped there, unseen)."""
    channel_id = settings.season_channel_id
    if settings.seasons == "off":
        if not channel_id:
            return tr("Seasons off.")
        # The channel chosen stays saved for when seasons are turned on: shown, as it is.
        kept = f"<#{channel_id}>"
        return tr("Seasons off; summaries' channel, should they be turned on: {channel}.",
                  channel=kept)
    cadence = cadence_word(tr, settings.seasons)
    if not channel_id:
        return tr("Seasons {cadence}; season summaries: {channel}.", cadence=cadence,
                  channel=tr("not posted (no channel set)"))
    channel = None if guild is None else guild.get_channel(channel_id)
    if guild is not None and channel is None:
        return tr("Seasons {cadence}; season summaries: {channel}.", cadence=cadence,
                  channel=tr("not posted (their channel is gone: choose another)"))
    missing = summary_missing(channel) if isinstance(channel, discord.TextChannel) else []
    mention = f"<#{channel_id}>"
    if missing:
        # (the names worked out first: a call inside ``tr.plural`` hides it from the catalogue)
        names = listed(missing, tr)
        return tr.plural(
            "Seasons {cadence}; season summaries: {channel}, but I can't post them there now: "
            "I need the {names} permission there.",
            "Seasons {cadence}; season summaries: {channel}, but I can't post them there now: "
            "I need the {names} permissions there.", len(missing), cadence=cadence,
            channel=mention, names=names)
    return tr("Seasons {cadence}; season summaries: {channel}.", cadence=cadence,
              channel=mention)


#: What posting a summary takes, with the names Discord shows (as in ``permissions``).
SUMMARY_NEEDS = (("view_channel", N_("View Channel")), ("send_messages", N_("Send Messages")),
                 ("embed_links", N_("Embed Links")))


def summary_missing(channel: discord.TextChannel) -> list[str]:
    """What the bot lacks to post summaries in ``channel`` (``SUMMARY_NEEDS``' labels); none
    when that is not known here."""
    me = channel.guild.me
    if me is None:
        return []  # not known here: the summary's own post will tell
    perms = channel.permissions_for(me)
    return [label for name, label in SUMMARY_NEEDS if not getattr(perms, name)]


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
        return " " + tr("Season {season} still ends at its usual time, with no summary posted "
                        "(no channel I can post it in); no new season follows.", season=running)
    if cadence == "off":
        return " " + tr("Season {season} still ends at its usual time, with its summary; no "
                        "new season follows.", season=running)
    if not same_cadence(running, cadence):
        return " " + tr("Season {season} runs to its usual end; the new cadence starts with "
                        "the next season.", season=running)
    return ""


# -- which board the leaderboard shows ------------------------------------------------------


def _folded(text: str) -> str:
    """``text`` as compared: lower case, and ``ё`` as ``е`` (as Russian is mostly typed)."""
    return text.lower().replace("ё", "е")


def is_all_time(asked: str, tr: Tr) -> bool:
    """Whether the ``season`` typed names the all-time board (``all``, ``all time``, or the
    member's own words for it), however it is spaced, cased or padded with hidden
    characters."""
    return _folded(visible(asked)) in (ALL_TIME, "all time", _folded(tr("all time")))


async def chosen_board(svc: MatchService, guild_id: int, asked: str | None,
                       tr: Tr) -> str | None:
    """The server board ``/umtali leaderboard`` shows: ``server`` (all time) or a season's
    name; by default the current season when the server runs seasons. None: the server never
    had the season asked for."""
    if asked is None:
        settings = await svc.store.guild_settings(guild_id)
        if settings.seasons == "off":
            return "server"
        current = await svc.store.seasons.current(guild_id, settings.seasons, svc.clock())
        return current or "server"
    if is_all_time(asked, tr):
        return "server"
    season = visible(asked).upper()
    known = {s.season for s in await svc.store.seasons.of(guild_id)}
    return season if season in known else None


async def season_choices(interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    """The server's seasons, newest first, after the all-time board; filtered by what was
    typed."""
    if interaction.guild is None:
        return []
    tr = tr_of(interaction)
    typed = _folded(visible(current))
    choices = [app_commands.Choice(name=tr("all time"), value=ALL_TIME)]
    for s in await store(interaction.client).seasons.of(interaction.guild.id):
        label = tr.plural("Season {season} · {count} player", "Season {season} · {count} players",
                          s.players, season=s.season)
        choices.append(app_commands.Choice(name=label, value=s.season))
    return [c for c in choices if typed in _folded(c.name) or typed in _folded(c.value)][:25]


def season_title(tr: Tr, where: str, board: str, seasons_on: bool) -> str | None:
    """A server board's title when seasons are involved; None: the plain all-time title."""
    if is_season(board):
        return tr("Umtali leaderboard · {where} · Season {season}", where=where, season=board)
    if board == "server" and seasons_on:
        return tr("Umtali leaderboard · {where} · all time", where=where)
    return None


# -- the tick: season ends and their summaries ----------------------------------------------


def summary_embed(season: str, top: BoardPage, tr: Tr, followed: bool = True,
                  more: int = 0) -> discord.Embed:
    """An ended season in short: its best three places (all of a tie; ``more``: how many
    sharing them are not listed), how many played, and the soft reset (or, ``followed``
    False: that no season follows, the server having turned seasons off)."""
    lines = [f"{MEDALS[row.rank - 1] if row.rank <= len(MEDALS) else ''} " + tr(
        "`{rank}.` **{name}** · {rating} · {won}/{sessions} won", rank=row.rank,
        name=safe_name(row.name), rating=one_decimal(tr, row.rating), won=row.sessions_won,
        sessions=row.sessions) for row in top.rows]
    if more:
        lines.append(tr.plural("…and {count} more player shares these places.",
                               "…and {count} more players share these places.", more))
    lines += ["", tr.plural("{count} player took part.", "{count} players took part.",
                            top.players),
              tr("Every rating has moved halfway back toward the starting rating for the new "
                 "season: the ladder is open again.") if followed else
              tr("Seasons are off now: no new season follows, and the all-time board goes "
                 "on.")]
    return discord.Embed(title=tr("Season {season} is over", season=season),
                         description="\n".join(lines), colour=COLOUR)


#: How many of the channel's last messages are looked through for a summary that may have
#: been posted already (``announce``).
LOOKED_AT = 50


def summary_titles(season: str) -> frozenset[str]:
    """A season's summary's title in every language the bot speaks: the server's language
    may have changed between a post and the look for it."""
    return frozenset(tr_for(language)("Season {season} is over", season=season)
                     for language in languages())


async def _posted_already(client: discord.Client, channel: discord.abc.Messageable,
                          season: str) -> bool:
    """Whether the bot's summary of ``season`` is among the channel's last messages. Not
    known (the bot may not read the channel's history): False, and the post's nonce is all
    that keeps it from being posted twice."""
    if client.user is None:
        return False
    titles = summary_titles(season)
    try:
        async for message in channel.history(limit=LOOKED_AT):
            if message.author.id == client.user.id and \
                    any(e.title in titles for e in message.embeds):
                return True
    except discord.Forbidden:
        return False
    return False


async def announce(client: discord.Client, guild_id: int, season: str,
                   channel_id: int | None, look_first: bool = False) -> bool:
    """Post an ended season's summary where the server chose; False when there is nowhere
    to post it, or nobody played the season (nothing to tell). ``look_first``: a post of it
    may have gone out already (its claim was taken before: the process stopped, or the
    database failed, before marking it posted): the channel is looked through first, and the
    summary found there is not posted again (taken over minutes later, past the time Discord
    keeps a nonce, it was)."""
    svc = service(client)
    if channel_id is None:
        return False
    top, more = await svc.store.seasons.best(guild_id, season, len(MEDALS), LISTED)
    if not top.rows:
        return False
    channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable) or \
            getattr(getattr(channel, "guild", None), "id", None) != guild_id:
        log.info("season %s of server %d: channel %d takes no summary", season, guild_id,
                 channel_id)
        return False
    # A season ended with seasons off opens none (a season opened since, seasons on again,
    # starts from its soft reset all the same).
    followed = await svc.store.seasons.running(guild_id) is not None
    embed = summary_embed(season, top, svc.prefs.guild_tr(guild_id), followed, more)
    if look_first and await _posted_already(client, channel, season):
        log.info("season %s of server %d: its summary was posted already", season, guild_id)
        return True
    await channel.send(embed=embed, nonce=summary_nonce(guild_id, season))
    return True


def summary_nonce(guild_id: int, season: str) -> str:
    """The nonce of a season's summary: posted again (its process stopped before marking it
    posted), Discord gives back the first one instead of a second, if it comes within some
    minutes (at most 25 characters, as ``announcing.nonce``)."""
    return nonce_of("season", guild_id, season)


def removed(client: discord.Client) -> Callable[[int], bool]:
    """Whether a server's seasons are left alone here: it removed the bot, as this process
    can tell (``removal.sweep`` tells so): on a shard it runs, and not among the servers
    Discord listed (READY lists each server the bot is in, one in an outage too); or it is on
    a shard of another process, which alone can tell that, and ends its seasons (with several
    processes, each would otherwise end those of a server that removed the bot). A removed
    server's seasons stand still, as nobody plays there: no season ended and opened each month
    with its ratings carried over, no summary looked for in a channel the bot cannot see.
    Added back (GUILD_CREATE lists it again), the next tick ends the season left open and
    opens the current one."""
    # Before READY no servers are listed yet: none known to be gone.
    ready = client.is_ready()
    return lambda guild_id: not owns(client, guild_id) or (
        ready and client.get_guild(guild_id) is None)


async def season_tick(client: discord.Client, start: bool = False) -> int:
    """Count the results still uncounted, end the seasons whose time is over (by the
    service's clock) and post each ended season's summary once; returns how many were posted.
    ``start``: the process's first tick, which takes back the summaries its name claimed
    before it stopped. Never raises: what failed is tried again at the next tick."""
    svc = service(client)
    seasons, owner = svc.store.seasons, svc.owners.name
    counted: list[int] = []
    gone = removed(client)
    try:
        if start:
            await seasons.unclaim_summaries(owner)
        # First, so that a result counted late lands in the season it was played in (one
        # indexed read when there is none: the usual case).
        left: list[int] = []
        await svc.store.sweep_uncounted(counted, left)
        if left:
            # A result left for the next sweep (the database failing for now, or another
            # process counting): a season it was played in waits for it to be counted.
            log.info("season ends wait for session %d to be counted", left[0])
        else:
            await seasons.end_due(svc.clock(), skip=gone)
        for guild_id, season in sorted(svc.unmarked_summaries):
            await seasons.mark_announced(guild_id, season)
            svc.unmarked_summaries.discard((guild_id, season))
        due = [d for d in await seasons.unannounced()
               if not gone(d[0]) and (d[0], d[1]) not in svc.unmarked_summaries]
    except Exception as e:
        log.warning("seasons could not be checked (%s: %s); trying again", e.__class__.__name__,
                    e)
        return 0
    finally:
        # What was counted is kept whatever failed after: its cards are shown now, or never.
        await show_counted(svc, counted)
    posted = 0
    for guild_id, season, channel_id in due:
        try:
            tried = await seasons.claimed_before(guild_id, season)
            now = svc.clock()
            if not await seasons.claim_summary(guild_id, season, owner, now, now + CLAIM):
                continue  # another tick (or process) has it
        except Exception as e:
            log.warning("season %s of server %d: could not be claimed (%s)", season, guild_id, e)
            continue
        try:
            posted += await announce(client, guild_id, season, channel_id, tried)
        except (discord.NotFound, discord.Forbidden) as e:
            # Gone, or closed to the bot: retrying would never end. The server can fix it for
            # the next season.
            log.info("season %s of server %d: no summary posted, channel %s is gone or closed "
                     "to me (%s)", season, guild_id, channel_id, e)
        except Exception as e:
            log.warning("season %s of server %d: the summary could not be posted (%s: %s); "
                        "trying again later", season, guild_id, e.__class__.__name__, e)
            try:
                await seasons.unclaim_summary(guild_id, season, owner)
            except Exception as again:
                log.warning("season %s of server %d: its summary waits for its claim to run "
                            "out (%s)", season, guild_id, again)
            continue
        try:
            await seasons.mark_announced(guild_id, season)
        except Exception as e:
            # Posted, or nowhere to go: marked at a later tick, never posted again from here
            # (its claim running out, the post would come minutes later, past the time Discord
            # keeps its nonce). A process stopped meanwhile posts it again at its start, soon
            # enough for the nonce to give the first one back.
            svc.unmarked_summaries.add((guild_id, season))
            log.warning("season %s of server %d: could not be marked done (%s); marked at a "
                        "later tick", season, guild_id, e)
    return posted


async def run_seasons(client: discord.Client, every: float = TICK_EVERY) -> None:
    """The season tick, every ``every`` seconds for as long as the bot runs (the first one
    runs when the bot is ready: ``on_ready``)."""
    await client.wait_until_ready()
    while not client.is_closed():
        await asyncio.sleep(every)
        await season_tick(client)
