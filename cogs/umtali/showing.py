"""What a live match looks like: the public table and each player's private panels.

Each comes as a ``Shown``: the embeds with their text, the components, and the pictures the
embeds show (``pictures``: on by default; off, the text alone, as a server or a member may
choose). The table's picture is drawn from the spectator's view, a hand's from its seat's.

A picture is drawn when the message goes out, not when the ``Shown`` is made: ``await
shown.drawn()`` draws it in a worker thread (a table takes up to about 50 ms with Pillow, too
long for the event loop), from the view taken when the ``Shown`` was made (a value the loop
cannot change meanwhile). Reading ``files`` draws what is still undrawn where it is read.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import discord

from cogs.umtali.announcing import turn_kept
from cogs.umtali.arrange import HandOrder
from cogs.umtali.fair import reveal_line, revealed
from cogs.umtali.final_card import ReplayButton
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.panels import hand_panel
from cogs.umtali.pictures import HAND_FILE, TABLE_FILE, hand_png, table_png
from cogs.umtali.render import hand_embed, table_embed
from cogs.umtali.turn_clock import clock_line, clock_time
from cogs.umtali.turn_words import spoken_in
from umtali.i18n import EN, N_, Tr
from umtali.view import SPECTATOR

log = logging.getLogger(__name__)

#: Why a match was abandoned: whom the bot could no longer reach. One message for each case,
#: not a name put into one: a language may word each differently (Russian declines
#: "игроком" / "игроками" before a name it cannot decline, and a channel takes another verb).
ABANDONED = {
    1: N_("This match was abandoned: I could no longer reach {name}. Nobody wins it and no "
          "rating changed; you are free to start another."),
    2: N_("This match was abandoned: I could no longer reach {a} and {b}. Nobody wins it and "
          "no rating changed; you are free to start another."),
    0: N_("This match was abandoned: I could no longer reach this match's channel. Nobody "
          "wins it and no rating changed; you are free to start another."),
}
#: A match with no clock ended by its remaining player's "Yes" to resign once the opponent had
#: left the server (``resigning``): its channel and both players could still be reached.
#: The panel is each seat's, and who left is not saved with the ending: nobody is named.
ABANDONED_LEFT = N_("This match was abandoned: a player left the server, and a match with no "
                    "clock cannot be finished without them. Nobody wins it and no rating "
                    "changed; you are free to start another.")
#: A match stopped part-way by the bot's choice, not for want of a way to reach anyone.
CANCELLED = N_("This match was cancelled. Nobody wins it and no rating changed; you are free "
               "to start another.")
#: The table of a match that ended with no result, in place of whose turn it was: nobody
#: plays on (its session never finished, so its view still has a seat to act).
ENDED = {"cancelled": N_("Match cancelled: no result"),
         "abandoned": N_("Match abandoned: no result")}
#: A match a server admin ended (``/umtali-admin end-match``): saved abandoned, said as it was.
BY_ADMIN = N_("This match was ended by a server admin. Nobody wins it and no rating changed; "
              "you are free to start another.")
ENDED_BY_ADMIN = N_("Match ended by a server admin: no result")


def ended_words(live: LiveMatch) -> str:
    """How a match with no result ended, as its table and panels head it."""
    if live.ended_by is not None:
        return ENDED_BY_ADMIN
    return ENDED.get(live.ended, ENDED["abandoned"])


@dataclass(frozen=True)
class Picture:
    """A picture still to draw: ``draw`` holds only values (a ``PlayerView``, names, a
    language), never the live session, so it may run in a thread while play goes on."""

    draw: Callable[[], bytes]
    name: str
    #: The embed that shows it: should it fail to draw, the embed is left with its text.
    embed: discord.Embed | None = None


@dataclass
class Shown:
    """A message to send or to edit into place: embeds, components, and the pictures."""

    embeds: list[discord.Embed]
    view: discord.ui.View | None = None
    #: The pictures drawn. Made afresh for every message: discord.py reads a file once and
    #: closes it.
    made: list[discord.File] = field(default_factory=list)
    #: The pictures not drawn yet (``drawn``); their embeds already point at them.
    pictures: list[Picture] = field(default_factory=list)

    @property
    def embed(self) -> discord.Embed:
        return self.embeds[-1]

    @property
    def files(self) -> list[discord.File]:
        """Every picture as a file (any not drawn yet is drawn here, on the caller's thread:
        await ``drawn`` first to keep that off the event loop)."""
        self._draw_here()
        return self.made

    async def drawn(self) -> Shown:
        """Draw the pictures in a worker thread, off the event loop; ``self``, ready."""
        if self.pictures:
            todo, self.pictures = self.pictures, []
            self._keep(todo, await asyncio.to_thread(_draw_all, [p.draw for p in todo]))
        return self

    def _draw_here(self) -> None:
        # A caller that did not await ``drawn``: drawn here, on the caller's thread.
        if self.pictures:
            todo, self.pictures = self.pictures, []
            self._keep(todo, _draw_all([p.draw for p in todo]))

    def _keep(self, pictures: list[Picture], pngs: list[bytes | None]) -> None:
        for p, png in zip(pictures, pngs, strict=True):
            if png is not None:
                self.made.append(discord.File(io.BytesIO(png), filename=p.name))
            elif p.embed is not None:
                p.embed.set_image(url=None)  # not pointing at a file the message lacks

    def send(self) -> dict[str, Any]:
        """Keyword arguments for ``send``: the pictures as files."""
        out: dict[str, Any] = {"embeds": self.embeds, "files": self.files}
        if self.view is not None:
            out["view"] = self.view
        return out

    def edit(self) -> dict[str, Any]:
        """Keyword arguments for an edit: the pictures replace the message's attachments (so
        a picture from an earlier turn never lingers)."""
        return {"embeds": self.embeds, "attachments": self.files, "view": self.view}


def _draw_all(draws: list[Callable[[], bytes]]) -> list[bytes | None]:
    return [_draw(draw) for draw in draws]


#: Whether a picture failed to draw in this process already (its trace is logged once).
_failed = False


def _draw(draw: Callable[[], bytes]) -> bytes | None:
    """A picture's bytes, or None should it fail (Pillow, a broken font package): the message
    goes with its text alone rather than not at all, and the move it shows is not lost."""
    global _failed
    try:
        return draw()
    except Exception as e:
        log.warning("a picture could not be drawn (%s: %s): sent as text alone",
                    e.__class__.__name__, e, exc_info=not _failed)
        _failed = True
        return None


def _picture(embed: discord.Embed, draw: Callable[[], bytes], name: str) -> Picture:
    embed.set_image(url=f"attachment://{name}")
    return Picture(draw, name, embed)


#: ``Look.seen``: language, pictures, four colours, hand order.
Seen = tuple[str, bool, bool, str]


@dataclass(frozen=True)
class Look:
    """How a message is shown to its readers: their language, and for a hand, how its player
    chose to see it. ``pictures``: off, the text alone, as a server or a member may choose."""

    tr: Tr = EN
    pictures: bool = True
    four_colour: bool = False
    order: HandOrder = HandOrder.SUIT

    @property
    def seen(self) -> Seen:
        """What its reader sees of it: a panel drawn with another is to be drawn again."""
        return self.tr.lang, self.pictures, self.four_colour, self.order.value


TEXT_ONLY = Look(pictures=False)


def table_of(live: LiveMatch, note: str = "", look: Look = TEXT_ONLY, *,
             snapshot: bool = False, judged: float | None = None) -> Shown:
    """The public table; ``snapshot``: a private copy for one member, with no buttons;
    ``judged``: the turn's deadline as the clock judges it (``judged.judged_deadline``), when
    the caller knows it (else the deadline saved)."""
    view = live.session.view(SPECTATOR)
    # Played in DMs, the table is a DM panel's copy, with no My hand button; so is a snapshot.
    names = live.names_in(look.tr)
    ended = look.tr(ended_words(live)) if live.abandoned else ""
    deadline = live.deadline if judged is None else judged
    embed = table_embed(view, names, live.id, tr=look.tr, deadline=deadline,
                        note=note, clock=clock_line(live, look.tr),
                        hand_button=not (live.channel_lost or snapshot), ended=ended)
    if not look.pictures:
        return Shown([embed])
    draw = partial(table_png, view, names, tr=look.tr, four_colour=look.four_colour,
                   ended=ended)
    return Shown([embed], pictures=[_picture(embed, draw, TABLE_FILE)])


def hand_of(live: LiveMatch, seat: int, note: str = "", look: Look = TEXT_ONLY,
            judged: float | None = None) -> Shown:
    """The seat's hand panel; on its turn, when the turn ends (``judged``: as the clock judges
    it, as ``table_of``'s) and its reserve."""
    if live.abandoned:
        return _unfinished(live, seat, look)
    view = live.session.view(seat)
    tr = look.tr
    embed = hand_embed(view, live.names_in(tr), live.id, tr=tr, order=look.order, note=note,
                       deadline=live.deadline if judged is None else judged,
                       reserve=my_reserve(live, seat, tr))
    shown = Shown([embed], hand_panel(view, live.id, live.version, tr=tr, order=look.order,
                                      hint=live.computer_seat is not None))
    # No picture of an empty hand (a player who went out): the text says "no cards".
    if look.pictures and view.hand:
        draw = partial(hand_png, view, tr=tr, four_colour=look.four_colour, order=look.order)
        shown.pictures.append(_picture(embed, draw, HAND_FILE))
    return shown


