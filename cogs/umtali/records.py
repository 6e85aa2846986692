"""Records on Discord: leaderboards, and a finished session's line as stats and history show
it (a member's stats: ``stats``; their history and replays: ``history``).

The numbers come from ``data.records``; this module only puts them into words. Names are the ones
stored with the results, so members who left the server still show under the name they played
under: on a server's own board, their nickname there; on the board of all servers, their
Discord-wide display name (``data.records.recorded_name``), as a nickname is its server's.
Leaderboard pages and the replay menu are ``DynamicItem``s whose custom ids carry what they
show, so they keep working after a restart.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import Any

import discord
from discord import app_commands

from cogs.umtali.access import service, store, tr_of
from cogs.umtali.board_posts import answer_board, show_board
from cogs.umtali.errors import guarded
from cogs.umtali.final_card import show_counted
from cogs.umtali.ids import carries_only, id_of
from cogs.umtali.in_time import answer, edit_clicked, in_time
from cogs.umtali.names import echo, record_name, safe_name, server_name
from cogs.umtali.numbers import one_decimal, score
from cogs.umtali.options import names_in
from cogs.umtali.render import COLOUR
from cogs.umtali.seasons import (
    BOARD_PATTERN,
    chosen_board,
    is_all_time,
    is_season,
    season_title,
)
from cogs.umtali.text_cuts import head
from cogs.umtali.unknown import OUT_OF_DATE
from data.failing import failing_for_now
from data.models import BoardPage, SessionLine
from data.record_reads import UnfinishedLine
from data.records import GLOBAL
from umtali.i18n import EN, N_, Text, Tr
from umtali.text import HOW

log = logging.getLogger(__name__)

SCOPES = [
    app_commands.Choice(name=N_("this server"), value="server"),
    app_commands.Choice(name=N_("all servers"), value="global"),
]
#: Sessions listed by /umtali history (and offered for export: a menu holds 25 at most).
HISTORY = 10
#: Matches ended with no result listed after them, each with its deals file.
UNFINISHED = 5
#: Under the board and the stats: why a rating may be below zero (review166: "−1.8" unexplained),
#: in the final card's words (``final_card.CAUTIOUS``).
RATING_NOTE = N_("A rating is a cautious estimate of skill (μ − 3σ), so it may be below zero: "
                 "it moves most in your first sessions and rises as you play more. Practice is "
                 "not rated.")

# Leaderboards and stats are posted in the channel: in the server's language. History and
# replays are the member's own (ephemeral): in their language.


def _scope_id(guild_id: int, scope: str) -> int:
    return GLOBAL if scope == "global" else guild_id


def _when(timestamp: float, style: Any = "R") -> str:
    return discord.utils.format_dt(dt.datetime.fromtimestamp(timestamp, dt.UTC), style)


def name_of(user: discord.abc.User, stored: str | None, tr: Tr) -> str:
    """A member's name here (for someone who left, the name they last played under), safe
    for a message; one that shows nothing in ``tr``'s words (``names.record_name``)."""
    shown = user.display_name if isinstance(user, discord.Member) or not stored else stored
    return safe_name(record_name(shown, user.id, tr))


# -- leaderboard ----------------------------------------------------------------------------


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"umtali:lb:(?P<guild>[0-9]+):(?P<scope>" + BOARD_PATTERN + r"):"
                           r"(?P<page>[0-9]+)(?::(?P<asker>[0-9]+))?"):
    # ``scope``: server (all time), global, or a season of the server (``2026-12``).
    # ``asker``: who asked for a board posted in the channel (0: a private board, or a board
    # posted before it was kept), whose alone its pages are (``turn_page``).
    def __init__(self, guild_id: int, scope: str, page: int, label: str = "",
                 disabled: bool = False, asker: int = 0) -> None:
        whose = f":{asker}" if asker else ""
        super().__init__(discord.ui.Button(
            label=label or f"Page {page}", style=discord.ButtonStyle.secondary,
            disabled=disabled, custom_id=f"umtali:lb:{guild_id}:{scope}:{page}{whose}"))
        self.guild_id, self.scope, self.page, self.asker = guild_id, scope, page, asker

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BoardButton:
        return cls(id_of(match["guild"]), match["scope"], id_of(match["page"]),
                   asker=id_of(match["asker"] or "0"))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: turn_page(interaction, self.guild_id, self.scope,
                                                     self.page, self.asker))


