"""How often a channel gets a leaderboard or a member's stats posted in it: once a minute
(``PUBLIC_EVERY``), as ``/umtali table`` and challenges are limited; asked again within it,
the board or record comes to the member alone, in their language, saying why (what they asked
for, not a refusal). Kept in this process: a server's commands reach the process that runs
its shard (docs/processes.md), and a restart forgets at most a minute of it. Timed by the
process's steady clock (``MatchService.ticks``): a wall clock set back would lift the limit.
Held back by a post still under way, a member waits for its outcome (``under_way``): told it
was posted only once it was, and given the channel's turn if it failed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.in_time import in_time, post_public, thinking
from cogs.umtali.under_way import failed
from umtali.i18n import N_

#: Seconds within which a channel gets no second public board or stats.
PUBLIC_EVERY: Final = 60.0
#: Channels remembered before the ones past their minute are forgotten.
KEPT: Final = 1024
HELD_BACK: Final = N_("Shown to you alone: a leaderboard or stats were posted in this channel "
                      "less than a minute ago.")
#: Held back by a post still under way when the wait for it ended.
BEING_POSTED: Final = N_("Shown to you alone: a leaderboard or stats are being posted in this "
                         "channel right now.")
#: That post, then, failed.
NOT_POSTED: Final = N_("The leaderboard or stats that were being posted in this channel could "
                       "not be posted: ask again to post yours.")


class PublicBoards:
    """When each channel last had a board or stats posted in it."""

    def __init__(self) -> None:
        self.posted: dict[int, float] = {}

    def take(self, channel_id: int, now: float) -> bool:
        """Whether a board may be posted in the channel at ``now``: then it is noted (given
        back by ``give_back`` if the post fails). A note ahead of the clock holds nothing
        back."""
        last = self.posted.get(channel_id)
        if last is not None and 0 <= now - last < PUBLIC_EVERY:
            return False
        if len(self.posted) >= KEPT:
            self.posted = {c: t for c, t in self.posted.items() if 0 <= now - t < PUBLIC_EVERY}
        self.posted[channel_id] = now
        return True

    def give_back(self, channel_id: int, now: float) -> None:
        """The post noted at ``now`` was not made: the channel may have one at once."""
        if self.posted.get(channel_id) == now:
            del self.posted[channel_id]


def may_post(interaction: discord.Interaction) -> bool:
    """Whether the member may write here: in a read-only channel or a locked thread, where
    Discord lets them run commands all the same, the bot posts nothing public for them."""
    perms = interaction.permissions
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        # A locked thread takes messages only from those who may manage threads (Discord's
        # rule; the permissions it sends with the interaction do not say so).
        return perms.send_messages_in_threads and (not channel.locked or perms.manage_threads)
    return perms.send_messages


async def answer_board(interaction: discord.Interaction,
                       build: Callable[[bool], Awaitable[dict[str, Any]]]) -> None:
    """A board or record as the answer, ``build(private)`` its message: in the channel at most
    once a minute (``board_posts``), else for the member alone, saying why."""
    svc = service(interaction.client)
    channel_id = interaction.channel_id or 0
    if not may_post(interaction):
        await show_board(interaction, True, **await build(True))
        return
    now, why, pending = await _channels_turn(interaction, channel_id)
    if now is None:
        fields = await build(True)
        fields["content"] = tr_of(interaction)(why)
        await show_board(interaction, True, **fields)
        if pending is not None:
            svc.beside.start(_told_if_failed(interaction, pending), None,
                             "word of a board's post that failed")
        return
    with svc.boards_under_way.posting(channel_id):
        try:
            await show_board(interaction, False, **await build(False))
        except BaseException:
            # Given back before the members waiting on this post hear it failed: one of them
            # posts theirs.
            svc.public_boards.give_back(channel_id, now)
            raise


async def _told_if_failed(interaction: discord.Interaction,
                          pending: asyncio.Future[bool]) -> None:
    """The post the member was told was on its way (``pending``, its outcome), followed to its
    end: if it failed, they are told so (the board they have is theirs alone, and nothing was
    posted)."""
    if await failed(pending):
        await interaction.followup.send(tr_of(interaction)(NOT_POSTED), ephemeral=True)


async def _channels_turn(interaction: discord.Interaction, channel_id: int) -> tuple[
        float | None, str, asyncio.Future[bool] | None]:
    """When the channel's turn for a public board was taken for this member, or (None) why
    not: a board posted within the minute, or one still on its way (with its outcome, to be
    followed). A post under way here is waited for (deferred past two seconds): failed, the
    channel is free again."""
    svc = service(interaction.client)
    waits = 3  # (posts failing one after another: the last is not waited for)
    while True:
        now = svc.ticks()
        if svc.public_boards.take(channel_id, now):
            return now, "", None
        waits -= 1
        posted = await in_time(interaction, svc.boards_under_way.outcome(channel_id)) \
            if waits else None
        if posted is None:
            pending = svc.boards_under_way.pending(channel_id)
            return None, BEING_POSTED if pending is not None else HELD_BACK, pending
        if posted:
            return None, HELD_BACK, None


async def show_board(interaction: discord.Interaction, private: bool, **fields: Any) -> None:
    """A board or a record as the answer: in the channel, or (``private``) for the member
    alone; once deferred (the database was busy: ``in_time``), as ``post_public`` posts it, or
    in place of the private "thinking"."""
    if not private:
        await post_public(interaction, **fields)
    elif thinking(interaction):
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.send_message(**fields, ephemeral=True)
