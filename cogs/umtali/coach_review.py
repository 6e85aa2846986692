"""A practice hand's review sent to the player's DM (``cogs.umtali.coach``), and its words."""

from __future__ import annotations

import logging

import discord

from cogs.umtali.access import service
from cogs.umtali.coach_work import Lesson
from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.nonces import match_nonce
from cogs.umtali.reminders import to_dms
from umtali.ai.coach import Mistake, review_words
from umtali.i18n import Tr, sentence

log = logging.getLogger("cogs.umtali.coach")


async def send_review(client: discord.Client, live: LiveMatch, seat: int,
                      hand: tuple[int, int], found: list[Lesson], finished: int) -> bool:
    """The review in the seat's DM (it shows the seat's moves: never in the channel),
    then saved as sent (``finished``: the hands ended with it); whether it was sent here. Saved
    after it is sent, so that a stop before loses none; a stop between sends it again after the
    restart, with the same nonce, which Discord drops for some minutes. Discord failing for now
    (``PASSING``) raises: the caller tries again."""
    if live.dm_refused[seat] or client.is_closed():
        return False
    svc = service(client)
    try:
        row = await svc.store.match(live.id)
    except Exception as e:  # sent all the same: at worst twice, never lost
        log.info("match %d: could not check the review was not sent (%s)", live.id, e)
    else:
        if row is not None and row.reviewed >= finished:
            return False  # sent meanwhile by another process, which had the match for a while
        if row is not None and row.dm_refused[seat]:
            # Refused as saved (found by another copy since this one was read): each
            # send there is one more request Discord counts as invalid.
            live.dm_refused[seat] = True
            return False
    text = review_text(svc.seat_tr(live, seat), hand, found)
    channel_id = live.dm_channel_ids[seat]
    nonce = match_nonce(live, "review", *hand)

    async def send() -> discord.Message:
        if channel_id is not None:
            dm = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            return await dm.send(text, allowed_mentions=NO_MENTIONS, nonce=nonce)
        user_id = live.player_ids[seat]
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        return await user.send(text, allowed_mentions=NO_MENTIONS, nonce=nonce)
    try:
        # The player closed their DMs since the hand's panel reached them (None): noted
        # as a panel refused there notes it (told in the channel, tried again next hand).
        if await to_dms(svc, live, seat, send) is None:
            return False
    except PASSING:
        raise  # (a 5xx is an HTTPException too)
    except discord.HTTPException as e:
        log.warning("match %d: the review could not be sent (%s)", live.id, e)
        return False
    try:
        await svc.store.set_reviewed(live.id, finished)
    except Exception as e:
        log.warning("match %d: the review was sent, but not saved as sent (%s: %s)",
                    live.id, e.__class__.__name__, e)
        return True
    live.reviewed = max(live.reviewed, finished)
    return True


def review_text(tr: Tr, hand: tuple[int, int], found: list[Lesson]) -> str:
    game, number = hand
    if not found:
        return tr("**Review of hand {hand}** (game {game}): the hard computer finds no costly "
                  "mistake.", hand=number, game=game)
    lines = [tr("**Review of hand {hand}** (game {game}): the moves that cost you most, as the "
                "hard computer judges them:", hand=number, game=game)]
    told = review_words([(lesson.turn, Mistake(lesson.at, lesson.view, lesson.played,
                                               lesson.better, lesson.cost, lesson.why,
                                               lesson.error))
                         for lesson in found])
    lines += ["• " + " ".join(sentence(tr(t)) for t in line) for line in told]
    return "\n".join(lines)[:2000]