def my_reserve(live: LiveMatch, seat: int, tr: Tr) -> str:
    """``seat``'s reserve for its own panel, in a match whose time control has one, as the
    table's clock line gives it (``clock_line``); said on the seat's own turn only."""
    control = live.control
    if (not live.time_control or not control.timed or control.reserve <= 0 or live.over
            or live.deadline is None or live.session.to_act != seat):
        return ""
    if live.reserve_running == live.deadline:
        # Its end is the turn's, counted down in the line above: no figure to go stale.
        return tr("Your own time is up: your reserve is running until the turn ends.")
    return tr("Your reserve: {reserve}.", reserve=clock_time(live.reserves[seat], tr))


def _unfinished(live: LiveMatch, seat: int, look: Look) -> Shown:
    """The hand of a match that ended with no result: why, and once cards were dealt, the
    reveal of its seed as a finished session's, with its replay and deals files a click away."""
    tr = look.tr
    how = live.ended or "abandoned"
    # A channel lost once it was over (its end's posts refused) is not why it ended.
    lost = live.channel_lost and not live.lost_over
    gone = [safe_name(live.names_in(tr)[s]) for s in (0, 1) if lost and not live.reachable(s)]
    notes = [tr(CANCELLED) if how == "cancelled" else
             tr(BY_ADMIN) if live.ended_by is not None else
             tr(ABANDONED[2], a=gone[0], b=gone[1]) if len(gone) == 2 else
             tr(ABANDONED[1], name=gone[0]) if gone else
             # (abandoned only with its channel lost, but for an opponent gone: 50da19a)
             tr(ABANDONED[0]) if lost else tr(ABANDONED_LEFT)]
    buttons = discord.ui.View(timeout=None)
    if revealed(live.commitment, False, how, live.dealt):
        notes.append(reveal_line(live.session, live.salt, live.commitment, tr, how,
                                 live.cut))
        buttons.add_item(ReplayButton(live.guild_id, live.id, tr))
    embed = hand_embed(live.session.view(seat), live.names_in(tr), live.id, tr=tr, order=look.order,
                       note="\n\n".join(notes), ended=tr(ended_words(live)))
    return Shown([embed], buttons)