def board_embed(board: BoardPage, scope: str, guild_name: str, tr: Tr = EN,
                seasons_on: bool = False, ended: bool = False) -> discord.Embed:
    """A page of a board; ``seasons_on``: the server runs seasons (its all-time board says
    so); ``ended``: the season's board is of a season over, which nobody can join now."""
    where = tr("all servers") if scope == "global" else server_name(guild_name)
    if is_season(scope) and not board.rows and ended:
        text = tr("No rated session was played in this season.")
    elif is_season(scope) and not board.rows:
        text = tr("No rated sessions in this season yet: finish a session against another "
                  "member to appear here.")
    elif board.rows:
        text = "\n".join(tr(
            "`{rank}.` **{name}** · {rating} · won {won} of {sessions}",
            rank=str(row.rank).rjust(3),
            name=safe_name(record_name(row.name, row.user_id, tr)),
            rating=one_decimal(tr, row.rating), won=row.sessions_won,
            sessions=row.sessions) for row in board.rows)
    else:
        text = tr("No rated sessions yet: finish a session against another member to appear "
                  "here.")
    title = season_title(tr, where, scope, seasons_on) or tr("Umtali leaderboard · {where}",
                                                             where=where)
    embed = discord.Embed(title=title, description=text, colour=COLOUR)
    embed.set_footer(text=tr("Page {page} of {pages} · {note}", page=board.page,
                             pages=board.pages, note=tr(RATING_NOTE)))
    return embed


def board_panel(guild_id: int, scope: str, board: BoardPage, tr: Tr = EN,
                asker: int = 0) -> discord.ui.View:
    """The board's page buttons; ``asker``: who asked for a board posted in the channel."""
    view = discord.ui.View(timeout=None)
    if board.pages > 1:
        # In words alone: a screen reader reads an arrow in a label out by name.
        view.add_item(BoardButton(guild_id, scope, board.page - 1, tr("Previous page"),
                                  disabled=board.page <= 1, asker=asker))
        view.add_item(BoardButton(guild_id, scope, board.page + 1, tr("Next page"),
                                  disabled=board.page >= board.pages, asker=asker))
    return view


def reader_words(interaction: discord.Interaction, guild_id: int, private: bool) -> Tr:
    """A board or record for the member alone speaks their language, as a private snapshot
    of the table does; one posted in the channel, the server's."""
    return tr_of(interaction) if private else service(interaction.client).prefs.guild_tr(guild_id)


async def _board(interaction: discord.Interaction, guild_id: int, scope: str,
                 page: int, private: bool) -> tuple[discord.Embed, discord.ui.View]:
    """A page of a board; ``scope``: server (all time), global, or a season's name."""
    svc = service(interaction.client)
    seasons_on = ended = False
    if is_season(scope):
        board = await svc.store.seasons.board(guild_id, scope, page)
        if not board.rows:
            ended = await svc.store.seasons.running(guild_id) != scope
    else:
        board = await svc.store.records.leaderboard(_scope_id(guild_id, scope), page)
        if scope == "server":
            # (a season still in play after seasons were turned off is the default board)
            seasons_on = (await svc.store.guild_settings(guild_id)).seasons != "off" or \
                await svc.store.seasons.in_play(guild_id, svc.clock()) is not None
    tr = reader_words(interaction, guild_id, private)
    guild_name = interaction.guild.name if interaction.guild else tr("this server")
    return (board_embed(board, scope, guild_name, tr, seasons_on, ended),
            board_panel(guild_id, scope, board, tr,
                        asker=0 if private else interaction.user.id))


