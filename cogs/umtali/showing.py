"""What a live match looks like: the public table and each player's private panels.

Each comes as a ``Shown``: the embeds with their text, the components, and the pictures the
embeds show (``pictures``: on by default; off, the text alone, as a server or a member may
choose). The table's picture is drawn from the spectator's view, a hand's from its seat's.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.umtali.arrange import HandOrder
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.panels import hand_panel
from cogs.umtali.pictures import HAND_FILE, TABLE_FILE, hand_png, table_png
from cogs.umtali.render import hand_embed, table_embed
from cogs.umtali.turn_clock import clock_line
from umtali.i18n import EN, N_, Tr
from umtali.view import SPECTATOR

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


@dataclass
class Shown:
    """A message to send or to edit into place: embeds, components, and the pictures."""

    embeds: list[discord.Embed]
    view: discord.ui.View | None = None
    #: Made afresh for every message: discord.py reads a file once and closes it.
    files: list[discord.File] = field(default_factory=list)

    @property
    def embed(self) -> discord.Embed:
        return self.embeds[-1]

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


def _picture(embed: discord.Embed, png: bytes, name: str) -> discord.File:
    embed.set_image(url=f"attachment://{name}")
    return discord.File(io.BytesIO(png), filename=name)


@dataclass(frozen=True)
class Look:
    """How a message is shown to its readers: their language, and for a hand, how its player
    chose to see it. ``pictures``: off, the text alone, as a server or a member may choose."""

    tr: Tr = EN
    pictures: bool = True
    four_colour: bool = False
    order: HandOrder = HandOrder.SUIT


TEXT_ONLY = Look(pictures=False)


def table_of(live: LiveMatch, note: str = "", look: Look = TEXT_ONLY) -> Shown:
    view = live.session.view(SPECTATOR)
    embed = table_embed(view, live.names, live.id, tr=look.tr, deadline=live.deadline,
                        note=note, clock=clock_line(live, look.tr))
    if not look.pictures:
        return Shown([embed])
    png = table_png(view, live.names, tr=look.tr, four_colour=look.four_colour)
    return Shown([embed], files=[_picture(embed, png, TABLE_FILE)])


def hand_of(live: LiveMatch, seat: int, note: str = "", look: Look = TEXT_ONLY) -> Shown:
    view = live.session.view(seat)
    tr = look.tr
    if live.abandoned:
        gone = [safe_name(live.names[s]) for s in (0, 1) if not live.reachable(s)]
        note = (tr(ABANDONED[2], a=gone[0], b=gone[1]) if len(gone) == 2 else
                tr(ABANDONED[1], name=gone[0]) if gone else tr(ABANDONED[0]))
        return Shown([hand_embed(view, live.names, live.id, tr=tr, order=look.order,
                                 note=note)], discord.ui.View(timeout=None))
    embed = hand_embed(view, live.names, live.id, tr=tr, order=look.order, note=note)
    shown = Shown([embed], hand_panel(view, live.id, live.version, tr=tr, order=look.order,
                                      hint=live.computer_seat is not None))
    if look.pictures:
        png = hand_png(view, tr=tr, four_colour=look.four_colour)
        shown.files.append(_picture(embed, png, HAND_FILE))
    return shown


def dm_panel_of(live: LiveMatch, seat: int, note: str = "", look: Look = TEXT_ONLY,
                table_look: Look = TEXT_ONLY) -> Shown:
    """The DM panel: the hand, and while the channel is lost the table with the last turn
    too (it is public; the hand is this player's own)."""
    shown = hand_of(live, seat, note, look)
    if not live.channel_lost:
        return shown
    table = table_of(live, tail(live.last_turn, LAST_TURN), table_look)
    return Shown([*table.embeds, *shown.embeds], shown.view, [*table.files, *shown.files])


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
