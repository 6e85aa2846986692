"""Failures answered in one place: a short ephemeral word for the user, a traceback for us."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any
from weakref import WeakKeyDictionary

import aiohttp
import discord
from discord import app_commands

from cogs.umtali.access import tr_of
from cogs.umtali.archived import ARCHIVED
from cogs.umtali.durations import wait_seconds
from cogs.umtali.failures import UNKNOWN_MESSAGE
from cogs.umtali.in_flight import admitted
from cogs.umtali.in_time import answer
from cogs.umtali.names import echo
from cogs.umtali.unheard import InDoubt
from data.failing import failing_for_now
from umtali.errors import UmtaliError
from umtali.i18n import EN, N_, Tr

log = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on our side; it has been logged. "
             "Nothing of your match was lost.")
#: A save whose outcome is unknown: its answer lost, and the read back failed (``InDoubt``).
NOT_ANSWERED = N_("The database did not answer, so this may or may not have been saved: "
                  "look again before you try again.")
#: The database busy past its timeout or out of reach (``failing_for_now``), as anything was
#: asked of it: a read (a board, stats) as well as a save.
BUSY = N_("The database did not answer in time: try again in a moment. If you were making a "
          "move, look first: it may have been saved.")
#: A command Discord's client had from before the bot's commands changed (a deploy, a sync
#: still under way): not the user's fault, nor a bug.
STALE = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


def message_for(error: BaseException, tr: Tr = EN) -> str | None:
    """The sentence for an error a user can cause, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UmtaliError):
        text = tr(error.text)
        return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    if isinstance(error, STALE):
        return tr("That command has changed since your Discord loaded it: try again in a "
                  "minute, or reload Discord (Ctrl+R).")
    if isinstance(error, app_commands.MissingPermissions):
        return tr("You need the Manage Server permission for that.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("That command works in a server, not in direct messages.")
    if isinstance(error, app_commands.CommandOnCooldown):
        # A unit in words, with its plural form: a bare "s" is read as the letter.
        return tr.plural("Slow down: try again in {count} second.",
                         "Slow down: try again in {count} seconds.",
                         wait_seconds(error.retry_after))
    if isinstance(error, app_commands.CheckFailure):
        return tr("You can't use that command here.")
    if isinstance(error, app_commands.TransformerError):
        return tr("I can't read “{value}” there.", value=echo(str(error.value)))
    return None


#: Discord's codes for the bot refused in a channel: Missing Access, Missing Permissions (a
#: server's set-up changed under a match or a challenge: not a bug, and not the user's doing).
REFUSED_HERE = frozenset({50001, 50013})
#: Discord failing for now (its 5xx), or the network to it.
FAILING_FOR_NOW = (discord.DiscordServerError, aiohttp.ClientError)
#: Discord's codes for an interaction that can no longer be answered: expired (its 3 seconds,
#: or its 15 minutes for a follow-up, ran out).
EXPIRED = frozenset({10062, 10015})


def expired(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an answer to an interaction that expired."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, discord.NotFound) and error.code in EXPIRED


class LateAutocomplete(logging.Filter):
    """discord.py logs every failed answer to an autocomplete as an ERROR with a traceback
    (``CommandTree._call`` keeps it from ``on_error``). One that expired first (Discord asks on
    every key typed, and its three seconds run out while the database is busy) is the bot
    being late, with nobody to tell: a warning, as a command answered late is. So is one whose
    read failed on the database busy or out of reach (``failing_for_now``): no bug, and
    nobody to tell either. Any other failure stays an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if record.levelno >= logging.ERROR and error is not None:
            if expired(error):
                why = "%s: it expired before the bot answered it (%s)"
            elif failing_for_now(error):
                why = "%s: the database failed (%s)"
            else:
                return True
            record.msg, record.args = why, (record.getMessage(), error)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


def quiet_late_autocompletes() -> None:
    """``LateAutocomplete`` on the logger of discord.py's command tree, once."""
    tree_log = logging.getLogger("discord.app_commands.tree")
    if not any(isinstance(f, LateAutocomplete) for f in tree_log.filters):
        tree_log.addFilter(LateAutocomplete())


#: The parts of a control's id that say what it is ("umtali:m:<match>:<version>:<action>"):
#: a "lay" button's id goes on with the meld it lays, cards of the player's hand.
ID_PARTS = 5


def what_was_used(interaction: discord.Interaction) -> str:
    """The command or the control of ``interaction``, for the log: never its options or
    values (a move typed, a card chosen: cards of the player's hand)."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if isinstance(custom_id, str):
        return ":".join(custom_id.split(":")[:ID_PARTS])
    return interaction.type.name


#: Seconds in which a failure of one lasting cause (the database out of reach or busy, Discord
#: failing, the bot too slow to answer) is warned of once: it fails every member's action
#: alike, and a WARNING each would bury the rest of the log; the others are INFO lines.
SAY_AGAIN_AFTER = 60.0
#: When each cause was last warned of (monotonic), by bot.
_warned: WeakKeyDictionary[discord.Client, dict[str, float]] = WeakKeyDictionary()


def once_a_while(client: discord.Client, cause: str) -> int:
    """WARNING for the first failure of ``cause`` in ``SAY_AGAIN_AFTER`` seconds, else INFO."""
    warned = _warned.setdefault(client, {})
    now, last = time.monotonic(), warned.get(cause)
    if last is not None and now - last < SAY_AGAIN_AFTER:
        return logging.INFO
    warned[cause] = now
    return logging.WARNING


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    if interaction.client.is_closed():
        # Stopping (SIGTERM, Ctrl-C): an action still answering loses its connection. What
        # it saved is saved; nothing is wrong with the bot, and nobody can be told now.
        log.info("an interaction was cut short by the bot stopping (%s)", error)
        return
    if expired(error):
        # Answered too late (the bot slow, or the network): no bug in the code, and nobody
        # can be told now; what the action saved is saved.
        log.log(once_a_while(interaction.client, "late"),
                "an interaction expired before the bot answered it (%s)", error)
        return
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, discord.Forbidden) and original.code == ARCHIVED:
        # From a thread locked and archived, Discord refuses any answer (a desktop client
        # sends the click all the same): nobody can be told, and no bug of ours, nor a fault
        # of Discord's: a member's click, as often as they like, with nothing for the admin
        # to do (the thread was locked on purpose).
        log.info("an interaction in channel %s could not be answered: its thread is "
                 "archived and locked (%s)", interaction.channel_id, original)
        return
    tr = tr_of(interaction)
    text = message_for(error, tr)
    if text is None and isinstance(original, discord.Forbidden) \
            and original.code in REFUSED_HERE:
        log.warning("Discord refused the bot in channel %s (%s): a permission is missing",
                    interaction.channel_id, original)
        text = tr("Discord did not let me post here: a permission of mine in this channel is "
                  "missing. Ask a server admin to check the bot's permissions.")
    if text is None and (isinstance(original, FAILING_FOR_NOW) or (
            # A call to Discord given up after its timeout (``rest_timeout``); the
            # database's own timeouts are said below.
            isinstance(original, TimeoutError) and not failing_for_now(original))):
        # Discord, or the way to it, failing still after discord.py's own retries: no bug of
        # ours. What the action saved stands; its panels are brought up to date by the bot's
        # own edits (the answer usually comes too late to reach anyone by then).
        log.log(once_a_while(interaction.client, "discord"),
                "Discord failed during an interaction (%s: %s)",
                original.__class__.__name__, original)
        text = tr("Discord failed for a moment, so this may not have gone through: look "
                  "again before you try again.")
    if text is None and isinstance(original, InDoubt):
        # The database failing for now (no bug of ours): the clock reads what was saved.
        log.log(once_a_while(interaction.client, "database"), "%s (%s)", original,
                original.__cause__)
        text = tr(NOT_ANSWERED)
    elif text is None and failing_for_now(original):
        # Busy past its timeout (another writer on the file, a lock held elsewhere) or out
        # of reach: what was being saved was not, or is read back at the clock's check.
        log.log(once_a_while(interaction.client, "database"),
                "the database failed during an interaction (%s: %s)",
                original.__class__.__name__, original)
        text = tr(BUSY)
    if text is None and isinstance(original, discord.NotFound) and \
            original.code == UNKNOWN_MESSAGE:
        # A message deleted as the action used it (the clicked challenge, a table, by a
        # moderator or its author: review153): a member's doing, not a bug of ours. What the
        # action saved stands.
        # (INFO when a component was clicked, whose message a member may delete; a command
        # uses only the bot's stored messages, which a wrong id could make this too.)
        log.log(logging.INFO if interaction.message is not None else logging.WARNING,
                "a message was deleted while an interaction used it (%s, channel %s: %s)",
                what_was_used(interaction), interaction.channel_id, original)
        text = tr("A message this needed was deleted meanwhile: look again before you try "
                  "again.")
    if isinstance(error, STALE):
        log.warning("a command the bot no longer has as sent (%s): are the commands synced?",
                    error)
    if text is None:
        log.error("unhandled error in an interaction (%s, server %s, channel %s, user %s)",
                  what_was_used(interaction), interaction.guild_id, interaction.channel_id,
                  interaction.user.id, exc_info=error)
        text = tr(APOLOGY)
    try:
        await answer(interaction, text)
    except (discord.HTTPException, aiohttp.ClientError):
        log.warning("could not tell the user about an error: %s", text)


async def answered_stale_autocomplete(interaction: discord.Interaction) -> bool:
    """An autocomplete request for an option that has no autocomplete, or of a command the
    bot no longer has (a client whose commands are stale): answered with no choices here, as
    discord.py would leave it unanswered and log an ERROR."""
    if interaction.type is not discord.InteractionType.autocomplete:
        return False
    command = interaction.command
    if isinstance(command, app_commands.Command):
        focused = _focused(getattr(interaction, "data", None) or {})
        params = {p.display_name: p for p in command.parameters}
        param = params.get(focused) if focused is not None else None
        if param is not None and param.autocomplete:
            return False
    log.info("autocomplete asked of an option without it (a stale client?): answered empty")
    try:
        await interaction.response.autocomplete([])
    except discord.HTTPException as e:
        log.info("could not answer a stale autocomplete (%s)", e)
    return True


def _focused(data: Any) -> str | None:
    """The name of the option being typed in, among ``data``'s options at any depth."""
    for option in data.get("options", []) if isinstance(data, dict) else []:
        if isinstance(option, dict):
            if option.get("focused"):
                return str(option.get("name"))
            if (inner := _focused(option)) is not None:
                return inner
    return None


async def guarded(interaction: discord.Interaction,
                  action: Callable[[], Awaitable[Any]]) -> None:
    """Run a component's action; any failure is answered like a failed command. None is run
    once the bot is stopping (``in_flight``)."""
    if not await admitted(interaction):
        return
    try:
        await action()
    except Exception as e:
        await answer_error(interaction, e)
