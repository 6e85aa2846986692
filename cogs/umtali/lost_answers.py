"""An interaction's answer that Discord carried out while the reply to it was lost (a 5xx from
Discord's edge, or the connection cut). discord.py's webhook adapter tries a call again after
any 5xx, and Discord refuses the second answer to an interaction with 40060 ("already
acknowledged"): the command or click then failed as an error of ours, logged at ERROR, the
player told something went wrong, though their answer had gone out. The first answer stands:
the second try is taken as the first's success.

A 40060 can mean nothing else here: an answer this process gave before is known to discord.py,
which refuses a second itself (``InteractionResponded``) without calling Discord, and an
interaction reaches one process only."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

log = logging.getLogger(__name__)

#: Discord's code for an interaction answered already.
ALREADY_ANSWERED = 40060


def answer_once() -> None:
    """Have every interaction's first answer treat Discord's 40060 as its own success (once
    per process: the adapter is discord.py's, shared by every client)."""
    original = AsyncWebhookAdapter.create_interaction_response
    if getattr(original, "answers_once", False):
        return

    async def answered(self: AsyncWebhookAdapter, interaction_id: int, token: str,
                       **kwargs: Any) -> Any:
        try:
            return await original(self, interaction_id, token, **kwargs)
        except discord.HTTPException as e:
            if e.code != ALREADY_ANSWERED:
                raise
            log.info("interaction %d: answered already (an answer whose reply was lost, tried "
                     "again by discord.py); taken as answered", interaction_id)
            # What Discord would have said of it, as far as the answer needs: its message's id
            # is not known (``original_response`` fetches it).
            return {"interaction": {"id": str(interaction_id)}}

    answered.answers_once = True  # type: ignore[attr-defined]
    AsyncWebhookAdapter.create_interaction_response = answered  # type: ignore[method-assign]
