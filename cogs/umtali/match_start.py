"""The match-start step: a match just made from a challenge (an accept) or a practice's cut is
shown on the clicked message, moved to a thread of it when the server wants one, and its table
posted; failing on the way, it is cancelled, never left saved but unshown."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from cogs.umtali.access import service
from cogs.umtali.failures import PASSING
from cogs.umtali.in_time import edit_clicked_even_late
from cogs.umtali.names import challenge_names, label_name, shorten
from cogs.umtali.permissions import CANCELLED, can_make_thread
from cogs.umtali.threads import drop_thread, into_thread
from data.failing import failing_for_now
from data.models import Challenge
from umtali.cards import CARDS
from umtali.i18n import Tr

if TYPE_CHECKING:
    from cogs.umtali.live import LiveMatch

log = logging.getLogger(__name__)


def thread_name(first: str, second: str, tr: Tr) -> str:
    """The thread a match is played in (stored names: plain text, mentions defused)."""
    return shorten(tr("Umtali: {a} vs {b}", a=label_name(first), b=label_name(second)), 100)


def cancelled(tr: Tr) -> str:
    return tr(CANCELLED)


def drawn_cards(live: LiveMatch, names: tuple[str, str]) -> str:
    """The draw for first dealer, round by round, under the names by seat."""
    return "; ".join(f"{names[0]} {CARDS[a]}, {names[1]} {CARDS[b]}"
                     for a, b in live.session.dealer_draws)


async def open_started(interaction: discord.Interaction, live: LiveMatch, ch: Challenge,
                       public: Tr, embed_of: Callable[[str], discord.Embed], said: str) -> None:
    """A match just started from ``ch`` by the click ``interaction`` (an accept, or a
    practice's cut): its message says ``said`` (``embed_of`` makes it with a status), the
    match moves to a thread of it when the server wants one, and its table is posted. If
    anything on the way fails (Discord, the database), the match is cancelled, and the message
    says so; should cancelling fail too, the timer cancels it (``cancel_unshown``)."""
    svc = service(interaction.client)
    thread = None
    try:
        # Late (the interaction expired: the bot's loop held up), the match is shown all the
        # same, by the bot's own edit: cancelled for that, it would leave the challenge's
        # buttons on a challenge no longer open, and the challenger untold.
        await edit_clicked_even_late(interaction, embed=embed_of(said), view=None)
        settings = await svc.store.guild_settings(ch.guild_id)
        if settings.threads and can_make_thread(interaction) and interaction.message is not None:
            thread = await into_thread(svc, live, interaction.message,
                                       thread_name(*challenge_names(ch, public), public),
                                       interaction.app_permissions.manage_threads)
    except Exception as e:
        # Saved but never shown, the match would hold both players (with no clock, for good).
        log.warning("match %d: failed before its table was posted (%s: %s): cancelled",
                    live.id, e.__class__.__name__, e,
                    exc_info=not (isinstance(e, PASSING) or failing_for_now(e)))
        await svc.cancel_unshown(live)
        opened = False
    else:
        try:
            opened = await svc.open_table(live)
        except Exception:
            svc.cancel_unshown_soon(live)  # its first posts failed, and so did cancelling it
            raise
    if not opened:
        if thread is not None:  # made for it, and empty: not left under the match's name
            await drop_thread(thread, interaction.app_permissions.manage_threads)
        try:
            await edit_clicked_even_late(interaction, embed=embed_of(cancelled(public)),
                                         view=None)
        except (discord.HTTPException, *PASSING) as e:
            log.info("match %d: its cancelling could not be shown (%s)", live.id, e)
