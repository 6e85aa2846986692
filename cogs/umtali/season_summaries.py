"""The season tick: it ends the seasons whose time is over and posts each one's summary once.

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

import discord

from cogs.umtali.access import service
from cogs.umtali.calendar_words import season_name
from cogs.umtali.final_card import show_counted
from cogs.umtali.names import record_name, safe_name
from cogs.umtali.nonces import nonce_of
from cogs.umtali.numbers import one_decimal
from cogs.umtali.removal import owns
from cogs.umtali.render import COLOUR
from data.models import BoardPage
from umtali.i18n import N_, Tr, languages, tr_for

log = logging.getLogger(__name__)

#: How often the seasons are checked (a season ends at a month's turn: a minute is prompt).
TICK_EVERY = 60.0
#: How long a process holds a season's summary it is posting: past that (the process
#: stopped, and is not started again under its name), another process posts it.
CLAIM = 300.0
MEDALS = ("🥇", "🥈", "🥉")
#: The most players a season's summary lists: a tie may hold any number (a summary's lines,
#: each up to about 110 characters, stay well within an embed's 4,096).
LISTED = 10


#: A summary's title, by the season's name ("The December 2026 season is over").
TITLE = N_("The {season} season is over")
#: The title before seasons were named, by the season's id ("Season 2026-12 is over"): kept
#: (and translated) to know a summary posted by those versions (``summary_titles``).
OLD_TITLE = N_("Season {season} is over")


def summary_embed(season: str, top: BoardPage, tr: Tr, followed: bool = True,
                  more: int = 0) -> discord.Embed:
    """An ended season in short: its best three places (all of a tie; ``more``: how many
    sharing them are not listed), how many played, and the soft reset (or, ``followed``
    False: that no season follows, the server having turned seasons off)."""
    lines = [f"{MEDALS[row.rank - 1] if row.rank <= len(MEDALS) else ''} " + tr(
        "`{rank}.` **{name}** · {rating} · won {won} of {sessions}", rank=row.rank,
        name=safe_name(record_name(row.name, row.user_id, tr)),
        rating=one_decimal(tr, row.rating), won=row.sessions_won,
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
    return discord.Embed(title=tr(TITLE, season=season_name(tr, season)),
                         description="\n".join(lines), colour=COLOUR)


#: How many of the channel's last messages are looked through for a summary that may have
#: been posted already (``announce``).
LOOKED_AT = 50


def summary_titles(season: str) -> frozenset[str]:
    """A season's summary's title in every language the bot speaks: the server's language
    may have changed between a post and the look for it; and as the versions before titled it
    (``OLD_TITLE``), for a summary they posted and this version takes over."""
    words = [tr_for(language) for language in languages()]
    return frozenset([tr(TITLE, season=season_name(tr, season)) for tr in words] +
                     [tr(OLD_TITLE, season=season) for tr in words])


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
        await svc.store.sweep_uncounted(counted, left, svc.clock())
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
