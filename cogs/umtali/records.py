"""Records on Discord: leaderboards, stats, history, and a finished session as a replay file.

The numbers come from ``data.records``; this module only puts them into words. Names are the ones
stored with the results, so members who left the server still show under the name they played
under. Leaderboard pages and the replay menu are ``DynamicItem``s whose custom ids carry what
they show, so they keep working after a restart.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import re
from typing import Any

import discord
from discord import app_commands

from cogs.umtali.access import store
from cogs.umtali.errors import guarded
from cogs.umtali.names import clean_name, label_name, safe_name, safe_text
from cogs.umtali.private import send_private
from cogs.umtali.render import COLOUR
from data.models import BoardPage, MatchRow, PlayerRecord, SessionLine
from data.records import GLOBAL
from umtali.rules import RuleSet

log = logging.getLogger(__name__)

SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="all servers", value="global"),
]
#: Sessions listed by /umtali history (and offered for export: a menu holds 25 at most).
HISTORY = 10
RATING_NOTE = "rating = μ − 3σ, a cautious estimate of skill; practice is not rated"


def _scope_id(guild_id: int, scope: str) -> int:
    return GLOBAL if scope == "global" else guild_id


def _when(timestamp: float, style: Any = "R") -> str:
    return discord.utils.format_dt(dt.datetime.fromtimestamp(timestamp, dt.UTC), style)


def _name_of(user: discord.abc.User, stored: str | None) -> str:
    """A member's name here (for someone who left, the name they last played under), safe
    for a message."""
    if isinstance(user, discord.Member) or not stored:
        return safe_name(user.display_name)
    return safe_name(stored)


# -- leaderboard ----------------------------------------------------------------------------


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"umtali:lb:(?P<guild>[0-9]+):(?P<scope>server|global):"
                           r"(?P<page>[0-9]+)"):
    def __init__(self, guild_id: int, scope: str, page: int, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or f"Page {page}", style=discord.ButtonStyle.secondary,
            disabled=disabled, custom_id=f"umtali:lb:{guild_id}:{scope}:{page}"))
        self.guild_id, self.scope, self.page = guild_id, scope, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BoardButton:
        return cls(int(match["guild"]), match["scope"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: turn_page(interaction, self.guild_id, self.scope,
                                                     self.page))


def board_embed(board: BoardPage, scope: str, guild_name: str) -> discord.Embed:
    where = "all servers" if scope == "global" else safe_text(guild_name)
    if board.rows:
        text = "\n".join(
            f"`{row.rank:>3}.` **{safe_name(row.name)}** · {row.rating:.1f} · "
            f"{row.sessions_won}/{row.sessions} won" for row in board.rows)
    else:
        text = ("No rated sessions yet: finish a session against another member to appear "
                "here.")
    embed = discord.Embed(title=f"Umtali leaderboard · {where}", description=text,
                          colour=COLOUR)
    embed.set_footer(text=f"Page {board.page} of {board.pages} · {RATING_NOTE}")
    return embed


def board_panel(guild_id: int, scope: str, board: BoardPage) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if board.pages > 1:
        view.add_item(BoardButton(guild_id, scope, board.page - 1, "◀ Previous",
                                  disabled=board.page <= 1))
        view.add_item(BoardButton(guild_id, scope, board.page + 1, "Next ▶",
                                  disabled=board.page >= board.pages))
    return view


async def _board(interaction: discord.Interaction, guild_id: int, scope: str,
                 page: int) -> tuple[discord.Embed, discord.ui.View]:
    board = await store(interaction.client).records.leaderboard(_scope_id(guild_id, scope),
                                                                page)
    guild_name = interaction.guild.name if interaction.guild else "this server"
    return board_embed(board, scope, guild_name), board_panel(guild_id, scope, board)


async def show_leaderboard(interaction: discord.Interaction, scope: str, page: int) -> None:
    assert interaction.guild is not None
    embed, view = await _board(interaction, interaction.guild.id, scope, page)
    await interaction.response.send_message(embed=embed, view=view)


async def turn_page(interaction: discord.Interaction, guild_id: int, scope: str,
                    page: int) -> None:
    if interaction.guild_id != guild_id:
        # The id is the client's word: a server's board pages only within that server.
        await interaction.response.send_message("That leaderboard belongs to another server.",
                                                ephemeral=True)
        return
    embed, view = await _board(interaction, guild_id, scope, page)
    await interaction.response.edit_message(embed=embed, view=view)


# -- stats and history ----------------------------------------------------------------------


def session_text(line: SessionLine, user_id: int) -> str:
    """One finished session as ``user_id`` played it: result, opponent, score, how, when."""
    seat = line.seat_of(user_id)
    me = 0 if seat is None else seat
    won = line.winner_seat == me
    loser = line.names[1 - line.winner_seat]
    how = line.how if line.how == "played out" else f"{safe_name(loser)} {line.how}"
    return (f"`#{line.match_id}` **{'won' if won else 'lost'}** against "
            f"{safe_name(line.names[1 - me])} {line.games_won[me]}–{line.games_won[1 - me]} · "
            f"{how} · {_when(line.finished_at)}")


def record_text(rec: PlayerRecord) -> str:
    s, lines = rec.rated, []
    if rec.rating is not None:
        r = rec.rating
        lines.append(f"Rating **{r.value:.1f}**, #{r.rank} of {r.players} "
                     f"(μ {r.mu:.1f}, σ {r.sigma:.1f})")
    if s.sessions:
        lines += [
            f"Sessions {s.sessions_won} won, {s.sessions_lost} lost · games "
            f"{s.games_won}–{s.games_lost} · hands {s.hands_won}–{s.hands_lost}",
            f"Points {s.points} · best hand {s.best_hand} · marriages {s.marriages} · "
            f"went out {s.went_out} · forfeits {s.forfeits}",
        ]
    p = rec.practice
    if p.sessions:
        lines.append(f"Practice: {p.sessions_won} of {p.sessions} won against the computer")
    return "\n".join(lines) or "No finished sessions."


async def show_stats(interaction: discord.Interaction, user: discord.abc.User,
                     versus: discord.abc.User | None) -> None:
    assert interaction.guild is not None
    guild_id = interaction.guild.id
    records = store(interaction.client).records
    here = await records.record(guild_id, user.id)
    everywhere = await records.record(GLOBAL, user.id)
    name = _name_of(user, here.name)
    embed = discord.Embed(title=f"Umtali · {name}", colour=COLOUR)
    if not (everywhere.rated.sessions or everywhere.practice.sessions):
        embed.description = f"{name} has not finished a session yet."
    else:
        embed.add_field(name="On this server", value=record_text(here), inline=False)
        embed.add_field(name="On all servers", value=record_text(everywhere), inline=False)
    if versus is not None and versus.id != user.id:
        h2h = await records.head_to_head(guild_id, user.id, versus.id)
        other = _name_of(versus, (await records.record(guild_id, versus.id)).name)
        lines = [f"{name} {h2h.won} – {h2h.lost} {other}"]
        lines += [session_text(line, user.id) for line in h2h.recent]
        embed.add_field(name=f"Head-to-head with {other} on this server",
                        value="\n".join(lines)[:1024], inline=False)
    recent = await records.recent(guild_id, user.id)
    if recent:
        embed.add_field(name="Recent sessions on this server",
                        value="\n".join(session_text(line, user.id) for line in recent)[:1024],
                        inline=False)
    embed.set_footer(text=RATING_NOTE)
    await interaction.response.send_message(embed=embed)


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"umtali:rp:(?P<guild>[0-9]+)"):
    def __init__(self, guild_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"umtali:rp:{guild_id}", placeholder="Export a session as a replay…",
            options=options or [discord.SelectOption(label="-")]))
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplaySelect:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        match_id = int(values[0]) if values and values[0].isdigit() else 0
        await guarded(interaction, lambda: send_replay(interaction, self.guild_id, match_id))


async def show_history(interaction: discord.Interaction, user: discord.abc.User) -> None:
    assert interaction.guild is not None
    records = store(interaction.client).records
    lines = await records.recent(interaction.guild.id, user.id, HISTORY)
    seat = lines[0].seat_of(user.id) if lines else None
    name = _name_of(user, lines[0].names[seat] if lines and seat is not None else None)
    embed = discord.Embed(title=f"Umtali history · {name}", colour=COLOUR)
    view = discord.ui.View(timeout=None)
    if not lines:
        embed.description = f"{name} has not finished a session on this server yet."
    else:
        embed.description = "\n".join(session_text(line, user.id) for line in lines)
        embed.set_footer(text="Choose a session below to get it as a replay file.")
        view.add_item(ReplaySelect(interaction.guild.id, [
            discord.SelectOption(
                label=f"#{line.match_id}: {label_name(line.names[0])} vs "
                      f"{label_name(line.names[1])}"[:100],
                description=dt.datetime.fromtimestamp(line.finished_at, dt.UTC)
                .strftime("%Y-%m-%d %H:%M UTC"),
                value=str(line.match_id))
            for line in lines]))
    await send_private(interaction, view, embed=embed)


# -- replays --------------------------------------------------------------------------------


def replay_text(match: MatchRow, line: SessionLine, moves: list[str]) -> str:
    """A finished session in the move notation, one move a line, after ``#`` comment lines
    saying who played, the rules, the seed and the command that replays it."""
    state = json.loads(match.state)
    rules = RuleSet.from_json(state["rules"])
    seed = state["seed"]
    command = f"python -m umtali script --seed {seed} --variant {rules.name}"
    if rules.optional_melding:
        command += " --optional-melding"
    # Plain text, one line each: a name never starts a line of its own (nor a fake move).
    names = [clean_name(n) for n in line.names]
    winner, loser = names[line.winner_seat], names[1 - line.winner_seat]
    how = line.how if line.how == "played out" else f"{loser} {line.how}"
    header = [
        f"Umtali session #{line.match_id}, finished "
        f"{dt.datetime.fromtimestamp(line.finished_at, dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"Player 1 (seat 0): {names[0]}",
        f"Player 2 (seat 1): {names[1]}",
        f"Rules: {rules.describe()}",
        f"Seed: {seed}",
        f"Result: {winner} wins {line.games_won[0]}-{line.games_won[1]} in games, {how}",
        f"Replay: {command} < {replay_filename(line.match_id)}",
    ]
    if rules != RuleSet.named(rules.name, optional_melding=rules.optional_melding) or \
            state.get("first_deal"):
        header.append("Note: this session used a setting the command above cannot give.")
    tail = [] if line.how == "played out" else [f"# {loser} {line.how} here."]
    body = ["# " + " ".join(h.split()) for h in header] + moves + tail
    return "\n".join(body) + "\n"


def replay_filename(match_id: int) -> str:
    return f"umtali-session-{match_id}.txt"


async def send_replay(interaction: discord.Interaction, guild_id: int, match_id: int) -> None:
    st = store(interaction.client)
    line = await st.records.session(match_id)
    match = await st.match(match_id)
    if line is None or match is None or line.guild_id != guild_id or \
            interaction.guild_id != guild_id:
        await interaction.response.send_message("That session is not kept on this server.",
                                                ephemeral=True)
        return
    text = replay_text(match, line, await st.moves(match_id))
    await interaction.response.send_message(
        f"Session #{match_id}, {safe_name(line.names[0])} vs {safe_name(line.names[1])}, "
        "as a replay:",
        file=discord.File(io.BytesIO(text.encode()), filename=replay_filename(match_id)),
        ephemeral=True)


# -- start-up -------------------------------------------------------------------------------


async def count_backlog(client: discord.Client) -> None:
    """Count results kept before records existed; on failure the bot still starts, and the
    next start tries again (each result is counted once, whenever that happens)."""
    try:
        counted = await store(client).count_backlog()
    except Exception:
        log.exception("earlier results could not be counted into stats and ratings")
        return
    if counted:
        log.info("%d earlier result(s) counted into stats and ratings", counted)


RECORD_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (BoardButton, ReplaySelect)
