"""Components: the table's button, challenge and resign buttons; a hand's panel is in
``cogs.umtali.play_panel``.

Every component is a ``DynamicItem`` whose custom id carries what it acts on
(``umtali:m:<match>:<version>:<action>``), so buttons keep working after a restart and a button
from an earlier turn is recognised as stale. Callbacks only call ``cogs.umtali.actions``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.umtali.errors import guarded
from cogs.umtali.history import ReplaySelect
from cogs.umtali.ids import id_of
from cogs.umtali.play_panel import PLAY_ITEMS
from cogs.umtali.play_panel import hand_panel as hand_panel  # where the panels are drawn
from cogs.umtali.records import BoardButton
from cogs.umtali.rules_panel import RulesButton
from umtali.i18n import EN, Tr


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"umtali:m:(?P<match>[0-9]+):hand"):
    def __init__(self, match_id: int, tr: Tr = EN) -> None:
        super().__init__(discord.ui.Button(
            label=tr("My hand"), style=discord.ButtonStyle.primary,
            custom_id=f"umtali:m:{match_id}:hand"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandButton:
        return cls(id_of(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.actions import show_hand

        await guarded(interaction, lambda: show_hand(interaction, self.match_id))


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"umtali:c:(?P<challenge>[0-9]+):"
                               r"(?:(?P<challenger>[0-9]+):(?P<opponent>[0-9]+):)?"
                               r"(?P<action>accept|decline)"):
    """A challenge's Accept (its id names the two members, so that anyone else's click is
    refused at once, with no modal; one posted before it did has none) or Decline."""

    def __init__(self, challenge_id: int, action: str, tr: Tr = EN,
                 pair: tuple[int, int] | None = None) -> None:
        accept = action == "accept"
        members = f"{pair[0]}:{pair[1]}:" if pair is not None else ""
        super().__init__(discord.ui.Button(
            label=tr.ctx("button", "Accept") if accept else tr.ctx("button", "Decline"),
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
            custom_id=f"umtali:c:{challenge_id}:{members}{action}"))
        self.challenge_id, self.action, self.pair = challenge_id, action, pair

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChallengeButton:
        pair = None if match["challenger"] is None else (
            id_of(match["challenger"]), id_of(match["opponent"]))
        return cls(id_of(match["challenge"]), match["action"], pair=pair)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.challenges import answer_challenge
        from cogs.umtali.cutting import ask_accept

        if self.action == "accept":
            # The accepting click asks for the cut (a modal); the challenge is answered when
            # it is submitted (``cutting.cut_submitted``).
            await guarded(interaction, lambda: ask_accept(interaction, self.challenge_id,
                                                          self.pair))
        else:
            await guarded(interaction,
                          lambda: answer_challenge(interaction, self.challenge_id, False))


class CutButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"umtali:cut:(?P<challenge>[0-9]+)(?::(?P<member>[0-9]+))?"
                         r"(?P<cancel>:cancel)?"):
    """A practice session's **Cut the deck** (its player's click asks for their cut, which
    starts it), or its **Cancel** (its player withdraws it, as a challenger withdraws a
    challenge). Its id names the player (one posted before it did has none)."""

    def __init__(self, challenge_id: int, tr: Tr = EN, cancel: bool = False,
                 member: int | None = None) -> None:
        whose = f":{member}" if member is not None else ""
        super().__init__(discord.ui.Button(
            label=tr.ctx("button", "Cancel") if cancel else tr.ctx("button", "Cut the deck"),
            style=discord.ButtonStyle.secondary if cancel else discord.ButtonStyle.success,
            custom_id=f"umtali:cut:{challenge_id}{whose}" + (":cancel" if cancel else "")))
        self.challenge_id, self.cancel, self.member = challenge_id, cancel, member

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CutButton:
        member = None if match["member"] is None else id_of(match["member"])
        return cls(id_of(match["challenge"]), cancel=match["cancel"] is not None,
                   member=member)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.cutting import ask_practice_cut
        from cogs.umtali.practice import cancel_practice

        if self.cancel:
            await guarded(interaction, lambda: cancel_practice(interaction, self.challenge_id))
        else:
            await guarded(interaction, lambda: ask_practice_cut(interaction, self.challenge_id,
                                                                self.member))


class ResignButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"umtali:m:(?P<match>[0-9]+):(?:(?P<version>[0-9]+):)?"
                            r"(?:(?P<promise>loss|void):)?(?P<action>resign|keep)"):
    """The resign confirmation's buttons. The id carries the match's version when asked, so a
    "Yes" clicked after the hand it was asked in ended has expired (and one from before
    versions were carried, with none, too); moves within that hand leave it standing. A "Yes"
    also carries what its question promised (``promise``): ``loss``, the opponent wins;
    ``void``, no result (the opponent had left a match with no clock). One from before it was
    carried, with none, has expired: it cannot tell which of the two it agreed to."""

    def __init__(self, match_id: int, version: int | None, action: str, tr: Tr = EN,
                 promise: str | None = None) -> None:
        resign = action == "resign"
        stamp = "" if version is None else f"{version}:"
        said = "" if promise is None or not resign else f"{promise}:"
        super().__init__(discord.ui.Button(
            label=tr("Yes, resign the session") if resign else tr.ctx("button", "Cancel"),
            style=discord.ButtonStyle.danger if resign else discord.ButtonStyle.secondary,
            custom_id=f"umtali:m:{match_id}:{stamp}{said}{action}"))
        self.match_id, self.version, self.action = match_id, version, action
        self.promise = promise

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResignButton:
        version = match["version"]
        return cls(id_of(match["match"]), None if version is None else id_of(version),
                   match["action"], promise=match["promise"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.resigning import cancel_resign, confirm_resign

        if self.action == "keep":
            await guarded(interaction, lambda: cancel_resign(interaction, self.match_id))
        else:
            await guarded(interaction, lambda: confirm_resign(
                interaction, self.match_id, self.version, self.promise))


class TimeoutButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"umtali:m:(?P<match>[0-9]+):(?P<version>[0-9]+):"
                             r"(?P<action>claim|wait)"):
    """A correspondence turn's time is up: the waiting player claims the session or keeps
    waiting. The id carries the turn's version: once the absent player moves, both expire."""

    def __init__(self, match_id: int, version: int, action: str, tr: Tr = EN) -> None:
        claim = action == "claim"
        super().__init__(discord.ui.Button(
            label=tr("Claim the win") if claim else tr("Keep waiting"),
            style=discord.ButtonStyle.danger if claim else discord.ButtonStyle.secondary,
            custom_id=f"umtali:m:{match_id}:{version}:{action}"))
        self.match_id, self.version, self.action = match_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TimeoutButton:
        return cls(id_of(match["match"]), id_of(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.time_up_answer import answer_timeout

        await guarded(interaction, lambda: answer_timeout(
            interaction, self.match_id, self.version, self.action == "claim"))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HandButton, *PLAY_ITEMS, ChallengeButton, CutButton, ResignButton, TimeoutButton, BoardButton,
    ReplaySelect, RulesButton,
)


def table_panel(match_id: int, tr: Tr = EN) -> discord.ui.View:
    """The table's button, in the server's language (the table is public)."""
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(match_id, tr))
    return view


