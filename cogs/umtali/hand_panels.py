"""A player's two private panels, kept showing the same hand: the DM panel and one ephemeral
panel (from **My hand** or ``/umtali play``).

The ephemeral panel is remembered per seat by the last interaction that showed it: its token
may edit it for 15 minutes (``edit_original_response``; for a click, "original" is the message
clicked on). These edits go to the interaction webhook, outside the bot's own rate limits, so
keeping the ephemeral panel fresh costs no REST call of the bot's. The DM panel is the
delivery's: after a move answered elsewhere in the middle of a turn it is queued for an edit
there (one REST call), and a turn's end edits it anyway.

Nothing here is saved: after a restart, the next ``/umtali play`` sends a new panel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

import discord

from cogs.umtali import rest_timeout
from cogs.umtali.access import service, tr_of
from cogs.umtali.failures import PASSING
from cogs.umtali.in_time import in_time, thinking
from cogs.umtali.live import LiveMatch
from cogs.umtali.outbox import Batch
from cogs.umtali.private import send_private
from cogs.umtali.showing import Seen, Shown
from umtali.i18n import Tr

log = logging.getLogger(__name__)

#: An interaction's token lives 15 minutes; one this old is not relied on.
TOKEN_LIFE = 14 * 60.0


#: What a hand panel shows (``drawn_at``): the match's version, whether it is over, the look,
#: the turn's clock (``pane_clock``).
DrawnAt = tuple[int, bool, Seen | None, tuple[float | None, float | None]]


@dataclass
class Pane:
    """The seat's ephemeral panel: the interaction whose original response it is."""

    interaction: discord.Interaction
    #: The match's version it shows.
    version: int
    #: The version when the player last acted through it. While the match is still there,
    #: nothing was posted since (announcements come only when a turn ends): the panel is
    #: where the player left it.
    answered: int
    #: Loop time when ``interaction`` came.
    at: float
    #: One edit at a time, each drawn as the match is when it goes: the last edit is the newest.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The look it was drawn in (``Look.seen``; None: not known).
    look: Seen | None = None
    #: The turn's clock it was drawn with (``pane_clock``): the clock may change without a
    #: move (its reserve running, time given back), and the panel says when the turn ends.
    clock: tuple[float | None, float | None] = (None, None)


class Panes:
    """Each seat's ephemeral panel, for one bot."""

    def __init__(self) -> None:
        self.panes: dict[tuple[int, int], Pane] = {}

    def fresh(self, live: LiveMatch, seat: int) -> Pane | None:
        """The seat's panel while its token may edit it. Kept after the match ended until it
        was edited to show the ending (``refresh_pane``), lest it go on offering moves."""
        pane = self.panes.get((live.id, seat))
        if pane is not None and _now() - pane.at > TOKEN_LIFE:
            del self.panes[live.id, seat]
            return None
        return pane

    def keep(self, live: LiveMatch, seat: int, interaction: discord.Interaction,
             shown: DrawnAt) -> None:
        """``interaction``'s panel is the seat's, showing the match at ``shown``: its version,
        whether it was over, and the look it was drawn in (``drawn_at``), taken when it was
        drawn. The match may have moved on or ended while it was drawn and sent, its look
        changed: ``refresh_stale_panes`` then edits it, and a look's redraw."""
        version, over, look, clock = shown
        if over:
            # The answer shows the ending: nothing left to keep in step.
            self.drop(live.id, seat)
            return
        pane = Pane(interaction, version, version, _now(), look=look, clock=clock)
        self.panes[live.id, seat] = pane
        if len(self.panes) > 64:
            self._sweep()

    def drop(self, match_id: int, seat: int) -> None:
        self.panes.pop((match_id, seat), None)

    def _sweep(self) -> None:
        old = _now() - TOKEN_LIFE
        for key in [k for k, p in self.panes.items() if p.at < old]:
            del self.panes[key]


_PANES: WeakKeyDictionary[discord.Client, Panes] = WeakKeyDictionary()


