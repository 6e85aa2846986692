"""A hand's panel: the moves open to the seat now, as buttons and menus, and its layout menu.

Everything offered comes from the seat's legal moves (``PlayerView.legal_moves``). The melds and
extensions it may lay are one click each: buttons when they fit on one row, else one menu of
whole moves (two past 25). The card menu stays for picking a meld card by card, and the layout
menu for how the hand is shown. At most 5 rows, as Discord allows: lay, (more lay), pick,
discard, layout. Ids carry the match and its version (``umtali:m:<match>:<version>:<action>``):
a click from an earlier turn is recognised as stale. Callbacks only call ``cogs.umtali.actions``.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord

from cogs.umtali.arrange import HandOrder, arranged
from cogs.umtali.card_words import card_words, cards_words, fitted
from cogs.umtali.errors import guarded
from cogs.umtali.ids import id_of
from cogs.umtali.render import lay_moves, lay_words
from cogs.umtali.text_cuts import head
from umtali.i18n import EN, N_, Tr
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView

#: Discord's limits: options in a menu, buttons in a row, characters in an id and a label.
MAX_OPTIONS = 25
MAX_BUTTONS = 5
_MAX_ID = 100
_MAX_LABEL = 80

_BUTTON_MOVES = {"draw": Move.draw(), "take": Move.take(), "take2": Move.take_two()}


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):(?P<version>[0-9]+):"
                          r"(?P<action>draw|take|take2)"):
    def __init__(self, match_id: int, version: int, action: str, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or action, style=discord.ButtonStyle.success, disabled=disabled,
            custom_id=f"umtali:m:{match_id}:{version}:{action}", row=0))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveButton:
        return cls(id_of(match["match"]), id_of(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import play_move

        move = _BUTTON_MOVES[self.action]
        await guarded(interaction,
                      lambda: play_move(interaction, self.match_id, move, self.version))


class LayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"umtali:m:(?P<match>[0-9]+):(?P<version>[0-9]+):lay:"
                         r"(?P<move>(?:meld|extend) [0-9A-Z ]+)"):
    """One meld or extension, laid in one click; the id carries the move in the notation."""

    def __init__(self, match_id: int, version: int, move: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or move, style=discord.ButtonStyle.primary,
            custom_id=f"umtali:m:{match_id}:{version}:lay:{move}", row=0))
        self.match_id, self.version, self.move = match_id, version, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LayButton:
        return cls(id_of(match["match"]), id_of(match["version"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import play_text

        await guarded(interaction,
                      lambda: play_text(interaction, self.match_id, self.move, self.version))


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):(?P<version>[0-9]+):"
                          r"(?P<action>meld|extend|discard|lay)"):
    """``meld``: choose the cards of a new meld; the others (``lay``: a whole meld or an
    extension; ``extend``, on panels sent before one-click play; ``discard``): choose a move."""

    def __init__(self, match_id: int, version: int, action: str,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 max_values: int = 1, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"umtali:m:{match_id}:{version}:{action}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="-")], min_values=1,
            max_values=max_values, row=row))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveSelect:
        return cls(id_of(match["match"]), id_of(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import play_text

        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        # The other menus choose one move: several values (the client's word) are no choice.
        text = f"meld {' '.join(values)}" if self.action == "meld" else \
            values[0] if len(values) == 1 else ""
        await guarded(interaction,
                      lambda: play_text(interaction, self.match_id, text, self.version))


class OrderSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"umtali:m:(?P<match>[0-9]+):order"):
    """How the hand is laid out. No version: it changes no position, so it works on any panel
    (and answers with the hand as it is now)."""

    def __init__(self, match_id: int, current: HandOrder = HandOrder.SUIT, tr: Tr = EN) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"umtali:m:{match_id}:order", row=4, min_values=1, max_values=1,
            options=[discord.SelectOption(label=tr("Hand {order}", order=o.label(tr)),
                                          value=o.value, default=o is current)
                     for o in HandOrder]))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OrderSelect:
        return cls(id_of(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import set_order

        data: Any = interaction.data or {}
        order = HandOrder.chosen(data.get("values") or [])
        await guarded(interaction, lambda: set_order(interaction, self.match_id, order))


class HintButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):hint"):
    """In a practice session: the move the hard computer would make now, and why, to the player
    alone (``cogs.umtali.coach``). No version: it changes nothing, and answers on the position
    as it is."""

    def __init__(self, match_id: int, tr: Tr = EN) -> None:
        super().__init__(discord.ui.Button(
            label=tr.ctx("button", "Hint"), style=discord.ButtonStyle.secondary, emoji="💡",
            custom_id=f"umtali:m:{match_id}:hint"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HintButton:
        return cls(id_of(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.coach_hint import answer_hint

        await guarded(interaction, lambda: answer_hint(interaction, self.match_id))


PLAY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    MoveButton, LayButton, MoveSelect, OrderSelect, HintButton,
)


def lay_label(view: PlayerView, move: Move, tr: Tr = EN) -> str:
    """A meld as its cards (``8♦ 9♦ 10♦``); an extension as the card and the meld it goes on
    (``7♦ on 8♦ 9♦ 10♦``)."""
    return head(lay_words(view, move, tr), _MAX_LABEL)  # whole cards, an ellipsis if cut


def lay_description(view: PlayerView, move: Move, tr: Tr) -> str:
    """A lay option's description: what it is, and its cards in words ("a new meld: 7 of
    hearts, 7 of diamonds, 7 of clubs"), which a screen reader says where the label's suit
    signs alone would tell two options apart."""
    cards = cards_words(move.card_list, tr)
    if move.kind is not MoveKind.EXTEND:
        return fitted(tr("a new meld: {cards}", cards=cards))
    meld = next((m for m in view.melds if move.target in m.cards), None)
    if meld is not None:
        cards = tr("{cards} on {meld}", cards=cards, meld=cards_words(meld.cards, tr))
    return fitted(tr("an extension: {cards}", cards=cards))


def _lay_options(view: PlayerView, moves: list[Move], tr: Tr) -> list[discord.SelectOption]:
    return [discord.SelectOption(
        label=lay_label(view, m, tr), description=lay_description(view, m, tr),
        value=str(m)) for m in moves[:MAX_OPTIONS]]


#: A lay menu's placeholder by what it holds: melds, extensions, or both.
_MENU_WORDS = {
    (True, False): N_("Lay a meld…"),
    (False, True): N_("Extend a meld on the table…"),
    (True, True): N_("Lay a meld or an extension…"),
}
#: The second menu's, when it holds more of what the first holds.
_MORE_WORDS = {
    (True, False): N_("More melds…"),
    (False, True): N_("More extensions…"),
}


def lay_menus(melds: list[Move], extensions: list[Move]) -> list[tuple[str, list[Move]]]:
    """The lay menus (at most two, rows 0 and 1), each as its placeholder (not yet worded)
    and its moves: none empty, none past Discord's 25 options. Melds in one and extensions in
    the other when each fits; else the lays in order, 25 a menu. Past 50 (no hand comes
    close), the shortest melds are left out before any extension: they can still be picked
    card by card, an extension cannot."""
    if len(melds) + len(extensions) <= MAX_OPTIONS:
        menus = [melds + extensions]
    elif melds and extensions and len(melds) <= MAX_OPTIONS and len(extensions) <= MAX_OPTIONS:
        menus = [melds, extensions]
    else:
        kept_ext = extensions[:2 * MAX_OPTIONS]
        lays = melds[:2 * MAX_OPTIONS - len(kept_ext)] + kept_ext
        menus = [lays[:MAX_OPTIONS], lays[MAX_OPTIONS:]]
    out: list[tuple[str, list[Move]]] = []
    for moves in menus:
        holds = (any(m.kind is MoveKind.MELD for m in moves),
                 any(m.kind is MoveKind.EXTEND for m in moves))
        words = _MENU_WORDS[holds]
        if out and out[0][0] == words:
            words = _MORE_WORDS.get(holds, words)
        out.append((words, moves))
    return out


def _add_lays(panel: discord.ui.View, view: PlayerView, match_id: int, version: int,
              tr: Tr) -> None:
    melds, extensions = lay_moves(view)
    lays = melds + extensions
    if not lays:
        return
    ids = [f"umtali:m:{match_id}:{version}:lay:{m}" for m in lays]
    if len(lays) <= MAX_BUTTONS and all(len(i) <= _MAX_ID for i in ids):
        for m in lays:
            panel.add_item(LayButton(match_id, version, str(m), lay_label(view, m, tr)))
        return
    # The second menu's id says ``extend`` whatever it holds: its choice is a whole move.
    for row, (action, (words, moves)) in enumerate(zip(("lay", "extend"),
                                                       lay_menus(melds, extensions),
                                                       strict=False)):
        panel.add_item(MoveSelect(match_id, version, action, _lay_options(view, moves, tr),
                                  placeholder=tr(words), row=row))


def hand_panel(view: PlayerView, match_id: int, version: int, *, tr: Tr,
               order: HandOrder, hint: bool = False) -> discord.ui.View:
    """The actions open to the seat now, and the layout menu while the session goes on.

    ``order``: how the hand is laid out, as the seat's player chose. ``hint``: a practice
    session, whose player may ask the coach on their turn."""
    panel = discord.ui.View(timeout=None)
    if view.to_act < 0:
        return panel  # the session is over: nothing to do
    if view.my_turn:
        _add_moves(panel, view, match_id, version, order, tr)
    panel.add_item(OrderSelect(match_id, order, tr))
    if hint and view.my_turn:
        # After the moves' buttons where a row has room; with all five rows taken (two lay
        # menus, past 25 melds and extensions), there is none, and no hint.
        with contextlib.suppress(ValueError):
            panel.add_item(HintButton(match_id, tr))
    return panel


def _add_moves(panel: discord.ui.View, view: PlayerView, match_id: int, version: int,
               order: HandOrder, tr: Tr) -> None:
    legal = view.legal_moves
    kinds = {m.kind for m in legal}
    if view.phase == "draw":
        top = view.top_discard
        below = view.discard_pile[-2] if len(view.discard_pile) > 1 else None
        panel.add_item(MoveButton(match_id, version, "draw", tr("Draw from the stock"),
                                  disabled=MoveKind.DRAW not in kinds))
        panel.add_item(MoveButton(match_id, version, "take",
                                  tr("Take {card}", card=top) if top is not None
                                  else tr.ctx("button", "Take"),
                                  disabled=MoveKind.TAKE not in kinds))
        if MoveKind.TAKE_TWO in kinds and top is not None and below is not None:
            panel.add_item(MoveButton(match_id, version, "take2",
                                      tr("Take {top} and {below}", top=top, below=below)))
        return
    _add_lays(panel, view, match_id, version, tr)
    if MoveKind.MELD in kinds:
        cards = arranged(view, order)[:MAX_OPTIONS]
        panel.add_item(MoveSelect(
            match_id, version, "meld",
            [discord.SelectOption(label=str(c), value=c.code, description=card_words(c, tr))
             for c in cards],
            placeholder=tr("Or pick the cards of a meld one by one…"), max_values=len(cards),
            row=2))
    discards = [m for m in legal if m.kind is MoveKind.DISCARD]
    if discards:
        # Going out: face down comes first and is the default, as the rules suggest; then
        # the cards as the hand is laid out.
        place = {c: i for i, c in enumerate(arranged(view, order))}
        discards.sort(key=lambda m: (not m.face_down, place.get(m.card, 0)))
        options = [
            discord.SelectOption(
                label=tr("Discard {card} face down", card=m.card) if m.face_down
                else tr("Discard {card}", card=m.card),
                description=card_words(m.card, tr), value=str(m))
            for m in discards[:MAX_OPTIONS]
        ]
        panel.add_item(MoveSelect(match_id, version, "discard", options,
                                  placeholder=tr("Discard to end your turn…"), row=3))
