"""How components and commands reach the match service: through the client."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService
    from data.store import Store


def service(client: discord.Client) -> MatchService:
    from cogs.umtali.service import MatchService

    found = getattr(client, "matches", None)
    if not isinstance(found, MatchService):
        raise RuntimeError("the Umtali match service is not running")
    return found


def store(client: discord.Client) -> Store:
    return service(client).store
