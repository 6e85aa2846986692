"""``/umtali-admin matches``: the matches in play on the admin's server, as the database has
them (every process's, not this one's memory alone), one line each, oldest move first: a
stuck match on top, with the number ``/umtali-admin end-match`` takes.

Only what a match's public table shows is read from its saved state (the games won, the game
and hand, the game's points, whose turn): never a card, nor how many a hand holds.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
from dataclasses import dataclass
from typing import Any

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.channel_return import deleted, missing
from cogs.umtali.departures import ask, has_left
from cogs.umtali.errors import BUSY
from cogs.umtali.in_time import in_time, private_answer
from cogs.umtali.mentions import NO_MENTIONS, command
from cogs.umtali.names import safe_name
from cogs.umtali.numbers import listed
from cogs.umtali.options import clock_words, names_in, rules_words
from cogs.umtali.render import COLOUR
from data.failing import failing_for_now
from data.servers import UnderWay
from umtali.i18n import Tr

log = logging.getLogger(__name__)

#: Discord's limit on an embed's description.
DESCRIPTION = 4096
#: Room kept under it for the "…and N more" line.
MORE_ROOM = 64


@dataclass(frozen=True, slots=True)
class Public:
    """What a match's public table shows of its score and turn."""

    games_won: tuple[int, int]
    game: int
    hand_no: int
    points: tuple[int, int]
    #: The seat to act; -1: none (its session over, its ending not yet saved).
    to_act: int
    optional_melding: bool


def public_of(state: str) -> Public | None:
    """The public part of a saved session (``umtali.codec``'s format); None if it does not
    read. Nothing else of it is looked at."""
    try:
        d: Any = json.loads(state)
        won = (int(d["games_won"][0]), int(d["games_won"][1]))
        points = (sum(int(a) for a, _ in d["hand_scores"]),
                  sum(int(b) for _, b in d["hand_scores"]))
        to_act = int(d["hand"]["turn"]) if int(d["winner"]) < 0 else -1
        return Public(won, int(d["game"]), int(d["hand_no"]), points,
                      to_act if to_act in (0, 1) else -1,
                      bool(d["rules"].get("optional_melding", False)))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def _when(at: float) -> str:
    return discord.utils.format_dt(dt.datetime.fromtimestamp(at, dt.UTC), "R")


def gone_seats(client: discord.Client, guild_id: int, m: UnderWay) -> tuple[bool, bool]:
    """Which of the match's players were last found gone from its server (never the
    computer's seat): the matches the README tells an admin to end by number."""
    left = [m.computer_seat != seat and has_left(client, guild_id, m.player_ids[seat])
            for seat in (0, 1)]
    return left[0], left[1]


def lost_words(guild: discord.Guild, m: UnderWay, tr: Tr,
               gone: frozenset[int] = frozenset()) -> str:
    """Where a match whose channel was lost is played, and what brings it back there (review166):
    the permissions the bot lacks there given back, or its thread unlocked (``channel_return``);
    a channel deleted, nothing."""
    channel = guild.get_channel_or_thread(m.channel_id)
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        # Not in the cache: deleted if its return found it so, else perhaps an archived
        # thread (which discord.py forgets), looked at by the return.
        return tr("in direct messages (its channel was deleted)") if m.match_id in gone \
            else tr("in direct messages")
    link = f"<#{m.channel_id}>"
    try:
        lacking = missing(channel)
    except discord.ClientException:
        return tr("in direct messages")  # a thread whose parent channel is not cached
    if lacking == ["locked"]:
        return tr("in direct messages ({channel} is locked: unlock it and the match returns "
                  "there by itself)", channel=link)
    if lacking:
        return tr("in direct messages (I lost the {name} permission in {channel}: give it back "
                  "and the match returns there by itself)", name=listed(lacking, tr),
                  channel=link)
    return tr("in direct messages (I can post in {channel} again: the match returns there "
              "within minutes)", channel=link)


