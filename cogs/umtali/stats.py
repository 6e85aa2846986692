"""A member's stats on Discord (``/umtali stats``): their record on the server and on all
servers, a season's place first where the server runs seasons, a head-to-head, and their
latest sessions. The numbers come from ``data.record_reads``; this module puts them into words.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.access import service, store
from cogs.umtali.board_posts import answer_board
from cogs.umtali.calendar_words import season_name
from cogs.umtali.in_time import in_time
from cogs.umtali.numbers import one_decimal
from cogs.umtali.records import (
    RATING_NOTE,
    name_of,
    reader_words,
    session_text,
    whole_lines,
)
from cogs.umtali.render import COLOUR
from data.models import PlayerRecord
from data.records import GLOBAL
from umtali.i18n import EN, N_, Tr

#: Said for a head-to-head with the computer (or any bot): no member to be matched with, and
#: its sessions are practice, counted apart (review142: they were given as a head-to-head).
PRACTICE_APART = N_("Sessions against the computer are practice, not head-to-head: they are "
                     "counted under “Practice”.")


def record_text(rec: PlayerRecord, tr: Tr = EN, all_time: bool = False) -> str:
    """``all_time``: the rating is named so, a season's coming before it."""
    s, lines = rec.rated, []
    if rec.rating is not None:
        r = rec.rating
        values = dict(rating=one_decimal(tr, r.value), rank=r.rank, players=r.players,
                      mu=one_decimal(tr, r.mu), sigma=one_decimal(tr, r.sigma))
        lines.append(
            tr("All time: rating **{rating}**, #{rank} of {players} (μ {mu}, σ {sigma})",
               **values) if all_time else
            tr("Rating **{rating}**, #{rank} of {players} (μ {mu}, σ {sigma})", **values))
    if s.sessions:
        # Each count said with what it counts (a screen reader reads "games 12–8" as "games 12
        # 8"), the units with their plural forms.
        best = "—" if s.best_hand is None else tr.plural(  # "—": no hand scored yet
            "{count} point", "{count} points", s.best_hand)
        went_out = tr.plural("{count} time", "{count} times", s.went_out)
        lines += [
            tr("Sessions: won {won}, lost {lost} · games: won {games_won}, lost {games_lost} "
               "· hands: won {hands_won}, lost {hands_lost}", won=s.sessions_won,
               lost=s.sessions_lost, games_won=s.games_won, games_lost=s.games_lost,
               hands_won=s.hands_won, hands_lost=s.hands_lost),
            tr("Points in all: {points} · best hand: {best} · marriages: {marriages} · went "
               "out: {went_out} · sessions resigned or lost on time: {forfeits}",
               points=s.points, best=best, marriages=s.marriages,
               went_out=went_out,
               forfeits=s.forfeits),
        ]
    p = rec.practice
    if p.sessions:
        lines.append(tr("Practice: {won} of {sessions} won against the computer",
                        won=p.sessions_won, sessions=p.sessions))
    return "\n".join(lines) or tr("No finished sessions.")


async def show_stats(interaction: discord.Interaction, user: discord.abc.User,
                     versus: discord.abc.User | None) -> None:
    """A member's record, answered within Discord's time however long the database makes its
    reads wait (queued behind a save that waits for another process's write)."""
    assert interaction.guild is not None
    guild_id = interaction.guild.id

    async def record(private: bool) -> dict[str, Any]:
        return {"embed": await in_time(interaction, _stats(interaction, guild_id, user, versus,
                                                           private))}

    await answer_board(interaction, record)


async def _stats(interaction: discord.Interaction, guild_id: int, user: discord.abc.User,
                 versus: discord.abc.User | None, private: bool) -> discord.Embed:
    tr = reader_words(interaction, guild_id, private)
    records = store(interaction.client).records
    here = await records.record(guild_id, user.id)
    everywhere = await records.record(GLOBAL, user.id)
    name = name_of(user, here.name, tr)
    embed = discord.Embed(title=tr("Umtali · {name}", name=name), colour=COLOUR)
    if not (everywhere.rated.sessions or everywhere.practice.sessions):
        embed.description = tr("{name} has not finished a session yet.", name=name)
    else:
        seasons = store(interaction.client).seasons
        # Not an open season past its end (seasons turned off: none follows it).
        season = await seasons.in_play(guild_id, service(interaction.client).clock())
        standing = None if season is None else \
            await seasons.standing(guild_id, season, user.id)
        value = record_text(here, tr, all_time=standing is not None)
        if season is not None and standing is not None:
            # The board the server shows by default: the season's place first.
            value = tr("{season} season: rating **{rating}**, #{rank} of {players}",
                       season=season_name(tr, season), rating=one_decimal(tr, standing.value),
                       rank=standing.rank, players=standing.players) + "\n" + value
        embed.add_field(name=tr("On this server"), value=value, inline=False)
        embed.add_field(name=tr("On all servers"), value=record_text(everywhere, tr),
                        inline=False)
    if versus is not None and versus.id != user.id and (versus.bot or user.bot):
        # No count read: a session against the computer is practice (another bot plays
        # none), which head-to-head leaves out.
        other = name_of(versus, None, tr)
        embed.add_field(name=tr("Head-to-head with {name} on this server", name=other),
                        value=tr(PRACTICE_APART), inline=False)
    elif versus is not None and versus.id != user.id:
        h2h = await records.head_to_head(guild_id, user.id, versus.id)
        other = name_of(versus, (await records.record(guild_id, versus.id)).name, tr)
        lines = [tr("Sessions won: {a} {score_a}, {b} {score_b}", a=name, score_a=h2h.won,
                    score_b=h2h.lost, b=other)]
        lines += [session_text(line, user.id, tr) for line in h2h.recent]
        embed.add_field(name=tr("Head-to-head with {name} on this server", name=other),
                        value=whole_lines(lines), inline=False)
    recent = await records.recent(guild_id, user.id)
    if recent:
        embed.add_field(name=tr("Recent sessions on this server"),
                        value=whole_lines([session_text(line, user.id, tr)
                                           for line in recent]),
                        inline=False)
    embed.set_footer(text=tr(RATING_NOTE))
    return embed
