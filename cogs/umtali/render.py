"""Messages from views: the public table, a player's private hand, a turn's announcement.

Every function here takes a ``PlayerView`` (the spectator's for public messages) and never the
session itself, so a hidden card cannot reach a public message by accident. Players' names come
in as stored and are made safe here (``names.safe_name``), once, where the text is made.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord

from cogs.umtali.arrange import HandOrder, hand_text, order_of
from cogs.umtali.names import safe_name
from umtali.events import Event
from umtali.melds import PlayKind
from umtali.moves import MoveKind
from umtali.text import describe
from umtali.view import SPECTATOR, PlayerView

COLOUR = discord.Colour.dark_green()
_KIND = {
    PlayKind.SEQUENCE: "sequence",
    PlayKind.GROUP: "group",
    PlayKind.MARRIAGE: "marriage",
    PlayKind.JACK: "jack",
    PlayKind.PAIR: "pair",
    PlayKind.EXTENSION: "extension",
}


def _melds_of(view: PlayerView, seat: int) -> str:
    parts = []
    for p in view.plays:
        if p.player != seat:
            continue
        cards = " ".join(str(c) for c in p.cards)
        parts.append(f"[{cards}]" if p.kind is not PlayKind.EXTENSION else f"+{cards}")
    return " ".join(parts) or "—"


def _safe(names: Sequence[str]) -> list[str]:
    return [safe_name(n) for n in names]


def prompt(view: PlayerView, names: Sequence[str]) -> str:
    """What the player to act must do now, in words."""
    return _prompt(view, _safe(names))


def _prompt(view: PlayerView, names: Sequence[str]) -> str:
    if view.winner >= 0:
        return f"Session over: **{names[view.winner]}** wins."
    who = names[view.to_act]
    if view.phase == "draw":
        if view.top_face_down:
            return f"**{who}** to draw from the stock (the top discard is face down)."
        return f"**{who}** to draw from the stock or take the top discard."
    if view.phase == "meld":
        return f"**{who}** to meld, then discard."
    return "The hand is over."


def table_embed(
    view: PlayerView, names: Sequence[str], match_id: int, *, deadline: float | None = None,
    note: str = "",
) -> discord.Embed:
    """The public table. ``view`` must be the spectator's."""
    assert view.seat == SPECTATOR, "the public table renders the spectator's view only"
    names = _safe(names)
    lines = [f"Game {view.game}, hand {view.hand_no} · {view.rules} rules · "
             f"dealer {names[view.dealer]}", _prompt(view, names)]
    if view.went_out >= 0 and view.winner < 0:
        lines.append(f"{names[view.went_out]} went out: {names[1 - view.went_out]} "
                     "plays the last turn.")
    if deadline is not None and view.winner < 0:
        stamp = discord.utils.format_dt(dt.datetime.fromtimestamp(deadline, dt.UTC), "R")
        lines.append(f"Turn ends {stamp}.")
    if note:
        lines.append(note)
    embed = discord.Embed(title=f"Umtali · {names[0]} vs {names[1]}",
                          description="\n".join(lines), colour=COLOUR)
    for seat in (0, 1):
        embed.add_field(
            name=f"{names[seat]} · {view.hand_sizes[seat]} cards · {view.hand_points[seat]} pts",
            value=_melds_of(view, seat)[:1024],
            inline=False,
        )
    top = "empty"
    if view.discard_pile:
        top = "face down" if view.top_face_down else str(view.top_discard)
        below = view.discard_pile[-2] if len(view.discard_pile) > 1 else None
        if below is not None and not view.top_face_down:
            top += f", then {below}"
        top += f" ({len(view.discard_pile)} cards)"
    embed.add_field(name="Stock", value=f"{view.stock_size} cards", inline=True)
    embed.add_field(name="Discard pile", value=top, inline=True)
    ga, gb = view.game_scores
    embed.add_field(
        name="Scores",
        value=f"Game: {names[0]} {ga} – {gb} {names[1]}\n"
              f"Games won: {view.games_won[0]} – {view.games_won[1]}",
        inline=False,
    )
    embed.set_footer(text=f"Match {match_id} · press “My hand” to see your cards and play")
    return embed


def hand_embed(
    view: PlayerView, names: Sequence[str], match_id: int, note: str = "",
    order: HandOrder | None = None,
) -> discord.Embed:
    """A player's private panel: their hand, the table's essentials, and what they may do.

    ``order``: how the hand is laid out (default: as the seat's player chose)."""
    assert view.seat != SPECTATOR
    order = order or order_of(match_id, view.seat)
    names = _safe(names)
    me = view.seat
    if view.winner >= 0:
        doing = _prompt(view, names)
    elif view.my_turn:
        doing = "Your turn: " + (
            "draw from the stock or take the top discard." if view.phase == "draw"
            else "meld what you can, then discard."
        )
        if view.must_meld:
            doing += " You took two: meld " + " ".join(str(c) for c in view.must_meld) + "."
    else:
        doing = f"Waiting for {names[view.to_act]}."
    lines = [doing]
    if view.went_out >= 0 and view.went_out != me and view.winner < 0:
        lines.append(f"{names[view.went_out]} went out: this is your last turn.")
    if note:
        lines.append(note)
    embed = discord.Embed(title=f"Your hand · match {match_id}", description="\n".join(lines),
                          colour=COLOUR)
    embed.add_field(name=f"{len(view.hand)} cards · {order.label}",
                    value=hand_text(view, order)[:1024], inline=False)
    top = "empty" if not view.discard_pile else (
        "face down" if view.top_discard is None else str(view.top_discard))
    embed.add_field(name="Discard pile", value=top, inline=True)
    embed.add_field(name="Stock", value=f"{view.stock_size} cards", inline=True)
    embed.add_field(name=f"{names[1 - me]} holds", value=f"{view.opponent_hand_size} cards",
                    inline=True)
    if view.my_turn:
        melds = [m for m in view.legal_moves if m.kind in (MoveKind.MELD, MoveKind.EXTEND)]
        if melds:
            embed.add_field(name="You can meld",
                            value="\n".join(f"`{m.text(symbols=True)}`" for m in melds[:12])[:1024],
                            inline=False)
    return embed


def turn_message(events: Sequence[Event], names: Sequence[str]) -> str:
    """One public message for a run of events (a player's whole turn, and what followed)."""
    shown = _safe(names)
    return "\n".join(describe(e.for_seat(SPECTATOR), shown) for e in events)
