"""Where the slash commands are synced: globally, or to the test server of
``UMTALI_DEV_GUILD_ID`` alone. Discord keeps what each scope was last sent, so a scope left when
the setting changes is emptied, or every command would be listed twice on that server (the
global one and its copy)."""

from __future__ import annotations

import logging

import discord
from discord.app_commands import AppCommand
from discord.ext import commands

from cogs.umtali.failures import PASSING
from data.store import Store

log = logging.getLogger(__name__)

#: The meta key of the scope last synced: a server's id, or ``GLOBAL``. A database from before
#: it was kept reads as global, where the commands were synced unless the setting said otherwise.
SCOPE = "commands_scope"
GLOBAL = "global"


def scope_of(guild_id: int | None) -> str:
    return GLOBAL if guild_id is None else str(guild_id)


async def sync_commands(bot: commands.Bot, store: Store,
                        guild_id: int | None) -> list[AppCommand]:
    """Sync the commands to ``guild_id``'s server (copies of the global ones) or globally, then
    empty the scope synced before, if another (``leave_old_scope``)."""
    if guild_id is not None:
        guild = discord.Object(id=guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    else:
        synced = await bot.tree.sync()
    await leave_old_scope(bot, store, guild_id)
    return synced


async def leave_old_scope(bot: commands.Bot, store: Store, guild_id: int | None) -> None:
    """Empty the scope synced before when it is not ``guild_id``'s: the global commands once a
    test server has its copies (the bot's commands are then on that server only, as the setting
    means), or the copies on the test server of before. Done, the scope is kept; Discord
    failing for now, it is not, and the next start syncs and tries again."""
    now = scope_of(guild_id)
    before = await store.get_meta(SCOPE) or GLOBAL
    if before != now and bot.application_id is not None:
        where = ("globally" if before == GLOBAL else
                 f"to the server {before} (UMTALI_DEV_GUILD_ID before)")
        try:
            if before == GLOBAL:
                # Not through the tree: clearing its global commands would take them from the
                # bot itself (they answer the interactions), not only from Discord's list.
                await bot.http.bulk_upsert_global_commands(bot.application_id, payload=[])
            else:
                old = discord.Object(id=int(before))
                bot.tree.clear_commands(guild=old)
                await bot.tree.sync(guild=old)
        except discord.Forbidden as e:
            # The bot no longer in that server (or its commands scope gone there): nothing
            # this bot can take off; said once.
            log.warning("the slash commands synced %s before could not be taken off: Discord "
                        "refused (%s). Remove them there by hand if they are listed twice.",
                        where, e)
        except PASSING as e:
            log.error("the slash commands synced %s before could not be taken off: Discord "
                      "failed (%s: %s); they may be listed twice until the next start tries "
                      "again.", where, e.__class__.__name__, e)
            return
        else:
            log.info("slash commands synced %s before taken off", where)
    await store.set_meta(SCOPE, now)


async def scope_is_current(store: Store, guild_id: int | None) -> bool:
    """Whether the last sync was to ``guild_id``'s scope and left none other behind."""
    return await store.get_meta(SCOPE) == scope_of(guild_id)
