"""``/umtali-admin end-match`` asks before it ends (fix154): a suggestion picked by mistake
("#123 · Ada vs Ben" next to "#124 · Ada vs Bo") would end the wrong match for good. The
question names the match fully, privately, with **End it** and **Keep it**.

The buttons carry the match's id, not the member's: the member's match may change between the
question and the click (it ended, another started), and only the match asked about may end.
They carry the asking admin's id too: anyone can send any custom id, and only that admin's
click is taken, their Manage Server checked again (it may have been taken away since). What
the click ends, and how it is told, is the command's way before it asked
(``admin_ending.finish``): every check made again, under the same saves.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.umtali.access import tr_of
from cogs.umtali.errors import guarded
from cogs.umtali.ids import id_of
from cogs.umtali.in_time import answer, edit_clicked
from cogs.umtali.names import safe_name
from cogs.umtali.options import names_in
from data.models import MatchRow
from umtali.i18n import EN, Tr


class EndButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"umtali:end:(?P<match>[0-9]+):(?P<admin>[0-9]+):"
                         r"(?P<action>end|keep)"):
    """The question's **End it** (``end``) or **Keep it** (``keep``)."""

    def __init__(self, match_id: int, admin_id: int, action: str, tr: Tr = EN) -> None:
        end = action == "end"
        super().__init__(discord.ui.Button(
            label=tr.ctx("button", "End it") if end else tr.ctx("button", "Keep it"),
            style=discord.ButtonStyle.danger if end else discord.ButtonStyle.secondary,
            custom_id=f"umtali:end:{match_id}:{admin_id}:{action}"))
        self.match_id, self.admin_id, self.action = match_id, admin_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EndButton:
        return cls(id_of(match["match"]), id_of(match["admin"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: clicked(interaction, self.match_id, self.admin_id,
                                                   self.action == "end"))


def asked(row: MatchRow, admin_id: int, started: str,
          tr: Tr) -> tuple[str, discord.ui.View]:
    """The question about ``row`` (``started``: how long ago, in words) and its buttons."""
    a, b = (safe_name(name) for name in names_in(row.names, row.computer_seat,
                                                   row.computer_level, tr))
    text = tr("Match #{match} · {a} vs {b} · {kind} · {started}: end it with no result? "
              "Nobody wins and no rating changes.", match=row.id, a=a, b=b,
              kind=tr("rated") if row.computer_seat is None else tr("practice"),
              started=started)
    view = discord.ui.View(timeout=None)
    view.add_item(EndButton(row.id, admin_id, "end", tr))
    view.add_item(EndButton(row.id, admin_id, "keep", tr))
    return text, view


async def clicked(interaction: discord.Interaction, match_id: int, admin_id: int,
                  end: bool) -> None:
    """End it (``end``) or Keep it, clicked: by the admin who asked alone, still a manager."""
    from cogs.umtali.admin_ending import finish

    tr = tr_of(interaction)
    if interaction.user.id != admin_id:
        await answer(interaction, tr("Only the admin who asked can answer this question: "
                                     "nothing changed."))
        return
    if not end:
        # (Said of the question alone: the match may have ended meanwhile, by a move.)
        await said_on_question(interaction, tr("Match #{match} was not ended by this "
                                               "question: nothing changed.", match=match_id))
        return
    # Checked again: the question may be old, and a server can take the permission away.
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        await answer(interaction, tr("You need the Manage Server permission to end a match: "
                                     "nothing changed."))
        return
    await finish(interaction, match_id, lambda text: said_on_question(interaction, text))


async def said_on_question(interaction: discord.Interaction, text: str) -> None:
    """The question clicked replaced by ``text``, its buttons gone. An id sent on a public
    message (forged: the question is private) leaves that message alone: said privately."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        await answer(interaction, text)
    else:
        await edit_clicked(interaction, content=text, view=None)
