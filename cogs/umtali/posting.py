"""What a match posts in its channel: its announcements, and its table kept up to date.

Only the process holding a match posts its announcements (``cogs.umtali.owners``): it reads
them from the database before posting, and clears the posted ones by compare and set. Each
message carries a nonce made of the match, the count posted before it and its first
announcement's text, which Discord enforces: the same announcement posted again within minutes
(its clearing failed, or a process was killed between posting and clearing, its successor
posting it again) gives back the first message instead of a second one, even with more
announcements merged behind it by then; those are posted next.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, NamedTuple

import discord

from cogs.umtali.announcing import held, merged, turn_mention
from cogs.umtali.archived import reopened
from cogs.umtali.failures import PASSING, UNKNOWN_MESSAGE
from cogs.umtali.final_card import final_embed, final_panel
from cogs.umtali.live import LiveMatch
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.nonces import match_nonce
from cogs.umtali.panels import table_panel
from cogs.umtali.quiet_turns import silent
from cogs.umtali.retiring import retire
from cogs.umtali.session_end import ended

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService
    from cogs.umtali.showing import Shown


async def announce(svc: MatchService, live: LiveMatch) -> None:
    """Post what the match has still to announce, oldest first."""
    channel = svc.client.get_partial_messageable(live.channel_id)
    while live.unsent and not live.channel_lost:
        found = await svc.owners.to_announce(live)
        if found is None or not found[0]:
            return
        unsent, announced = found
        # Turns that piled up (Discord slow, or a restart) go out as one message.
        text, count = merged(unsent)
        message = await channel.send(text, allowed_mentions=turn_mention(text),
                                     nonce=match_nonce(live, announced, unsent[0]),
                                     silent=silent(svc, live, text))
        if message.content != text:
            # Discord gave back the message posted here before (its clearing failed, or its
            # process died, an older version's perhaps): it holds fewer; the ones behind it
            # follow in a message of their own. Its nonce names the first: that one at least,
            # read as it may be (else, given back each time, it would stand in the way).
            count = max(1, held(unsent, message.content))
        await svc.owners.posted(live, unsent[:count], announced)


class Table(NamedTuple):
    """The table drawn for an edit, its buttons, and whether it shows the match over (ended or
    abandoned): all of one moment."""
    shown: Shown
    view: discord.ui.View | None
    over: bool


async def post_table(svc: MatchService, live: LiveMatch) -> None:
    """The table brought up to date by an edit; posted again if someone deleted it."""
    if live.channel_lost or live.table_message_id is None:
        return
    channel = svc.client.get_partial_messageable(live.channel_id)
    tr = svc.public_tr(live)

    async def drawn() -> Table:
        # The picture travels with the edit that happens anyway: no call of its own. It is
        # drawn off the event loop, from the view of this moment; its buttons and final card
        # are of that moment too (read after the drawing, the session's last move landing
        # meanwhile put the final card under the table before it: hunt166).
        over, abandoned = live.over, live.abandoned
        view: discord.ui.View | None = None if over else table_panel(live.id, tr)
        shown = await svc.table_message(live).drawn()
        if over and not abandoned:
            # The session's final card rides under the last table, with its replay button.
            shown.embeds.append(await final_embed(svc, live, tr))
            view = final_panel(live, tr)
        return Table(shown, view, over)

    # The table this edit is for: a repost replaces it only if it is still the live one
    # (``/umtali table`` may move the match while the repost is drawn and sent).
    shown_in, shown_at = live.channel_id, live.table_message_id
    first = [await drawn()]
    sent: list[Table] = []

    async def edit() -> None:
        # A file is read once: tried again (its thread brought back), the table is drawn anew.
        table = first.pop() if first else await drawn()
        await channel.get_partial_message(shown_at).edit(
            embeds=table.shown.embeds, attachments=table.shown.files, view=table.view)
        sent.append(table)

    try:
        # Its thread archived meanwhile (a day with no message): brought back first.
        await reopened(svc.client, shown_in, edit)
        if not live.channel_lost and live.table_message_id is not None and \
                (live.channel_id, live.table_message_id) != (shown_in, shown_at):
            # Replaced as this edit was on its way (``/umtali table`` through this process,
            # its copy moved in place; or a read that took the table another process saved):
            # its retirement may have landed first, and this edit put the buttons back.
            # (Another process's copy sending is dropped, and retired again: ``overtaken``.)
            await retire(svc.client, live, shown_at, shown_in)
        elif sent and sent[-1].over:
            # The end shown: said where the match was started from, and its thread closing.
            await ended(svc, live)
    except discord.NotFound as e:
        if e.code != UNKNOWN_MESSAGE:
            raise
        # Someone deleted the table: it is posted again, and that one is kept up to date.
        table = await drawn()
        if table.view is None:
            message = await channel.send(**table.shown.send(), allowed_mentions=NO_MENTIONS)
        else:
            message = await channel.send(**table.shown.send(), view=table.view,
                                         allowed_mentions=NO_MENTIONS)
        try:
            saved = await svc.store.replace_table_message(
                live.id, message.id, channel_id=shown_in, was=shown_at)
        except Exception:
            # Not saved: taken down, so that the table posted when this is tried again is the
            # only one.
            with contextlib.suppress(discord.HTTPException, *PASSING):
                await message.delete()
            raise
        if saved:
            live.table_message_id = message.id
            if table.over:
                # A finished table posted anew: the challenge message links this one (its end
                # line replaced, told before or not).
                live.summed_up = False
                await ended(svc, live)
            return
        # ``/umtali table`` moved the table meanwhile (here, or through another process): its
        # table is the live one, this repost is taken down, and this copy goes (or catches up,
        # if held here).
        with contextlib.suppress(discord.HTTPException, *PASSING):
            await message.delete()
        if not await svc.owners.fell_behind(live):
            async with live.lock:  # as every reload: a move saved meanwhile is not undone
                await svc._reload(live)
