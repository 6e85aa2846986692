"""A member's history on Discord, privately, and a finished session from it as a replay file
(its moves) with its deals file (the JSON that checks its deals); a match that ended with no
result after its deal is listed too, with its deals file. The replay menu is a ``DynamicItem``
whose custom id carries its server, so it keeps working after a restart."""

from __future__ import annotations

import io
import json
import re
import shlex
from typing import Any

import discord

from cogs.umtali.access import store, tr_of
from cogs.umtali.calendar_words import when_words
from cogs.umtali.errors import guarded
from cogs.umtali.fair import revealed, verify_file, verify_filename
from cogs.umtali.ids import id_of
from cogs.umtali.in_time import answer, in_time, thinking
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import clean_name, isolate, label_name, safe_name, shorten
from cogs.umtali.options import names_in, rules_words
from cogs.umtali.private import send_private
from cogs.umtali.records import (
    HISTORY,
    UNFINISHED,
    how_words,
    line_names,
    name_of,
    recorded,
    session_text,
    unfinished_names,
    unfinished_text,
)
from cogs.umtali.render import COLOUR
from data.models import MatchRow, SessionLine
from data.record_reads import Records, UnfinishedLine
from umtali.codec import session_from_json
from umtali.i18n import EN, Tr
from umtali.rules import RuleSet
from umtali.seeds import uncut


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"umtali:rp:(?P<guild>[0-9]+)"):
    def __init__(self, guild_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"umtali:rp:{guild_id}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="-")]))
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplaySelect:
        return cls(id_of(match["guild"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        match_id = id_of(values[0]) if values else 0
        await guarded(interaction, lambda: send_replay(interaction, self.guild_id, match_id))


async def _read_history(records: Records, guild_id: int,
                        user_id: int) -> tuple[list[SessionLine], list[UnfinishedLine]]:
    # Matches that ended with no result: no score to show, but their deals to check.
    return (await records.recent(guild_id, user_id, HISTORY),
            await records.unfinished(guild_id, user_id, UNFINISHED))


async def show_history(interaction: discord.Interaction, user: discord.abc.User) -> None:
    """A member's history, answered within Discord's time however long the database makes
    its reads wait (queued behind a save that waits for another process's write)."""
    assert interaction.guild is not None
    tr = tr_of(interaction)
    lines, unfinished = await in_time(interaction, _read_history(
        store(interaction.client).records, interaction.guild.id, user.id))
    seat = lines[0].seat_of(user.id) if lines else None
    name = name_of(user, lines[0].names[seat] if lines and seat is not None else None, tr)
    embed = discord.Embed(title=tr("Umtali history · {name}", name=name), colour=COLOUR)
    view = discord.ui.View(timeout=None)
    if not lines and not unfinished:
        embed.description = tr("{name} has not finished a session on this server yet.",
                               name=name)
    else:
        said = [session_text(line, user.id, tr) for line in lines]
        if unfinished:
            said += ["", tr("Ended with no result; their deals are revealed too:")]
            said += [unfinished_text(u, user.id, tr) for u in unfinished]
        embed.description = "\n".join(said)
        embed.set_footer(
            text=tr("Choose a session below to get its replay file and its deals file."))
        listed = [(line.match_id, line_names(line, user.id, tr), line.finished_at)
                  for line in lines]
        listed += [(u.match_id, unfinished_names(u, tr), u.finished_at) for u in unfinished]
        view.add_item(ReplaySelect(interaction.guild.id, [_option(*item, tr) for item in listed],
                                   placeholder=tr("Get a session's files…")))
    await send_private(interaction, view, embed=embed)


def _option(match_id: int, names: tuple[str, str], finished_at: float,
            tr: Tr) -> discord.SelectOption:
    return discord.SelectOption(
        label=shorten(tr("#{match}: {a} vs {b}", match=match_id, a=label_name(names[0]),
                         b=label_name(names[1])), 100),
        description=when_words(tr, finished_at),
        value=str(match_id))


# -- replays --------------------------------------------------------------------------------


def match_names(match: MatchRow, tr: Tr) -> tuple[str, str]:
    """The players' names for ``tr``'s reader (``names_in``), a past match's: one that shows
    nothing as the records name it ("Player …4821": ``records.recorded``), not by its seat,
    which the replay's header already says ("Player 1 (seat 0): Player 1")."""
    return names_in(recorded(match.names, match.player_ids, tr), match.computer_seat,
                    match.computer_level, tr)


def replay_text(match: MatchRow, line: SessionLine, moves: list[str], tr: Tr = EN) -> str:
    """A finished session in the move notation, one move a line, after ``#`` comment lines
    saying who played, the rules, the seed and the command that replays it."""
    state = json.loads(match.state)
    rules = RuleSet.from_json(state["rules"])
    seed = state["seed"]
    # One quoted word: a typed cut is the accepting member's text, and the other player may
    # paste this command into a shell.
    command = f"python3 -m umtali script --seed {shlex.quote(str(seed))} --variant {rules.name}"
    if rules.optional_melding:
        command += " --optional-melding"
    # The file's comments are in its reader's language: the replay's answers too, whatever
    # the terminal's own language (the default) is.
    command += f" --lang {tr.lang}"
    # Plain text, one line each: a name never starts a line of its own (nor a fake move). A
    # right-to-left one isolated as in a message: an editor lays out "Итог: побеждает שרה, 2-0"
    # by the bidi algorithm too (the isolates are comments' text: the replay ignores them).
    names = [isolate(clean_name(n)) for n in match_names(match, tr)]
    w = line.winner_seat
    winner, loser = names[w], names[1 - w]
    command += " < " + replay_filename(line.match_id)
    header = [
        tr("Umtali session #{match}, finished {when}", match=line.match_id,
           when=when_words(tr, line.finished_at)),
        tr("Player 1 (seat 0): {name}", name=names[0]),
        tr("Player 2 (seat 1): {name}", name=names[1]),
        tr("Rules: {rules}", rules=rules_words(tr, rules.name, rules.optional_melding)),
        # The seed as the reveal names it, committed before the cut; the cut apart.
        tr("Seed: {seed}", seed=uncut(seed, match.cut)),
        *([tr("Cut: {cut}", cut=match.cut)] if match.cut else []),
        result_line(tr, winner, line.games_won[w], line.games_won[1 - w],
                    how_words(line, tr, loser)),
        tr("Replay: {command}", command=command),
    ]
    if rules != RuleSet.named(rules.name, optional_melding=rules.optional_melding) or \
            state.get("first_deal"):
        header.append(tr("Note: this session used a setting the command above cannot give."))
    tail = [] if line.how == "played out" else [
        "# " + tr("{how} here.", how=how_words(line, tr, loser))]
    # Each header one line (a line break in a value joined with a space), its spaces kept: a
    # typed cut may hold several in a row, and the command must give its seed as typed.
    body = ["# " + " ".join(h.splitlines()) for h in header] + moves + tail
    return "\n".join(body) + "\n"


def replay_filename(match_id: int) -> str:
    # Named to pair with the deals file beside it, umtali-42-deals.json.
    return f"umtali-{match_id}-replay.txt"


def _asked_from(interaction: discord.Interaction, match: MatchRow | None,
                guild_id: int) -> bool:
    """Asked on the match's own server, or in a DM by one of its players (its panel there):
    a replay is never given out for another server's match."""
    if match is None or match.guild_id != guild_id:
        return False
    if interaction.guild_id is None:
        return interaction.user.id in match.player_ids
    return interaction.guild_id == guild_id


async def send_replay(interaction: discord.Interaction, guild_id: int, match_id: int) -> None:
    """A session's replay file (and its deals file), privately, answered within Discord's
    time however long the database makes its reads wait."""
    tr = tr_of(interaction)
    said, files = await in_time(interaction, _replay(interaction, guild_id, match_id, tr),
                                new_message=True)
    if not files:
        await answer(interaction, said)
    elif thinking(interaction):
        await interaction.edit_original_response(content=said, attachments=files)
    elif interaction.response.is_done():
        await interaction.followup.send(said, files=files, ephemeral=True)
    else:
        await interaction.response.send_message(said, files=files, ephemeral=True)


async def _replay(interaction: discord.Interaction, guild_id: int, match_id: int,
                  tr: Tr) -> tuple[str, list[discord.File]]:
    """What ``send_replay`` answers: its words, and its files (none: a refusal)."""
    st = store(interaction.client)
    line = await st.records.session(match_id)
    match = await st.match(match_id)
    if line is None and match is not None and _asked_from(interaction, match, guild_id):
        return _unfinished(match, tr)
    if line is None or match is None or line.guild_id != guild_id or \
            not _asked_from(interaction, match, guild_id):
        return tr("That session is not kept on this server."), []
    text = replay_text(match, line, await st.moves(match_id), tr)
    files = [discord.File(io.BytesIO(text.encode()), filename=replay_filename(match_id))]
    a, b = match_names(match, tr)
    if match.salt:
        # The deals' check: the deals file with the commitment and its reveal. Its names as
        # the replay's (``python3 -m umtali verify`` says them), not the stored English
        # "Player" of a name that shows nothing.
        session = session_from_json(json.loads(match.state))
        files.append(discord.File(io.BytesIO(verify_file(session, (a, b), match.salt,
                                                          cut=match.cut)),
                                  filename=verify_filename(match_id)))
        return tr("Session #{match}, {a} vs {b}: its replay file (the moves) and its deals file "
                  "(checked with `python3 -m umtali verify`):", match=match_id,
                  a=safe_name(a), b=safe_name(b)), files
    # A session from before deals were sealed: its moves alone.
    return tr("Session #{match}, {a} vs {b}: its replay file (the moves):", match=match_id,
              a=safe_name(a), b=safe_name(b)), files


def _unfinished(match: MatchRow, tr: Tr) -> tuple[str, list[discord.File]]:
    """The deals file of a match with no result: once it is over and had cards dealt (the
    seed of a match in play, or of one never dealt, stays unsaid)."""
    if match.status != "finished":
        return tr("That match is not over: its deals are revealed when it ends."), []
    try:
        live = LiveMatch.from_row(match)
    except Exception:  # (no I/O: the state itself)
        # Ended by an admin by its id, its state unreadable (logged then; review153: an ERROR
        # at each ask).
        return tr("Match #{match} was ended with no result, and its saved state could not be "
                  "read: its deals cannot be revealed.", match=match.id), []
    if not live.abandoned or not revealed(live.commitment, False, live.ended, live.dealt):
        return tr("That session is not kept on this server."), []
    a, b = match_names(match, tr)
    names = {"match": match.id, "a": safe_name(a), "b": safe_name(b)}
    said = (tr("Match #{match}, {a} vs {b}, cancelled with no result: its deals file.", **names)
            if live.ended == "cancelled" else
            tr("Match #{match}, {a} vs {b}, ended by a server admin with no result: its deals "
               "file.", **names) if live.ended_by is not None else
            tr("Match #{match}, {a} vs {b}, abandoned with no result: its deals file.", **names))
    data = verify_file(live.session, (a, b), match.salt, live.ended, match.cut)
    return said, [discord.File(io.BytesIO(data), filename=verify_filename(match.id))]


def result_line(tr: Tr, winner: str, a: int, b: int, how: str) -> str:
    """The replay's result: the winner's games first, as the session's announcement and final
    card say it; a session ended before its winner led (resigned at 0-0 or 0-1) is not said
    "wins 0-1", its games after."""
    if a > b:
        return tr("Result: {name} wins {a}-{b} in games, {how}", name=winner, a=a, b=b, how=how)
    return tr("Result: {name} wins ({how}); games won {a}-{b}", name=winner, a=a, b=b, how=how)
