"""Failures answered in one place: a short ephemeral word for the user, a traceback for us."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from cogs.umtali.access import tr_of
from cogs.umtali.in_time import answer
from cogs.umtali.names import echo
from umtali.errors import UmtaliError
from umtali.i18n import EN, N_, Tr

log = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on our side; it has been logged. "
             "Nothing of your match was lost.")


def message_for(error: BaseException, tr: Tr = EN) -> str | None:
    """The sentence for an error a user can cause, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UmtaliError):
        text = tr(error.text)
        return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    if isinstance(error, app_commands.MissingPermissions):
        return tr("You need the Manage Server permission for that.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("That command works in a server, not in direct messages.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr("Slow down: try again in {seconds} s.", seconds=format(error.retry_after, ".0f"))
    if isinstance(error, app_commands.CheckFailure):
        return tr("You can't use that command here.")
    if isinstance(error, app_commands.TransformerError):
        return tr("I can't read “{value}” there.", value=echo(str(error.value)))
    return None


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    if interaction.client.is_closed():
        # Stopping (SIGTERM, Ctrl-C): an action still answering loses its connection. What
        # it saved is saved; nothing is wrong with the bot, and nobody can be told now.
        log.info("an interaction was cut short by the bot stopping (%s)", error)
        return
    tr = tr_of(interaction)
    text = message_for(error, tr)
    if text is None:
        log.error("unhandled error in an interaction", exc_info=error)
        text = tr(APOLOGY)
    try:
        await answer(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell the user about an error: %s", text)


async def guarded(interaction: discord.Interaction,
                  action: Callable[[], Awaitable[Any]]) -> None:
    """Run a component's action; any failure is answered like a failed command."""
    try:
        await action()
    except Exception as e:
        await answer_error(interaction, e)