async def show_leaderboard(interaction: discord.Interaction, scope: str, page: int,
                           season: str | None = None) -> None:
    """``scope`` server or global; ``season`` (server only): a season's name, ``all`` for
    all time, None for the server's default (its current season when it runs seasons).
    Answered within Discord's time however long the database makes it wait (the current
    season may have to be opened or ended first: a write)."""
    assert interaction.guild is not None
    if scope != "global":
        chosen = await in_time(interaction, chosen_board(
            service(interaction.client), interaction.guild.id, season, tr_of(interaction)))
        if chosen is None:
            tr = tr_of(interaction)
            # Quoted short and whole: cut before it is escaped, not through an escape.
            await answer(interaction, tr(
                "This server has had no season “{season}”: choose one from the list.",
                season=echo(season or "", 40)))
            return
        scope = chosen
    elif season is not None and not is_all_time(season, tr_of(interaction)):
        tr = tr_of(interaction)
        await answer(interaction, tr(
            "Seasons are kept per server: the board of all servers is all time."))
        return
    guild_id = interaction.guild.id

    async def board(private: bool) -> dict[str, Any]:
        embed, view = await in_time(interaction, _board(interaction, guild_id, scope, page,
                                                        private))
        return {"embed": embed, "view": view}

    await answer_board(interaction, board)


async def turn_page(interaction: discord.Interaction, guild_id: int, scope: str,
                    page: int, asker: int = 0) -> None:
    """A page of a board, on its message; a board posted in the channel is turned by the
    member who asked for it alone: another gets the page for themselves (review153: two
    readers turned one board back and forth under each other)."""
    if interaction.guild_id != guild_id:
        # The id is the client's word: a server's board pages only within that server.
        tr = tr_of(interaction)
        await interaction.response.send_message(
            tr("That leaderboard belongs to another server."), ephemeral=True)
        return
    if not carries_only(interaction.message, f"umtali:lb:{guild_id}:"):
        # A page button forged onto another message (a table, a challenge): not turned into
        # a board, its own buttons lost.
        await answer(interaction, tr_of(interaction)(OUT_OF_DATE))
        return
    # A page of a private board (an ephemeral message) stays in the member's language.
    private = interaction.message is not None and interaction.message.flags.ephemeral
    if not private and asker and interaction.user.id != asker:
        embed, view = await in_time(interaction, _board(interaction, guild_id, scope, page,
                                                        True), new_message=True)
        await show_board(interaction, True, embed=embed, view=view)
        return
    embed, view = await in_time(interaction, _board(interaction, guild_id, scope, page,
                                                    private))
    await edit_clicked(interaction, embed=embed, view=view)


# -- stats and history ----------------------------------------------------------------------


def how_words(line: SessionLine, tr: Tr, loser: str) -> str:
    """How a session ended: "played out", or "ben resigned" (``loser``: the name as shown),
    as the session's announcement says it (Russian: in the present, "ben сдаётся")."""
    if line.how == "played out":
        return tr("played out")
    return tr("{name} {how}", name=loser, how=tr(HOW[line.how]) if line.how in HOW else line.how)


#: How a session ended, in the past, for history: Russian says it of a noun ("игрок сдался",
#: "время хода вышло"), so it gives the player named beside it no gender (``HOW``).
ENDED = {"resigned": Text.ctx("how a session ended", "resigned"),
         "timed out": Text.ctx("how a session ended", "timed out"),
         "forfeited": Text.ctx("how a session ended", "forfeited")}
#: Who it was, beside it: "ben resigned"; Russian "игрок сдался: ben".
ENDED_BY = Text.ctx("how a finished session ended, and by whom", "{name} {how}")


