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

from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.panels import hand_panel
from cogs.umtali.pictures import HAND_FILE, TABLE_FILE, hand_png, table_png
from cogs.umtali.render import hand_embed, table_embed
from umtali.view import SPECTATOR

ABANDONED = ("This match was abandoned: I could no longer reach {who}. Nobody wins it and no "
             "rating changed; you are free to start another.")


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


def table_of(live: LiveMatch, note: str = "", *, pictures: bool = True,
             four_colour: bool = False) -> Shown:
    view = live.session.view(SPECTATOR)
    embed = table_embed(view, live.names, live.id, deadline=live.deadline, note=note)
    if not pictures:
        return Shown([embed])
    png = table_png(view, live.names, four_colour=four_colour)
    return Shown([embed], files=[_picture(embed, png, TABLE_FILE)])


def hand_of(live: LiveMatch, seat: int, note: str = "", *, pictures: bool = True,
            four_colour: bool = False) -> Shown:
    view = live.session.view(seat)
    if live.abandoned:
        who = " and ".join(safe_name(live.names[s]) for s in (0, 1) if not live.reachable(s))
        note = ABANDONED.format(who=who or "this match's channel")
        return Shown([hand_embed(view, live.names, live.id, note)], discord.ui.View(timeout=None))
    embed = hand_embed(view, live.names, live.id, note)
    shown = Shown([embed], hand_panel(view, live.id, live.version))
    if pictures:
        shown.files.append(_picture(embed, hand_png(view, four_colour=four_colour), HAND_FILE))
    return shown


def dm_panel_of(live: LiveMatch, seat: int, note: str = "", *, pictures: bool = True,
                four_colour: bool = False) -> Shown:
    """The DM panel: the hand, and while the channel is lost the table with the last turn
    too (it is public; the hand is this player's own)."""
    shown = hand_of(live, seat, note, pictures=pictures, four_colour=four_colour)
    if not live.channel_lost:
        return shown
    table = table_of(live, live.last_turn[-1000:], pictures=pictures, four_colour=four_colour)
    return Shown([*table.embeds, *shown.embeds], shown.view, [*table.files, *shown.files])