def match_line(m: UnderWay, public: Public | None, tr: Tr,
               left: tuple[bool, bool] = (False, False), lost: str = "") -> str:
    """One match, on one line; ``left``: which of its players have left the server; ``lost``:
    where it is played, its channel lost (``lost_words``)."""
    a, b = (safe_name(name) for name in names_in(m.names, m.computer_seat, m.computer_level,
                                                   tr))
    rules = rules_words(tr, m.variant, public is not None and public.optional_melding)
    # (When it last moved is the moves' to say: told of a state that does not read too.)
    since = tr("last move {when}", when=_when(m.since)) if m.moved else tr(
        "no move yet, started {when}", when=_when(m.since))
    if public is None:
        play = tr("its saved state could not be read") + " · " + since
    else:
        score = tr("games {won_a}–{won_b}, game {game}, hand {hand} ({points_a}–{points_b})",
                   won_a=public.games_won[0], won_b=public.games_won[1], game=public.game,
                   hand=public.hand_no, points_a=public.points[0],
                   points_b=public.points[1])
        turn = tr("{name} to play", name=(a, b)[public.to_act]) \
            if public.to_act >= 0 else tr("over, its end not saved yet")
        play = f"{score} · {turn}, {since}"
    for seat in (0, 1):
        if left[seat]:
            play += " · " + tr("{name} has left the server", name=(a, b)[seat])
    return tr("`#{match}` · {a} vs {b} · {kind} · rules: {rules} · {play} · clock: {clock} · "
              "{where}", match=m.match_id, a=a, b=b,
              kind=tr("rated") if m.computer_seat is None else tr("practice"), rules=rules,
              play=play, clock=clock_words(tr, m.time_control, m.turn_timer),
              where=(lost or tr("in direct messages")) if m.channel_lost
              else f"<#{m.channel_id}>")


def listing(found: list[UnderWay], total: int, tr: Tr,
            seen: tuple[discord.Client, int] | None = None,
            lost: dict[int, str] | None = None) -> discord.Embed:
    """The matches as one embed: as many lines as Discord's limit holds, whole, and how many
    more there are; ``seen``: the client and server whose departures are marked; ``lost``:
    by match, where one whose channel was lost is played (``lost_words``)."""
    lines: list[str] = []
    size = 0
    for m in found:
        left = (False, False) if seen is None else gone_seats(*seen, m)
        line = match_line(m, public_of(m.state), tr, left, (lost or {}).get(m.match_id, ""))
        if size + len(line) + 1 > DESCRIPTION - MORE_ROOM:
            break
        lines.append(line)
        size += len(line) + 1
    if (more := total - len(lines)) > 0:
        lines.append(tr.plural("…and {count} more match", "…and {count} more matches", more))
    embed = discord.Embed(
        title=tr.plural("{count} match in play on this server",
                        "{count} matches in play on this server", total),
        description="\n".join(lines), colour=COLOUR)
    embed.set_footer(text=tr("Oldest move first. {command} ends one by its number.",
                             command=command(tr, "umtali-admin", "end-match")))
    return embed


async def run_matches(interaction: discord.Interaction) -> None:
    """Answer the admin with the server's matches in play (ephemeral). The database failing
    for now is said as any read's failure is (``errors.BUSY``: try again in a moment), a
    warning: nothing was changed, and nothing is wrong with the bot."""
    assert interaction.guild is not None
    svc = service(interaction.client)
    tr = tr_of(interaction)
    try:
        found, total = await in_time(interaction,
                                     svc.store.under_way_in(interaction.guild.id))
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.warning("server %d's matches in play could not be read (%s: %s)",
                    interaction.guild.id, e.__class__.__name__, e)
        await private_answer(interaction, content=tr(BUSY))
        return
    if not found:
        await private_answer(interaction, content=tr("No match is in play on this server."),
                             allowed_mentions=NO_MENTIONS)
        return
    # Whether its players are still members: asked of the oldest matches' first (those an
    # admin looks at to end), at most a few, within the answer's seconds (``departures``).
    guild = interaction.guild
    players = [m.player_ids[seat] for m in found for seat in (0, 1) if m.computer_seat != seat]
    await in_time(interaction, ask(interaction.client, guild, players))
    # Parsed away from the event loop: a server's many saved sessions would hold up its moves.
    # (read from discord.py's cache here, on the event loop, which alone changes it)
    gone = frozenset(live.id for live in svc.matches.values() if deleted(live))
    lost = {m.match_id: lost_words(guild, m, tr, gone) for m in found if m.channel_lost}
    embed = await asyncio.to_thread(listing, found, total, tr,
                                    (interaction.client, guild.id), lost)
    await private_answer(interaction, embed=embed, allowed_mentions=NO_MENTIONS)
