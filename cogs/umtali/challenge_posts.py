"""A challenge's message (or a practice offer's): saved with it, or remembered by this process
when its save fails; its challenge closed when Discord refused the post, or when the message
is gone; and a click known to come from it."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import discord

from cogs.umtali.access import service
from cogs.umtali.failures import PASSING
from cogs.umtali.in_time import thinking
from data.failing import failing_for_now
from data.models import Challenge

log = logging.getLogger(__name__)

#: Seconds after which an open challenge with no message saved is taken as never posted.
UNPOSTED = 30.0
#: Posted challenges whose message could not be saved, remembered by their process at most
#: (each is forgotten once the tick saves it, ``save_unsaved``, or at its expiry; the oldest
#: past this, the database failing that long).
UNSAVED_KEPT = 1000
#: Seconds a challenge's message found on show is taken to be there without looking again:
#: a member at their limit asking again and again makes one request per open challenge a
#: while, not one each time (as ``tables.SEEN_FOR`` for a live table).
SEEN_FOR = 10.0


async def note_posted(client: discord.Client, ch: Challenge, message_id: int) -> None:
    """``ch`` (a challenge, or a practice offer) is posted as ``message_id``: saved with it,
    for its expiry's edit and a pair's challenge again. The database failing for now leaves it
    unsaved, the offer up and answerable all the same (a click on it is known by its
    channel), and its message remembered here (``message_of``): its poster is not told to try
    again, which would be refused as a second challenge of the pair."""
    svc = service(client)
    try:
        await svc.store.set_challenge_message(ch.id, message_id)
    except Exception as e:
        if not failing_for_now(e):
            raise
        # Known here at least: on show, so never taken for one never posted (``drop_lost``),
        # and its expiry said on it.
        if len(svc.unsaved_posts) >= UNSAVED_KEPT:
            del svc.unsaved_posts[next(iter(svc.unsaved_posts))]  # the oldest, long expired
        svc.unsaved_posts[ch.id] = message_id
        log.warning("challenge %d: posted, but its message could not be saved (%s: %s)",
                    ch.id, e.__class__.__name__, e)


async def save_unsaved(client: discord.Client) -> AsyncIterator[Challenge]:
    """The messages this process posted whose ids could not be saved (``note_posted``), saved
    now, each forgotten here once saved: from then on any process finds them, a withdrawal
    owed to one due at once (another process's stop could not say it; fix170). Those closed
    meanwhile by another process, which knew no message to edit, as expired, or cancelled
    (``drop_lost``: taken as never posted): yielded as each is saved, for the tick to say it
    before anything else can fail (review163: a list returned was lost with them). The
    database failing still: tried again at the next tick."""
    svc = service(client)
    for challenge_id, message_id in list(svc.unsaved_posts.items()):
        try:
            ch = await svc.store.save_message_late(challenge_id, message_id, svc.clock())
        except Exception as e:
            if not failing_for_now(e):
                raise
            log.info("challenge %d: its message still not saved (%s: %s)", challenge_id,
                     e.__class__.__name__, e)
            break
        svc.unsaved_posts.pop(challenge_id, None)
        # (A withdrawal owed is the ticks' to say: ``claim_withdrawals``.)
        if ch is not None and (ch.status == "expired" or
                               (ch.status == "cancelled" and not ch.unsaid)):
            yield ch


async def close_unposted(interaction: discord.Interaction, ch: Challenge,
                         error: Exception) -> None:
    """After the post of ``ch`` (a challenge, or a practice session) failed with ``error``:
    closed if Discord refused it, so shown to nobody (the answer never made, or the message
    after a deferral never sent), so that it holds nothing for its ten minutes, neither the
    pair nor one of the challenger's open challenges. Kept if it may have been shown all the
    same: Discord or the network failing (it may have been posted), or an answer made whose
    message could not be read back."""
    if not isinstance(error, discord.HTTPException) or \
            isinstance(error, discord.DiscordServerError):
        return
    # Deferred ("thinking", or an update of a clicked final card: a rematch), the post was a
    # message of its own, which Discord refused; answered, it was shown but not read back.
    deferred = thinking(interaction) or \
        interaction.response.type is discord.InteractionResponseType.deferred_message_update
    if interaction.response.is_done() and not deferred:
        return
    try:
        if await service(interaction.client).store.close_challenge(ch.id, "cancelled",
                                                                   unseen=True):
            log.info("challenge %d: its post failed; cancelled", ch.id)
    except Exception as e:
        log.warning("challenge %d: its post failed, and so did cancelling it (%s: %s)",
                    ch.id, e.__class__.__name__, e)


async def drop_lost(client: discord.Client, guild_id: int, one: int, other: int) -> bool:
    """Close the open challenge between two members if its message is gone (deleted, or its
    thread or channel deleted; or never posted, the post having failed): True if closed."""
    svc = service(client)
    now = svc.clock()
    ch = await svc.store.open_challenge_between(guild_id, one, other, now)
    return ch is not None and await _drop_if_lost(client, ch, now)


async def drop_lost_of(client: discord.Client, guild_id: int, challenger: int) -> bool:
    """``drop_lost`` for each of a member's open challenges (the "open" limit's): True if
    any was closed."""
    svc = service(client)
    now = svc.clock()
    dropped = False
    for ch in await svc.store.open_challenges_by(guild_id, challenger, now):
        dropped = await _drop_if_lost(client, ch, now) or dropped
    return dropped


async def _drop_if_lost(client: discord.Client, ch: Challenge, now: float) -> bool:
    svc = service(client)
    message_id = message_of(client, ch)
    seen = svc.challenges_seen.get(ch.id)
    # (The note lives in this process's memory: its steady clock, which no clock set moves.)
    tick = svc.ticks()
    if message_id is not None and seen is not None and 0 <= tick - seen < SEEN_FOR:
        return False
    if message_id is None:
        # Posted a moment after it is saved: one still without a message a while later
        # never will have one.
        lost = now - ch.created_at > UNPOSTED
    else:
        try:
            await client.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id) \
                .fetch_message(message_id)
            _seen(svc.challenges_seen, ch.id, tick)
            lost = False
        except discord.NotFound:
            lost = True
        except (discord.HTTPException, *PASSING):
            lost = False  # not allowed to look, or Discord failing: it stands
    if lost and await svc.store.close_challenge(ch.id, "cancelled"):
        log.info("challenge %d: its message is gone; cancelled for a new one", ch.id)
        return True
    return False


def _seen(seen: dict[int, float], challenge_id: int, now: float) -> None:
    """Note ``challenge_id``'s message found on show at ``now``, forgetting the ones noted
    longer ago than ``SEEN_FOR`` (so that the notes stay few)."""
    for old in [k for k, at in seen.items() if not 0 <= now - at < SEEN_FOR]:
        del seen[old]
    seen[challenge_id] = now


def message_of(client: discord.Client, ch: Challenge) -> int | None:
    """``ch``'s message: as saved, or as this process posted it, its save having failed."""
    if ch.message_id is not None:
        return ch.message_id
    return service(client).unsaved_posts.get(ch.id)


def on_its_message(interaction: discord.Interaction, ch: Challenge) -> bool:
    """Whether the click (or the submit of the modal it opened) came from ``ch``'s own
    message: a modal's id forged to name another challenge of the member's does not, and
    answering it would edit the wrong message. One whose message was never saved is known
    by its channel."""
    if interaction.message is None or ch.message_id is None:
        return interaction.channel_id == ch.channel_id
    return interaction.message.id == ch.message_id
