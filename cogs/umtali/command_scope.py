"""Where the slash commands are synced: globally, or to the test server of
``UMTALI_DEV_GUILD_ID`` alone. Discord keeps what each scope was last sent, so a scope left when
the setting changes is emptied, or every command would be listed twice on that server (the
global one and its copy). Only a scope this database knows it synced, for this application, is
emptied: a new database run with production's token (a developer's checkout on its test server)
must not take production's global commands off."""

from __future__ import annotations

import hashlib
import json
import logging

import discord
from discord.app_commands import AppCommand
from discord.ext import commands

from cogs.umtali.failures import PASSING
from data.store import Store

log = logging.getLogger(__name__)

#: The meta key of the scope last synced and the application it was synced for:
#: ``global@<app>`` or ``guild:<id>@<app>``. Entries of before (``global``, ``<id>``) are read
#: too, checked against the fingerprint kept with them.
SCOPE = "commands_scope"
FINGERPRINT = "commands_fingerprint"
GLOBAL = "global"


async def commands_fingerprint(bot: commands.Bot, guild_id: int | None) -> str:
    """What a sync would send, translations included (a changed translation is a change),
    and to which application: a database kept while the token changes to another one
    would otherwise leave the new application with no commands, not even the sync."""
    translator = bot.tree.translator
    payload = [c.to_dict(bot.tree) if translator is None else
               await c.get_translated_payload(bot.tree, translator)
               for c in bot.tree.get_commands()]
    text = json.dumps({"application": bot.application_id, "guild": guild_id,
                       "commands": payload}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def where_of(guild_id: int | None) -> str:
    return GLOBAL if guild_id is None else f"guild:{guild_id}"


def scope_of(guild_id: int | None, application_id: int | None) -> str:
    return f"{where_of(guild_id)}@{application_id}"


def _guild_of(where: str) -> int | None:
    """The server of a scope's first part (``global``, ``guild:<id>``, or before: ``<id>``)."""
    return None if where == GLOBAL else int(where.removeprefix("guild:"))


async def _scope_before(bot: commands.Bot, store: Store, guild_id: int | None) -> str | None:
    """Where this database knows it synced the commands last for this application (``global``
    or ``guild:<id>``); ``None`` when nowhere it knows of (a new database, another application's
    scope, or one it cannot tell), so nothing is to be taken off Discord."""
    stored = await store.get_meta(SCOPE)
    if stored is not None and "@" in stored:
        where, _, app = stored.rpartition("@")
        if app == str(bot.application_id):
            return where
        # Synced for another application (the token changed): this one's commands are not this
        # database's to take off, whoever synced them.
        log.info("slash commands were synced for another application before (%s): "
                 "nothing taken off", app)
        return None
    kept = await store.get_meta(FINGERPRINT)
    if kept is None:
        return None  # a new database: it synced nothing anywhere
    # Kept before the scope was (or by the version that kept no application with it): the
    # fingerprint names the application and the server its commands were synced to.
    for guild in [None if stored is None else _guild_of(stored), guild_id]:
        if kept == await commands_fingerprint(bot, guild):
            return where_of(guild)
    # Said where it may matter: on a test server, the global commands may be listed beside
    # its copies. Synced globally now, an older version's test server is not known to clear.
    log.log(logging.INFO if guild_id is None else logging.WARNING,
            "where the slash commands were synced before is unknown (the commands or the "
            "application changed since): nothing taken off Discord. Should they be listed "
            "twice, start the bot once with UMTALI_DEV_GUILD_ID as it was, then as it is.")
    return None


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
    means), or the copies on the test server of before. Only a scope this database knows it
    synced for this application (``_scope_before``). Done, the scope is kept; Discord
    failing for now, it is not, and the next start syncs and tries again."""
    now = scope_of(guild_id, bot.application_id)
    before = await _scope_before(bot, store, guild_id)
    if before is not None and before != where_of(guild_id) and bot.application_id is not None:
        old_guild = _guild_of(before)
        where = ("globally" if old_guild is None else
                 f"to the server {old_guild} (UMTALI_DEV_GUILD_ID before)")
        try:
            if old_guild is None:
                # Not through the tree: clearing its global commands would take them from the
                # bot itself (they answer the interactions), not only from Discord's list.
                await bot.http.bulk_upsert_global_commands(bot.application_id, payload=[])
            else:
                old = discord.Object(id=old_guild)
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


async def scope_is_current(bot: commands.Bot, store: Store, guild_id: int | None) -> bool:
    """Whether the last sync was to ``guild_id``'s scope, for this application, and left none
    other behind."""
    return await store.get_meta(SCOPE) == scope_of(guild_id, bot.application_id)
