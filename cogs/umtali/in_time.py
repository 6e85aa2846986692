"""Answering within Discord's 3 seconds when the work behind the answer is slow.

A move or a resignation waits for its match's lock and for the database, which may be busy for
up to ``BUSY_TIMEOUT`` (5 s) under a long write elsewhere. Discord fails an interaction not
answered within 3 seconds, and the player would see "This interaction failed" over a move that
was in fact saved. So such work is given ``DEFER_AFTER`` seconds; if it has not finished by
then, the interaction is deferred, and its answer comes as an edit of the deferred response
(``answer``, ``edit_clicked``, ``send_private``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Seconds of work before the interaction is deferred: room left for the defer itself to reach
#: Discord within its 3 seconds.
DEFER_AFTER = 2.0
#: At most this much of the interaction's age before the bot saw it (the gateway's delay, the
#: event loop busy) is counted against ``DEFER_AFTER``: the clocks of Discord and of the bot's
#: host differ, and a clock far off must not leave no time for the work at all.
AGE_COUNTED = 1.5
#: Discord's code for an interaction no longer to be answered: its 3 seconds ran out.
UNKNOWN_INTERACTION = 10062


async def defer(interaction: discord.Interaction, new_message: bool,
                public: bool = False) -> None:
    """Acknowledge now, answer later: a click answered by an edit of its message keeps that
    message until then; any other answer (a command's, a click's new panel) shows "thinking"
    in a message only its user sees (``public``: everyone), which the answer then replaces."""
    if interaction.response.is_done():
        return
    # An interaction already expired cannot be deferred; the work goes on all the same.
    with contextlib.suppress(discord.NotFound):
        if public:
            interaction.extras["thinking in public"] = True
            await interaction.response.defer(thinking=True)
        elif new_message or interaction.type is discord.InteractionType.application_command:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *,
                  new_message: bool = False, public: bool = False,
                  after: float = DEFER_AFTER) -> T:
    """``work``'s result; the interaction deferred if it is still unanswered ``after`` seconds
    after the first ``in_time`` of its handling (a lookup, then a save: the time counts from
    the first). ``new_message``: a click is to be answered by a new message, not an edit of
    its own; ``public``: its answer is public, and so is the "thinking" meanwhile. ``work``
    must not answer the interaction itself."""
    now = time.monotonic()
    start = clock_started(interaction)
    arrived(interaction)
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, after - (now - start)))
    if not done:
        await defer(interaction, new_message, public)
    return await task


def clock_started(interaction: discord.Interaction) -> float:
    """When Discord's 3 seconds for the interaction started, by ``time.monotonic``: its
    creation (its id's time), as far as the clocks allow (``AGE_COUNTED``), fixed the first
    time this is asked (``in_time``'s first work)."""
    if "in_time" not in interaction.extras:
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        interaction.extras["in_time"] = time.monotonic() - min(max(age, 0.0), AGE_COUNTED)
    return float(interaction.extras["in_time"])


def arrived(interaction: discord.Interaction) -> float:
    """When the interaction reached the bot, by the bot's clock (its match service's): the
    first time this was asked, at the latest before its first ``in_time`` work (a lookup that
    may wait on the database). A move is judged by it (``Playing.act``)."""
    if "arrived" not in interaction.extras:
        clock = getattr(getattr(interaction.client, "matches", None), "clock", time.time)
        interaction.extras["arrived"] = float(clock())
    return float(interaction.extras["arrived"])


def thinking(interaction: discord.Interaction) -> bool:
    """Whether the interaction was deferred with a "thinking" message to be edited."""
    return interaction.response.type is discord.InteractionResponseType.deferred_channel_message


def thinking_in_public(interaction: discord.Interaction) -> bool:
    """Whether that "thinking" message is the channel's to see (``defer``'s ``public``): a
    command whose answer is a public post (a practice session's offer)."""
    return thinking(interaction) and bool(interaction.extras.get("thinking in public"))


def answered_in_public(interaction: discord.Interaction) -> None:
    """The public "thinking" message is being made the command's answer (the offer): from now
    on it is that answer, which a later private answer (an error) leaves as it is."""
    if thinking_in_public(interaction):
        interaction.extras["thinking in public"] = "answered"


async def answer(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, however the interaction stands."""
    await private_answer(interaction, content=text)


async def private_answer(interaction: discord.Interaction, **message: Any) -> None:
    """An ephemeral answer (``content``, ``embed``, ``view``...), however the interaction
    stands: the "thinking" message edited, unless the channel sees it (then it goes, and the
    answer follows, to the member alone: a refusal, an error, never the channel's; made the
    command's public answer already, it stays: ``answered_in_public``)."""
    if thinking_in_public(interaction):
        if interaction.extras["thinking in public"] != "answered":
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(ephemeral=True, **message)
    elif thinking(interaction):
        files = message.pop("files", None)
        if files is not None:
            message["attachments"] = files
        await interaction.edit_original_response(**message)
    elif interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **message)
    else:
        await interaction.response.send_message(ephemeral=True, **message)


async def edit_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the message whose component was used, deferred or not."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def edit_clicked_even_late(interaction: discord.Interaction, **fields: Any) -> bool:
    """``edit_clicked``; should the interaction have expired first (Discord delivered it late,
    or the bot's event loop was held up), its message is edited by the bot's own call: what it
    shows (a match started, a challenge declined) must replace its buttons all the same.
    Whether the interaction was answered (else nothing private can follow)."""
    try:
        await edit_clicked(interaction, **fields)
    except discord.NotFound as e:
        if e.code != UNKNOWN_INTERACTION or interaction.message is None:
            raise
        log.info("interaction %d expired before its answer (%s): its message is edited by "
                 "the bot's own call", interaction.id, e)
        await interaction.message.edit(**fields)
        return False
    return True


async def post_public(interaction: discord.Interaction, **fields: Any) -> discord.Message:
    """Post a public message as the answer to the interaction; once it was deferred (its
    answer private, or an update of the clicked message), as a message of its own in the
    channel (a new message also notifies whom it mentions), the private "thinking" taken
    away."""
    if not interaction.response.is_done():
        await interaction.response.send_message(**fields)
        return await interaction.original_response()
    assert interaction.channel_id is not None
    channel = interaction.client.get_partial_messageable(interaction.channel_id,
                                                         guild_id=interaction.guild_id)
    message = await channel.send(**fields)
    if thinking(interaction):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    return message
