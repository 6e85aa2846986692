"""Components: the table's button, a hand's action panel, challenge and resign buttons.

Every component is a ``DynamicItem`` whose custom id carries what it acts on
(``umtali:m:<match>:<version>:<action>``), so buttons keep working after a restart and a button
from an earlier turn is recognised as stale. Callbacks only call ``cogs.umtali.actions``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.umtali.errors import guarded
from cogs.umtali.records import RECORD_ITEMS
from umtali.cards import Card
from umtali.moves import Move, MoveKind
from umtali.view import PlayerView

_MAX_OPTIONS = 25


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):hand"):
    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="My hand", style=discord.ButtonStyle.primary,
            custom_id=f"umtali:m:{match_id}:hand"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import show_hand

        await guarded(interaction, lambda: show_hand(interaction, self.match_id))


_BUTTON_MOVES = {"draw": Move.draw(), "take": Move.take(), "take2": Move.take_two()}


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):(?P<version>[0-9]+):"
                          r"(?P<action>draw|take|take2)"):
    def __init__(self, match_id: int, version: int, action: str, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or action, style=discord.ButtonStyle.success, disabled=disabled,
            custom_id=f"umtali:m:{match_id}:{version}:{action}"))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveButton:
        return cls(int(match["match"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import play_move

        move = _BUTTON_MOVES[self.action]
        await guarded(interaction,
                      lambda: play_move(interaction, self.match_id, move, self.version))


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):(?P<version>[0-9]+):"
                          r"(?P<action>meld|extend|discard)"):
    """``meld``: choose the cards of a new meld; ``extend`` and ``discard``: choose a move."""

    def __init__(self, match_id: int, version: int, action: str,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 max_values: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"umtali:m:{match_id}:{version}:{action}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="-")], min_values=1,
            max_values=max_values))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveSelect:
        return cls(int(match["match"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import play_text

        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        text = f"meld {' '.join(values)}" if self.action == "meld" else (values or [""])[0]
        await guarded(interaction,
                      lambda: play_text(interaction, self.match_id, text, self.version))


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"umtali:c:(?P<challenge>[0-9]+):(?P<action>accept|decline)"):
    def __init__(self, challenge_id: int, action: str) -> None:
        accept = action == "accept"
        super().__init__(discord.ui.Button(
            label="Accept" if accept else "Decline",
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
            custom_id=f"umtali:c:{challenge_id}:{action}"))
        self.challenge_id, self.action = challenge_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeButton:
        return cls(int(match["challenge"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.challenges import answer_challenge

        accept = self.action == "accept"
        await guarded(interaction,
                      lambda: answer_challenge(interaction, self.challenge_id, accept))


class ResignButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"umtali:m:(?P<match>[0-9]+):(?:(?P<version>[0-9]+):)?"
                            r"(?P<action>resign|keep)"):
    """The resign confirmation's buttons. The id carries the match's version when asked, so a
    "Yes" clicked after the match moved on has expired (and one from before versions were
    carried, with none, too)."""

    def __init__(self, match_id: int, version: int | None, action: str) -> None:
        resign = action == "resign"
        stamp = "" if version is None else f"{version}:"
        super().__init__(discord.ui.Button(
            label="Yes, resign the session" if resign else "Cancel",
            style=discord.ButtonStyle.danger if resign else discord.ButtonStyle.secondary,
            custom_id=f"umtali:m:{match_id}:{stamp}{action}"))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResignButton:
        version = match["version"]
        return cls(int(match["match"]), None if version is None else int(version),
                   match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import cancel_resign, confirm_resign

        if self.action == "keep":
            await guarded(interaction, lambda: cancel_resign(interaction))
        else:
            await guarded(interaction,
                          lambda: confirm_resign(interaction, self.match_id, self.version))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HandButton, MoveButton, MoveSelect, ChallengeButton, ResignButton, *RECORD_ITEMS,
)


def table_panel(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(match_id))
    return view


def challenge_panel(challenge_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(challenge_id, "accept"))
    view.add_item(ChallengeButton(challenge_id, "decline"))
    return view


def resign_panel(match_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(match_id, version, "resign"))
    view.add_item(ResignButton(match_id, version, "keep"))
    return view


def _option(move: Move) -> discord.SelectOption:
    return discord.SelectOption(label=move.text(symbols=True)[:100], value=str(move))


def hand_panel(view: PlayerView, match_id: int, version: int) -> discord.ui.View:
    """The actions open to the seat now, as buttons and menus (at most 5 rows)."""
    panel = discord.ui.View(timeout=None)
    if not view.my_turn:
        return panel
    legal = view.legal_moves
    kinds = {m.kind for m in legal}
    if view.phase == "draw":
        top = view.top_discard
        below = view.discard_pile[-2] if len(view.discard_pile) > 1 else None
        panel.add_item(MoveButton(match_id, version, "draw", "Draw from the stock",
                                  disabled=MoveKind.DRAW not in kinds))
        panel.add_item(MoveButton(match_id, version, "take",
                                  f"Take {top}" if top is not None else "Take",
                                  disabled=MoveKind.TAKE not in kinds))
        if MoveKind.TAKE_TWO in kinds and top is not None and below is not None:
            panel.add_item(MoveButton(match_id, version, "take2", f"Take {top} and {below}"))
        return panel
    if MoveKind.MELD in kinds:
        cards: tuple[Card, ...] = view.hand[:_MAX_OPTIONS]
        panel.add_item(MoveSelect(
            match_id, version, "meld",
            [discord.SelectOption(label=str(c), value=c.code) for c in cards],
            placeholder="Meld: choose the cards of a new meld…", max_values=len(cards)))
    extensions = [m for m in legal if m.kind is MoveKind.EXTEND][:_MAX_OPTIONS]
    if extensions:
        panel.add_item(MoveSelect(match_id, version, "extend",
                                  [_option(m) for m in extensions],
                                  placeholder="Extend a meld on the table…"))
    discards = [m for m in legal if m.kind is MoveKind.DISCARD]
    if discards:
        # Going out: face down comes first and is the default, as the rules suggest.
        discards.sort(key=lambda m: not m.face_down)
        options = [
            discord.SelectOption(
                label=f"Discard {m.card} face down" if m.face_down else f"Discard {m.card}",
                value=str(m))
            for m in discards[:_MAX_OPTIONS]
        ]
        panel.add_item(MoveSelect(match_id, version, "discard", options,
                                  placeholder="Discard to end your turn…"))
    return panel