def dm_panel_of(live: LiveMatch, seat: int, note: str = "", look: Look = TEXT_ONLY,
                table_look: Look = TEXT_ONLY, judged: float | None = None) -> Shown:
    """The DM panel: the hand, and while the channel is lost the table with the last turn
    too (it is public; the hand is this player's own)."""
    if not live.channel_lost:
        return hand_of(live, seat, note, look, judged)
    ended = live.over and not live.abandoned and revealed(live.commitment, True)
    if ended:
        # Ended with a result: its reveal goes with the final card under the table, which a
        # match played in DMs no longer has. Said here, as a match with no result does.
        note = "\n\n".join(filter(None, (note, reveal_line(
            live.session, live.salt, live.commitment, look.tr, cut=live.cut))))
    shown = hand_of(live, seat, note, look, judged)
    if ended:
        shown.view = discord.ui.View(timeout=None)
        shown.view.add_item(ReplayButton(live.guild_id, live.id, look.tr))
    # The last turn in the reader's language where its events are known (review166).
    last = live.last_turn if live.last_spoken is None else spoken_in(
        live, live.last_spoken, table_look.tr, tail)
    table = table_of(live, turn_kept(last, LAST_TURN, tail), table_look, judged=judged)
    return Shown([*table.embeds, *shown.embeds], shown.view, [*table.made, *shown.made],
                 [*table.pictures, *shown.pictures])


#: The most of the last turn's announcement a DM panel's table shows (its embed holds 4,096).
LAST_TURN = 1000


def tail(text: str, limit: int) -> str:
    """The end of ``text`` in at most ``limit`` characters, from the start of a line (else of
    a word), after an ellipsis: never from the middle of an escaped name or a mention, whose
    markdown would then read wrong."""
    if len(text) <= limit:
        return text
    cut = text[len(text) - limit + 2:]
    line = cut.find("\n")
    if line >= 0:
        return "…\n" + cut[line + 1:]
    space = cut.find(" ")
    return "…" + (cut[space + 1:] if space >= 0 else cut)