def panes(client: discord.Client) -> Panes:
    found = _PANES.get(client)
    if found is None:
        found = _PANES[client] = Panes()
    return found


def _now() -> float:
    return asyncio.get_running_loop().time()


async def load_orders(client: discord.Client) -> None:
    """At start-up: keep the ephemeral panels in step with the hands sent anew, and review
    each practice hand after it ends (``cogs.umtali.coach``: by DM, next to the DM panel)."""
    from cogs.umtali.coach import load_coach

    svc = service(client)

    async def refresh_panes(live: LiveMatch) -> None:
        await refresh_stale_panes(client, live)

    svc.hand_listeners.append(refresh_panes)
    load_coach(client)


def drawn_at(live: LiveMatch, seat: int) -> DrawnAt:
    """What a hand panel drawn just now (``hand_shown``, before any await) shows: the match's
    version, whether it is over, the look it is drawn in, the turn's clock (``Panes.keep``)."""
    return live.version, live.over, live.pane_look[seat], pane_clock(live)


def pane_clock(live: LiveMatch) -> tuple[float | None, float | None]:
    """The turn's clock as a hand panel shows it: its deadline, and since when its reserve
    runs (review156: a panel kept "Your turn ends" of a deadline the reserve had moved)."""
    return live.deadline, live.reserve_running


def is_dm_panel(live: LiveMatch, seat: int, message: discord.Message | None) -> bool:
    return message is not None and message.id == live.dm_message_ids[seat]


async def show_panel(interaction: discord.Interaction, live: LiveMatch, seat: int,
                     note: str = "", *, before: int | None = None) -> None:
    """Answer ``interaction`` with the seat's hand on its one ephemeral panel.

    ``before``: the version the match had before this answer's move. If the player last acted
    through the panel at that version (nothing happened meanwhile, so it is where they left
    it), it is edited and the answer is deferred and removed; otherwise a new panel is sent
    where the player is looking, and the old one deleted."""
    svc = service(interaction.client)
    known = panes(interaction.client)
    if interaction.response.is_done() and not thinking(interaction):
        # A click deferred while its move waited on the database (``in_time``): its original
        # response is the message clicked, so the panel comes as a follow-up, not kept.
        shown = await svc.hand_shown(live, seat, note, tr_of(interaction)).drawn()
        assert shown.view is not None
        await send_private(interaction, shown.view, embeds=shown.embeds, files=shown.files)
        return
    pane = known.fresh(live, seat)
    if pane is not None and before is not None and pane.answered == before:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        if await refresh_pane(interaction.client, live, seat, note, tr_of(interaction)):
            pane.answered = live.version
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            return
        # Dismissed, or its token refused: this answer becomes the panel.
        drawing = svc.hand_shown(live, seat, note, tr_of(interaction))
        at = drawn_at(live, seat)  # what it shows (the match may move on, its look change)
        shown = await drawing.drawn()
        await interaction.edit_original_response(**shown.edit())
        _stop(shown)
        await _keep_alone(known, live, seat, interaction, at, pane)
        await refresh_stale_panes(interaction.client, live)
        return
    drawing = svc.hand_shown(live, seat, note, tr_of(interaction))
    at = drawn_at(live, seat)
    # (A move's save before it may have used up most of Discord's 3 seconds: ``in_time``.)
    shown = await in_time(interaction, drawing.drawn(), new_message=True)
    assert shown.view is not None
    await send_private(interaction, shown.view, embeds=shown.embeds, files=shown.files)
    await _keep_alone(known, live, seat, interaction, at, pane)
    await refresh_stale_panes(interaction.client, live)


