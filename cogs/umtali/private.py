"""Ephemeral answers that carry components (a hand's panel, a resign button, a menu).

discord.py keeps the View of every ephemeral message for 15 minutes, with a timer each, so that
it can dispatch its clicks. Ours never need it: every component is a DynamicItem the bot
dispatches from its custom id alone. Under load those kept views were the bot's largest
growth (~4 KiB per answer) and made full garbage collections long, so the view is let go as
soon as it is sent.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.in_time import private_answer


async def send_private(interaction: discord.Interaction, view: discord.ui.View,
                       **message: Any) -> None:
    """Answer ``interaction`` with an ephemeral message (``content``/``embed``) and ``view``:
    in the "thinking" message if the answer was deferred (``in_time``) and only its member
    sees it, else as a follow-up (``private_answer``)."""
    await private_answer(interaction, view=view, **message)
    view.stop()
