"""The ``/umtali-admin`` commands: a server's settings, a match ended with no result, and the
owner's sync.

A group of its own because Discord hides commands from members by a top-level command's
default permissions only (a subcommand cannot carry its own): members without Manage Server
do not see this group at all. The checks inside still run, since a server can grant the
group to anyone in its integration settings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.umtali import channel_return as returns
from cogs.umtali.access import service, tr_of
from cogs.umtali.admin_ending import match_choices, run_end_match
from cogs.umtali.admin_matches import run_matches
from cogs.umtali.command_scope import sync_commands
from cogs.umtali.display import redraw_guild, watch_guild_looks, watch_member_looks
from cogs.umtali.hand_panels import refresh_pane
from cogs.umtali.in_time import answer, in_time
from cogs.umtali.lost_at import lost_in
from cogs.umtali.options import (
    SERVER_DEFAULT,
    TIME_CONTROLS,
    VARIANTS,
    chosen_control,
    control_words,
    language_choices,
    language_in,
    timer_refusal,
    variant_word,
)
from cogs.umtali.permissions import pictures_note, threads_note
from cogs.umtali.seasons import (
    CADENCE_CHOICES,
    cadence_note,
    seasons_words,
    summaries_posted,
    summary_refusal,
)
from cogs.umtali.time_control import PRESETS
from data.models import GuildSettings
from data.seasons import CADENCES
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)  # as ``/umtali``'s
@app_commands.default_permissions(manage_guild=True)
class UmtaliAdminCog(commands.GroupCog, group_name="umtali-admin",
                     group_description="Umtali for server managers: settings, stuck matches, "
                                       "command sync"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._watching: tuple[MatchService, Callable[[int], Awaitable[object]],
                              Callable[[int], None]] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        # A change saved through another process redraws this one's matches too (once read);
        # a member's own look changed here, their panels here at once.
        svc = getattr(self.bot, "matches", None)
        self._watching = None if svc is None else (svc, watch_guild_looks(svc),
                                                   watch_member_looks(svc))
        if svc is not None:
            # A match lost for want of a permission given back goes back to its channel.
            svc.tick_listeners.append(self._check_returns)

    async def cog_unload(self) -> None:
        if self._watching is not None:
            svc, listener, own = self._watching
            svc.prefs.look_listeners.remove(listener)
            svc.prefs.saved_listeners.remove(own)
            svc.tick_listeners.remove(self._check_returns)

    def _check_returns(self) -> None:
        if self._watching is not None:
            returns.check(self._watching[0])

    def _channels_changed(self, guild: discord.Guild) -> None:
        """A server's channel, thread or role changed: its lost matches are looked at."""
        if self._watching is not None:
            returns.look(self._watching[0], guild.id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        self._channels_changed(after.guild)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        self._channels_changed(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self._channels_changed(after.guild)

    @commands.Cog.listener()
    async def on_thread_join(self, thread: discord.Thread) -> None:
        # A thread unarchived is heard of so (not as a thread's update): a lost match's alone.
        if self._watching is not None and any(
                live.channel_id == thread.id for live in lost_in(thread.guild.id)):
            self._channels_changed(thread.guild)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        # The bot's own roles changed (a role given to it): heard of so alone.
        if after.id == getattr(self.bot.user, "id", None):
            self._channels_changed(after.guild)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Reached from a DM only by a client with stale commands: said as such, rather than
        # as a missing permission.
        if interaction.guild is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(description="This server's settings: defaults for new matches, "
                                      "pictures, language, seasons")
    @app_commands.describe(
        variant="Default rule set",
        turn_timer="Default minutes per turn, 0-60 (0: no limit); replaces the time control",
        threads="Play each match in a thread made from the challenge (default: on)",
        optional_melding="Default for the optional melding house rule",
        pictures="Tables and hands as pictures (off: text alone, in every match here; "
                 "default: on)",
        language="The language of matches in public (default: the server's preferred language)",
        seasons="Seasons of the leaderboard, with a soft reset at each season's end "
                "(default: off)",
        season_channel="Where each season's summary is posted (unset: none posted)",
        clear_season_channel="Post no more season summaries (forgets the season channel)",
        time_control="Default clock for new matches (turn_timer instead: a plain timer, "
                     "no reserve)",
    )
    @app_commands.choices(variant=VARIANTS, language=language_choices(),
                          seasons=CADENCE_CHOICES, time_control=TIME_CONTROLS)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Range[int, 0, 60] | None = None,
        threads: bool | None = None, optional_melding: bool | None = None,
        pictures: bool | None = None, language: app_commands.Choice[str] | None = None,
        seasons: app_commands.Choice[str] | None = None,
        season_channel: discord.TextChannel | None = None,
        time_control: app_commands.Choice[str] | None = None,
        clear_season_channel: bool | None = None,
    ) -> None:
        assert interaction.guild is not None
        svc = service(interaction.client)
        tr = tr_of(interaction)
        if refused := timer_refusal(turn_timer, tr, time_control):
            await interaction.response.send_message(refused + " " + tr("Nothing was changed."),
                                                    ephemeral=True)
            return
        if clear_season_channel and season_channel is not None:
            await interaction.response.send_message(
                tr("Choose a season channel or clear it, not both: nothing was changed."),
                ephemeral=True)
            return
        if season_channel is not None and (refused := summary_refusal(season_channel, tr)):
            await interaction.response.send_message(refused, ephemeral=True)
            return
        store = svc.store
        changes: dict[str, object] = {}
        if variant is not None:
            changes["variant"] = variant.value
        if optional_melding is not None:
            changes["optional_melding"] = optional_melding
        if turn_timer is not None:
            # A turn timer drops the preset...
            changes["time_control"], changes["turn_timer"] = chosen_control(None, turn_timer,
                                                                            ("", 0))
        elif time_control is not None and time_control.value in PRESETS:
            changes["time_control"] = time_control.value  # ...a preset keeps the turn timer
        if threads is not None:
            changes["threads"] = threads
        if pictures is not None:
            changes["pictures"] = pictures
        if language is not None:
            changes["language"] = "" if language.value == SERVER_DEFAULT else language.value
        if seasons is not None and seasons.value in CADENCES:
            changes["seasons"] = seasons.value
        if clear_season_channel:
            changes["season_channel_id"] = None
        elif season_channel is not None:
            changes["season_channel_id"] = season_channel.id
        # Only what was chosen is written: another manager's change meanwhile is kept. A write
        # elsewhere may hold the database for seconds: answered in Discord's time all the same.
        # (By the bot's clock, as the sessions' ends and the season tick are: ``seasons_since``.)
        new = await in_time(interaction, store.change_guild_settings(
            interaction.guild.id, changes, now=svc.clock()))
        was = svc.prefs.guild_look(new.guild_id)
        svc.prefs.set_guild_pictures(new.guild_id, new.pictures)
        svc.prefs.set_guild_language(new.guild_id, new.language)
        looks_new = svc.prefs.guild_look(new.guild_id) != was
        try:
            summary = settings_summary(new, tr, svc.prefs.guild_tr(new.guild_id).lang)
            # (seasons off too: the settings as they are, the channel kept for them included)
            in_play = None if new.seasons != "off" else await in_time(
                interaction, store.seasons.in_play(new.guild_id, svc.clock()))
            summary += "\n" + seasons_words(new, tr, interaction.guild, in_play)
            notes = []
            if "seasons" in changes:
                running = await in_time(interaction, store.seasons.running(new.guild_id))
                notes.append(cadence_note(running, new.seasons, tr,
                                          summaries_posted(new, interaction.guild)))
            if new.threads:
                notes.append(threads_note(interaction, tr) or "")
            if new.pictures:
                notes.append(pictures_note(interaction, tr) or "")
            # What follows from the settings, below them, one a paragraph.
            said = [note for note in notes if note]
            await answer(interaction, "\n\n".join((summary, *said)))
        finally:
            if looks_new:
                # Saved, whatever became of the answer: its open tables and DM panels show
                # the new look at once, not at their next move; the players' open "My hand"
                # panels too (by their own tokens, outside the bot's rate limits).
                for live in await redraw_guild(svc, new.guild_id):
                    for seat in (0, 1):
                        await refresh_pane(interaction.client, live, seat)

    @app_commands.command(name="end-match",
                          description="End a stuck match on this server with no result "
                                      "(asks you first): a member's, or one by its number")
    @app_commands.describe(member="The member whose match ends (no winner, no rating change)",
                           match="Or the match itself, by its number (its players may have "
                                 "left the server)")
    @app_commands.autocomplete(match=match_choices)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def end_match(self, interaction: discord.Interaction,
                        member: discord.Member | discord.User | None = None,
                        match: str | None = None) -> None:
        await run_end_match(interaction, member, match)

    @app_commands.command(description="The matches in play on this server: players, score, "
                                      "whose turn since when, where, number")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def matches(self, interaction: discord.Interaction) -> None:
        await run_matches(interaction)

    @app_commands.command(description="Owner only: sync the slash commands with Discord now")
    async def sync(self, interaction: discord.Interaction) -> None:
        tr = tr_of(interaction)
        if not await self.bot.is_owner(interaction.user):
            await interaction.response.send_message(tr("Only the bot's owner can do that."),
                                                    ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True)
        guild_id = getattr(getattr(self.bot, "settings", None), "dev_guild_id", None)
        synced = await sync_commands(self.bot, service(self.bot).store, guild_id)
        await interaction.followup.send(
            tr.plural("Synced {count} command.", "Synced {count} commands.", len(synced)),
            ephemeral=True)


def settings_summary(settings: GuildSettings, tr: Tr, speaks: str) -> str:
    """The server's settings, one a line (nine in one sentence read as a run-on line);
    ``speaks``: the language its matches use now."""
    language = language_in(settings.language, tr) if settings.language else tr(
        "server default ({language})", language=language_in(speaks, tr))
    # Each "on"/"off" line whole: Russian agrees the word with the setting's gender.
    melding = tr("- Optional melding: on") if settings.optional_melding else \
        tr("- Optional melding: off")
    threads = tr("- Threads: on") if settings.threads else tr("- Threads: off")
    pictures = tr("- Pictures: on") if settings.pictures else tr("- Pictures: off")
    # The look is no default: it changes the matches in play at once (``redraw_guild``).
    return "\n".join((
        tr("Defaults for new matches:"),
        tr("- Rules: {rules}", rules=variant_word(tr, settings.variant)), melding,
        tr("- Clock: {timer}",
           timer=control_words(tr, settings.time_control, settings.turn_timer)), threads,
        tr("For every match here, matches in play too:"), pictures,
        tr("- Language: {language}", language=language)))
