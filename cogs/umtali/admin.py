"""The ``/umtali-admin`` commands: a server's settings and the owner's sync.

A group of its own because Discord hides commands from members by a top-level command's
default permissions only (a subcommand cannot carry its own): members without Manage Server
do not see this group at all. The checks inside still run, since a server can grant the
group to anyone in its integration settings.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.umtali.access import service
from cogs.umtali.options import VARIANTS, turn_seconds
from data.models import GuildSettings


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class UmtaliAdminCog(commands.GroupCog, group_name="umtali-admin",
                     group_description="Umtali for server managers: settings, command sync"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="This server's defaults for new matches")
    @app_commands.describe(
        variant="Default rule set", turn_timer="Default minutes per turn (0: no limit)",
        threads="Play each match in a thread made from the challenge",
        optional_melding="Default for the optional melding house rule",
        pictures="Tables and hands as pictures (off: text alone, in every match here)",
    )
    @app_commands.choices(variant=VARIANTS)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Range[int, 0, 60] | None = None,
        threads: bool | None = None, optional_melding: bool | None = None,
        pictures: bool | None = None,
    ) -> None:
        assert interaction.guild is not None
        svc = service(interaction.client)
        store = svc.store
        old = await store.guild_settings(interaction.guild.id)
        new = GuildSettings(
            interaction.guild.id,
            variant.value if variant else old.variant,
            old.optional_melding if optional_melding is None else optional_melding,
            turn_seconds(turn_timer, old.turn_timer),
            old.threads if threads is None else threads,
            old.pictures if pictures is None else pictures,
        )
        await store.save_guild_settings(new)
        svc.prefs.set_guild_pictures(new.guild_id, new.pictures)
        timer = f"{new.turn_timer // 60} min" if new.turn_timer else "off"
        await interaction.response.send_message(
            f"Defaults for new matches: {new.variant} rules, optional melding "
            f"{'on' if new.optional_melding else 'off'}, turn timer {timer}, threads "
            f"{'on' if new.threads else 'off'}, pictures {'on' if new.pictures else 'off'}.",
            ephemeral=True)

    @app_commands.command(description="Owner only: sync the slash commands with Discord now")
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await interaction.response.send_message("Only the bot's owner can do that.",
                                                    ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True)
        guild_id = getattr(getattr(self.bot, "settings", None), "dev_guild_id", None)
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.bot.tree.copy_global_to(guild=guild)
            synced = await self.bot.tree.sync(guild=guild)
        else:
            synced = await self.bot.tree.sync()
        await interaction.followup.send(f"Synced {len(synced)} command(s).", ephemeral=True)
