"""How components and commands reach the match service: through the client."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from umtali.i18n import Tr, tr_for

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService
    from data.store import Store


def service(client: discord.Client) -> MatchService:
    found = getattr(client, "matches", None)
    # Not an isinstance check: reloading the extension imports the class anew, and the
    # service made before the reload must still be found.
    if found is None:
        raise RuntimeError("the Umtali match service is not running")
    return cast("MatchService", found)


def store(client: discord.Client) -> Store:
    return service(client).store


def tr_of(interaction: discord.Interaction) -> Tr:
    """The language of a private answer: the member's Discord client's."""
    return tr_for(interaction.locale.value)