def ended_words(line: SessionLine, tr: Tr, loser: str) -> str:
    """``how_words`` in the past: a history line of a finished session."""
    if line.how not in ENDED:
        return how_words(line, tr, loser)
    return tr(ENDED_BY, name=loser, how=ENDED[line.how])


def line_names(line: SessionLine, user_id: int, tr: Tr) -> tuple[str, str]:
    """The names of a session of ``user_id``'s: in their practice, the computer's is bot
    text, in the reader's language (it is stored in the server's)."""
    seat = line.seat_of(user_id)
    return names_in(recorded(line.names, line.player_ids, tr), None if seat is None else 1 - seat,
                    line.computer_level, tr)


def recorded(names: tuple[str, str], ids: tuple[int, int], tr: Tr) -> tuple[str, str]:
    """A past match's names, one that shows nothing by its member's id, not its seat
    (``names.record_name``)."""
    return record_name(names[0], ids[0], tr), record_name(names[1], ids[1], tr)


def session_text(line: SessionLine, user_id: int, tr: Tr = EN) -> str:
    """One finished session as ``user_id`` played it: result, opponent, score, how, when."""
    seat = line.seat_of(user_id)
    me = 0 if seat is None else seat
    won = line.winner_seat == me
    names = line_names(line, user_id, tr)
    values = dict(
        match=line.match_id, name=safe_name(names[1 - me]),
        score=score(tr, line.games_won[me], line.games_won[1 - me]),
        how=ended_words(line, tr, safe_name(names[1 - line.winner_seat])),
        when=_when(line.finished_at))
    if won:
        return tr("`#{match}` **won** against {name} {score} · {how} · {when}", **values)
    return tr("`#{match}` **lost** against {name} {score} · {how} · {when}", **values)


def unfinished_names(line: UnfinishedLine, tr: Tr) -> tuple[str, str]:
    """The names of a match that ended with no result, for ``tr``'s reader (``names_in``)."""
    return names_in(recorded(line.names, line.player_ids, tr), line.computer_seat,
                    line.computer_level, tr)


def unfinished_text(line: UnfinishedLine, user_id: int, tr: Tr = EN) -> str:
    """A match that ended with no result, as ``user_id`` played it: opponent, how, when."""
    me = 1 if user_id == line.player_ids[1] else 0
    names = unfinished_names(line, tr)
    values = dict(match=line.match_id, name=safe_name(names[1 - me]),
                  when=_when(line.finished_at))
    if line.how == "cancelled":
        return tr("`#{match}` against {name} · cancelled, no result · {when}", **values)
    if line.ended_by is not None:
        return tr("`#{match}` against {name} · ended by a server admin, no result · {when}",
                  **values)
    return tr("`#{match}` against {name} · abandoned, no result · {when}", **values)


def whole_lines(lines: list[str], limit: int = 1024) -> str:
    """As many of ``lines`` as fit in ``limit`` characters (an embed field's), whole: a line
    cut short shows a broken timestamp or markdown (long escaped names fill a field fast)."""
    kept = lines[:1]
    for line in lines[1:]:
        if len("\n".join([*kept, line])) > limit:
            break
        kept.append(line)
    return head("\n".join(kept), limit)  # a first line too long: cut as a reader loses least


# -- start-up -------------------------------------------------------------------------------


async def count_backlog(client: discord.Client) -> None:
    """Count results kept before records existed; on failure the bot still starts, and the
    next start tries again (each result is counted once, whenever that happens)."""
    ids: list[int] = []
    try:
        counted = await store(client).count_backlog(ids, service(client).clock())
    except Exception as e:
        if failing_for_now(e):
            # The database busy or out of reach: no bug; the next start tries again.
            log.warning("earlier results could not be counted into stats and ratings (%s: "
                        "%s); the next start tries again", e.__class__.__name__, e)
        else:
            log.exception("earlier results could not be counted into stats and ratings")
        return
    if counted:
        log.info("%d earlier result(s) counted into stats and ratings", counted)
        await show_counted(service(client), ids)


