"""A practice hand's review sent to the player's DM (``cogs.umtali.coach``), and its words."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

import discord

from cogs.umtali.access import service
from cogs.umtali.coach_work import Lesson
from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.nonces import match_nonce
from cogs.umtali.reminders import to_dms
from cogs.umtali.text_cuts import head
from umtali.ai.coach import Mistake
from umtali.ai.review_words import review_words
from umtali.i18n import Tr, sentence

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger("cogs.umtali.coach")


async def send_review(client: discord.Client, live: LiveMatch, seat: int,
                      hand: tuple[int, int], found: list[Lesson], finished: int) -> bool:
    """The review in the seat's DM (it shows the seat's moves: never in the channel),
    then saved as sent (``finished``: the hands ended with it); whether it was sent here. One
    message a game: each hand's review is appended to it by an edit (no notification), a new
    one (silent after the session's first) when it is full or the game is new; none for a
    hand with nothing costly (review139). Saved after it is sent, so that a stop before loses
    none; a stop between sends it again after the restart, with the same nonce, which Discord
    drops for some minutes (an edit, made again, comes to the same text). Discord failing for
    now (``PASSING``) raises: the caller tries again."""
    if live.dm_refused[seat] or client.is_closed():
        return False
    svc = service(client)
    row = None
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
    if not found:
        # Nothing costly: no message (review139: 3 reviews of 11 said only that, each a
        # notification), the hand saved as reviewed all the same.
        await _saved(svc, live, finished, None)
        return False
    text = review_text(svc.seat_tr(live, seat), hand, found)
    channel_id = live.dm_channel_ids[seat]
    nonce = match_nonce(live, "review", *hand)
    # The message as sent last, its save having failed, else as saved. Memory ahead of the
    # database only in this text, which is what Discord holds: which hands are reviewed
    # (``reviewed``) follows the save alone, and a restart, memory gone, reviews the hand again
    # on the saved text, coming to the same message.
    before = game_review(live.review_unsaved) if live.review_unsaved else \
        None if row is None else game_review(row.review_dm)

    async def send() -> discord.Message:
        # The game's review message, this hand's appended (an edit: no notification).
        if before is not None and before[0] == hand[0] and channel_id is not None and \
                len(before[2]) + 2 + len(text) <= LIMIT:
            dm = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            try:
                return await dm.get_partial_message(before[1]).edit(
                    content=before[2] + "\n\n" + text, allowed_mentions=NO_MENTIONS)
            except discord.NotFound:
                pass  # deleted by the player: a new one
        # A new one: the session's first notifies, the later ones are silent.
        silent = before is not None
        if channel_id is not None:
            dm = client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            return await dm.send(text, allowed_mentions=NO_MENTIONS, nonce=nonce,
                                 silent=silent)
        user_id = live.player_ids[seat]
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        return await user.send(text, allowed_mentions=NO_MENTIONS, nonce=nonce, silent=silent)
    try:
        # The player closed their DMs since the hand's panel reached them (None): noted
        # as a panel refused there notes it (told in the channel, tried again next hand).
        sent = await to_dms(svc, live, seat, send)
        if sent is None:
            return False
    except PASSING:
        raise  # (a 5xx is an HTTPException too)
    except discord.HTTPException as e:
        log.warning("match %d: the review could not be sent (%s)", live.id, e)
        return False
    await _saved(svc, live, finished, json.dumps(
        {"game": hand[0], "id": sent.id, "text": sent.content}, ensure_ascii=False))
    return True


#: A Discord message's length at most: the game's review message grows up to it.
LIMIT = 2000


def game_review(saved: str) -> tuple[int, int, str] | None:
    """The game's review message as saved (``review_dm``): its game, id and text."""
    if not saved:
        return None
    try:
        found = json.loads(saved)
        return int(found["game"]), int(found["id"]), str(found["text"])
    except (ValueError, KeyError, TypeError):
        return None


async def _saved(svc: MatchService, live: LiveMatch, finished: int, message: str | None) -> None:
    """The hands up to ``finished`` reviewed, saved (``message``: the game's review message
    as it now is); memory follows the save."""
    try:
        await svc.store.set_reviewed(live.id, finished, message)
    except Exception as e:
        log.warning("match %d: the review was sent, but not saved as sent (%s: %s)",
                    live.id, e.__class__.__name__, e)
        if message is not None:
            live.review_unsaved = message
        return
    live.reviewed = max(live.reviewed, finished)
    if message is not None:
        live.review_unsaved = ""


def review_text(tr: Tr, hand: tuple[int, int], found: list[Lesson]) -> str:
    game, number = hand
    if not found:
        return tr("**Review of hand {hand}** (game {game}): the hard computer finds no costly "
                  "mistake.", hand=number, game=game)
    heading = tr("**Review of hand {hand}** (game {game}): the moves that cost you most, as the "
                 "hard computer judges them:", hand=number, game=game)
    told = review_words([(lesson.turn, Mistake(lesson.at, lesson.view, lesson.played,
                                               lesson.better, lesson.cost, lesson.why,
                                               lesson.error))
                         for lesson in found])
    said = ["- " + " ".join(sentence(tr(t)) for t in line) for line in told]
    return whole_lessons(heading, said, tr)


def whole_lessons(heading: str, said: list[str], tr: Tr) -> str:
    """The heading and as many lessons as fit in a message, each whole, in the order played (a
    lesson cut inside a move would name another move), the rest counted ("…and 2 more costly
    moves"); a first one too long alone cut at a word (``text_cuts.head``)."""
    def more(count: int) -> list[str]:
        # Its own message: the meld list's "…and 2 more" counts moves one can make
        # («…и ещё 2 варианта»), this one mistakes.
        return [tr.plural("…and {count} more costly move", "…and {count} more costly moves",
                          count)] if count else []

    kept = [heading]
    for index, lesson in enumerate(said):
        after = more(len(said) - index - 1)
        if len("\n".join([*kept, lesson, *after])) > LIMIT:
            if index == 0:
                kept.append(head(lesson, LIMIT - len("\n".join([heading, *after, ""]))))
            break
        kept.append(lesson)
    return "\n".join([*kept, *more(len(said) - len(kept) + 1)])
