"""A session's end made easy to find (review139): the final card rides on the table message,
the thread's second message, a hundred posts above its last. So the last announcement ends with
a link to it (``final_link``), and once the finished table is shown (``ended``) the challenge
message that started the match, which said "accepted" for ever, says how it ended and links
to it too; a thread the bot made for the match is left to close an hour after its last
message (``closing``), and opened for longer again should a rematch be played in it
(``reopened_for``).

All of it is a courtesy: a failure is logged, never an ERROR, and nothing of the match waits
for it. The end line alone is owed (fix161): saved with the match's end
(``data.messages.owe_end_line``), kept owed until told (``end_owed``), cleared by its delivery
once told (with the posted announcements' write: ``Owners.posted``), it is told by the process
that takes the match over after a stop, and tried again as the delivery's other parts are
should Discord or the database fail for now (``Batch.ended``); a message Discord refuses for
good (deleted, unreadable) is left as it is.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Final

import discord

from cogs.umtali.archived import reopened
from cogs.umtali.failures import PASSING
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.numbers import session_over
from cogs.umtali.outbox import Batch
from cogs.umtali.records import ENDED, ENDED_BY
from cogs.umtali.showing import ended_words
from cogs.umtali.text_cuts import head, with_end
from cogs.umtali.threads import WEEK, slow
from data.failing import failing_for_now
from data.models import AsSaved
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: Minutes with no message after which Discord archives a finished match's thread: its
#: shortest. Long enough to read the end, say "gg" and ask for a rematch (see ``closing``).
HOUR_LEFT: Final = 60
#: A thread's auto-archive once a match is played in it again: Discord's default, a day.
DAY: Final = 1440


def jump_url(live: LiveMatch, message_id: int) -> str:
    """The link to a message of the match's channel (Discord draws it as a link to it)."""
    return f"https://discord.com/channels/{live.guild_id}/{live.channel_id}/{message_id}"


def final_link(live: LiveMatch, tr: Tr) -> list[str]:
    """The last announcement's last line: where the final card is (none while no table is
    known: a match never shown)."""
    if live.table_message_id is None:
        return []
    # (masked links here and below: a screen reader says their words, not their digits)
    return [tr("[The final card]({link}), with **{rematch}** and **{files}**.",
               rematch=tr("Rematch"), files=tr("Session files"),
               link=jump_url(live, live.table_message_id))]


def result_line(live: LiveMatch, tr: Tr) -> str:
    """How the match ended, in one line, for its challenge message: the result and the link to
    the final card; with no result, the table's heading and the link to the table."""
    assert live.table_message_id is not None
    link = jump_url(live, live.table_message_id)
    if live.abandoned or not live.session.over:
        return tr("**{ended}.** [The table]({link})", ended=tr(ended_words(live)), link=link)
    session = live.session
    names = [safe_name(n) for n in live.names_in(tr)]
    w = session.winner
    won = session.games_won
    how = session.how or "played out"
    result = session_over(tr, names[w], won[w], won[1 - w])
    if how in ENDED:
        # A lasting record, as history words it: in the past, of a noun (Russian "игрок
        # сдался: ben"), where the announcement said it as it happened ("ben сдаётся").
        result += f" ({tr(ENDED_BY, name=names[1 - w], how=ENDED[how])})"
    elif how != "played out":
        result += f" ({tr('{name} {how}', name=names[1 - w], how=how)})"
    return tr("**{result}.** [The final card]({link})", result=result, link=link)


def _end_line(live: LiveMatch, line: str) -> bool:
    """Whether ``line`` is an end line ``result_line`` wrote, in any language and linking
    any table of the match's server: bold words, then a link to a message, last: masked, or
    bare as versions before fix157 wrote it."""
    url = rf"https://discord\.com/channels/{live.guild_id}/\d+/\d+"
    return re.fullmatch(rf"\*\*.+\*\*.* (?:{url}|\[[^\]\n]+\]\({url}\))", line) is not None


async def ended(svc: MatchService, live: LiveMatch) -> None:
    """The finished (or ended) table was shown: the challenge message says how the match ended,
    and the match's thread closes an hour after its last message. Once per copy (again after
    a failure for now: ``live.end_failed``, which the delivery tries again); never raises."""
    if live.summed_up or live.channel_lost or live.table_message_id is None or \
            not (live.over or live.abandoned):
        return
    live.summed_up = True
    live.end_failed = await _challenge_told(svc, live)
    if live.end_failed is not None:
        live.summed_up = False  # owed still: said by the delivery's next try
    await closing(svc, live)