def challenge_panel(challenge_id: int, tr: Tr = EN,
                    pair: tuple[int, int] | None = None) -> discord.ui.View:
    """A challenge's buttons, in the server's language (the challenge is public); ``pair``,
    its challenger and opponent, named on Accept."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(challenge_id, "accept", tr, pair))
    view.add_item(ChallengeButton(challenge_id, "decline", tr))
    return view


def cut_panel(challenge_id: int, tr: Tr = EN, member: int | None = None) -> discord.ui.View:
    """A practice session's buttons, in the server's language (everyone sees them; only its
    player's click, ``member``'s, cuts or cancels)."""
    view = discord.ui.View(timeout=None)
    view.add_item(CutButton(challenge_id, tr, member=member))
    view.add_item(CutButton(challenge_id, tr, cancel=True, member=member))
    return view


def resign_panel(match_id: int, version: int, tr: Tr = EN, *,
                 void: bool = False) -> discord.ui.View:
    """The resign confirmation's buttons, in the member's language (it is their answer);
    ``void``: its "Yes" ends the match with no result, as asked (``resign_question``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(match_id, version, "resign", tr, "void" if void else "loss"))
    view.add_item(ResignButton(match_id, version, "keep", tr))
    return view


def timeout_panel(match_id: int, version: int, tr: Tr = EN) -> discord.ui.View:
    """Claim the win or keep waiting, in the server's language (the question is public)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TimeoutButton(match_id, version, "claim", tr))
    view.add_item(TimeoutButton(match_id, version, "wait", tr))
    return view
