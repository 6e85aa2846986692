"""Clicks and modal submits no control of the bot's reads: answered, not dropped.

Every control the bot makes is a ``DynamicItem``, read by its template, and its one modal (the
cut's) is read by its id's prefix (``cogs.umtali.cutting``). Anything else (a negative or
malformed id, as anyone can send any custom id to a bot's message; a control of an older
version whose id this one no longer reads) discord.py drops unanswered, and the member's
Discord says only "This interaction failed". It is told privately that the control is out of
date, and nothing changes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord

from cogs.umtali.access import tr_of
from cogs.umtali.cutting import SUBMIT
from cogs.umtali.in_time import answer
from umtali.i18n import N_

log = logging.getLogger(__name__)

OUT_OF_DATE = N_("That button or menu is out of date: nothing was changed.")


def _read(interaction: discord.Interaction,
          items: Iterable[type[discord.ui.DynamicItem[Any]]]) -> bool:
    """Whether a control of the bot's reads the interaction (or it is no click nor submit)."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if interaction.type is discord.InteractionType.component:
        return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)
    if interaction.type is discord.InteractionType.modal_submit:
        return custom_id.startswith(SUBMIT)
    return True


async def answered_unknown(interaction: discord.Interaction,
                           items: Iterable[type[discord.ui.DynamicItem[Any]]]) -> bool:
    """Whether the interaction was a click or submit no control reads, now answered."""
    if _read(interaction, items):
        return False
    data: Any = interaction.data or {}
    log.info("a control no item reads (%.100r): answered as out of date", data.get("custom_id"))
    try:
        await answer(interaction, tr_of(interaction)(OUT_OF_DATE))
    except discord.HTTPException as e:
        log.info("could not answer an out-of-date control (%s)", e)
    return True