def end_owed(live: LiveMatch) -> bool:
    """Whether the end line is owed as saved (``owed_end``) and not yet done with by this copy
    (``LiveMatch.end_done``): what its delivery saves keeps it owed (``Delivery._owe``), as
    its batches in memory may not say it (the final table that tells it failing for now, or
    the end queued behind a batch that failed)."""
    return not live.end_done and not live.channel_lost and Batch.loads(live.resend).ended


def owed_end(live: LiveMatch, saved: AsSaved) -> None:
    """The match's end was saved, read back in ``saved``: its copy owes what the save says
    (the end line among it), to clear it once all is sent (``Delivery._owe``)."""
    if saved.place is not None:
        live.resend = saved.resend


async def _challenge_told(svc: MatchService, live: LiveMatch) -> Exception | None:
    """The message of the challenge (or practice offer) that started the match ends with how
    it ended: its line replaced, not added again, should this be done twice (a restart).
    The failure if it failed for now (Discord's 5xx, the network, the database), to be tried
    again; None once done, or refused for good."""
    try:
        ch = await svc.store.challenge_of_match(live.id)
        if ch is None or ch.message_id is None:
            return None
        line = result_line(live, svc.public_tr(live))
        channel = svc.client.get_partial_messageable(ch.channel_id)
        message_id = ch.message_id

        async def edit() -> None:
            message = await channel.fetch_message(message_id)
            if not message.embeds:
                return  # not the challenge as the bot posts it: left alone
            embed = message.embeds[0]
            lines = (embed.description or "").split("\n")
            # (a line said before, by a copy that stopped, or of a table posted again since:
            # replaced, whatever table it linked)
            lines = [x for x in lines if not _end_line(live, x)]
            # Its ending kept whole, last: the line that matters.
            embed.description = with_end("\n".join(lines), line, 4096) if lines \
                else head(line, 4096)
            await message.edit(embeds=[embed, *message.embeds[1:]])
        # A rematch's challenge was posted in the thread, which may have been archived since.
        await reopened(svc.client, ch.channel_id, edit)
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: its challenge message could not say how it ended (%s: %s)",
                 live.id, e.__class__.__name__, e)
        return e if _passing(e) else None
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.info("match %d: its challenge message could not say how it ended (%s: %s)",
                 live.id, e.__class__.__name__, e)
        return e
    return None


def _passing(error: Exception) -> bool:
    """Discord or the way to it failing for now: its 5xx, its rate limit outlasting
    discord.py's tries, the network."""
    return isinstance(error, PASSING) or (isinstance(error, discord.HTTPException) and
                                          (error.status == 429 or error.status >= 500))


async def _own_thread(svc: MatchService, live: LiveMatch) -> discord.Thread | None:
    """The match's channel if it is a thread the bot made (not a member's, which a match
    started in it is played in: not the bot's to close)."""
    channel = svc.client.get_channel(live.channel_id)
    me = svc.client.user
    if isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id:
        return channel
    return None


async def closing(svc: MatchService, live: LiveMatch) -> None:
    """The finished match's thread archives an hour after its last message, not a day (or a
    week): gone from the channel's list of threads soon after the end, its last word said.

    Not archived at once: Discord's clients grey out, or fail to answer, a button in an
    archived thread (discord/discord-api-docs#8474; MarcusOtter/discord-needle#325), and the
    final card's **Rematch** would be lost with it; the last announcement, posted after the
    final card, would also bring the thread back. Its creator may change its auto-archive
    without Manage Threads (discord.py's ``Thread.edit``); locked by a moderator, it may not,
    which is fine."""
    thread = await _own_thread(svc, live)
    if thread is None or thread.locked or thread.auto_archive_duration == HOUR_LEFT:
        return
    try:
        await svc.client.http.edit_channel(thread.id, auto_archive_duration=HOUR_LEFT)
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: its thread could not be set to close sooner (%s: %s)", live.id,
                 e.__class__.__name__, e)


async def reopened_for(svc: MatchService, live: LiveMatch) -> None:
    """A new match (a rematch) opened in a thread a finished one left to close within the hour:
    it stays open as a match's thread does (a day with no message; a week for a slow one)."""
    thread = await _own_thread(svc, live)
    if thread is None or thread.locked or thread.auto_archive_duration != HOUR_LEFT:
        return
    try:
        await svc.client.http.edit_channel(thread.id,
                                           auto_archive_duration=WEEK if slow(live) else DAY)
    except (discord.HTTPException, *PASSING) as e:
        log.info("match %d: its thread could not be kept open longer (%s: %s)", live.id,
                 e.__class__.__name__, e)