async def _keep_alone(known: Panes, live: LiveMatch, seat: int, interaction: discord.Interaction,
                      at: DrawnAt, before: Pane | None) -> None:
    """``interaction``'s panel is kept as the seat's, and the one it replaces deleted: one
    panel at a time (already dismissed is as good). Both the one read before this answer
    went out (``before``) and one kept meanwhile: a second tap on **My hand** answered while
    this one was sent (review153: neither knew of the other, and one was left for good)."""
    meanwhile = known.fresh(live, seat)
    known.keep(live, seat, interaction, at)
    replaced = {id(p): p for p in (before, meanwhile)
                if p is not None and p.interaction is not interaction}
    for pane in replaced.values():
        with contextlib.suppress(discord.HTTPException):
            await pane.interaction.delete_original_response()


async def refresh_pane(client: discord.Client, live: LiveMatch, seat: int,
                       note: str = "", tr: Tr | None = None) -> bool:
    """Edit the seat's ephemeral panel to show the match as it is; False if there is none
    (or it could not be edited: dismissed, or its token expired). ``tr``: the language of the
    interaction this edit answers, if any. One that shows it so already, in the member's
    look of now, is left (a look changed here: the command's own redraw and the one beside
    it, ``display.redraw_own``, edit it once)."""
    known = panes(client)
    pane = known.fresh(live, seat)
    if pane is None:
        return False
    svc = service(client)
    async with pane.lock:
        if not (note or tr or live.over) and pane.version == live.version and \
                pane.look == svc.hand_seen(live, seat) and pane.clock == pane_clock(live):
            return True
        # The position shown, taken with its view: the match may move on while the picture
        # is drawn and the edit is under way (a later refresh then shows the rest).
        version, over, clock = live.version, live.over, pane_clock(live)
        shown = svc.hand_shown(live, seat, note, tr)
        look = live.pane_look[seat]
        try:
            await shown.drawn()
            # Through the interaction's webhook, which ``REST_TIMEOUT`` does not bound (nor
            # anything but aiohttp's five minutes): the match's delivery waits on this edit.
            async with asyncio.timeout(rest_timeout.REST_TIMEOUT.total):
                await pane.interaction.edit_original_response(**shown.edit())
        except (discord.HTTPException, *PASSING) as e:
            log.debug("match %d: seat %d's panel could not be edited (%s)", live.id, seat, e)
            known.drop(live.id, seat)
            return False
        finally:
            _stop(shown)
        pane.version, pane.look, pane.clock = version, look, clock
        if over:
            known.drop(live.id, seat)  # it shows the ending: never edited again
    return True


def refresh_dm(live: LiveMatch, seat: int, client: discord.Client) -> None:
    """Queue an edit of the seat's DM panel. One showing this version is drawn again only in
    another look than the member's of now (``dm_look``: only its look changed), and once,
    whoever else queued it."""
    # Queued even while the seat's first panel is on its way (its id not yet saved): the
    # delivery sends in order, so that panel is then brought to this position.
    if live.over or client.is_closed():
        return
    service(client).delivery.enqueue(live, Batch(hands={seat}))


async def after_move(interaction: discord.Interaction, live: LiveMatch, seat: int,
                     *, on_dm: bool) -> None:
    """After the seat's move was answered (on its DM panel if ``on_dm``): bring the other
    panels up to date. The opponent's ephemeral panel too, when the turn passed to them."""
    client = interaction.client
    # The mover's DM: during the turn only (its end edits both DM panels anyway).
    if not on_dm and not live.over and live.session.to_act == seat:
        refresh_dm(live, seat, client)
    await refresh_stale_panes(client, live)


async def refresh_stale_panes(client: discord.Client, live: LiveMatch) -> None:
    """Edit each seat's ephemeral panel that shows an earlier position."""
    for s in (0, 1):
        pane = panes(client).fresh(live, s)
        # An ending without a move (a resignation, the clock) keeps the version.
        if pane is not None and (pane.version != live.version or live.over
                                 or pane.clock != pane_clock(live)):
            await refresh_pane(client, live, s)


def _stop(shown: Shown) -> None:
    # An ephemeral panel's buttons are answered by DynamicItems: discord.py need not keep
    # the View (with its timer) once it is sent.
    if shown.view is not None:
        shown.view.stop()
