"""``/umtali rules`` on Discord: a page as an embed, with buttons to the page before and after
(a newcomer on a phone read six pages by typing the command six times). The pages are private;
each click shows the page in the clicker's language, in place."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.umtali.access import tr_of
from cogs.umtali.errors import guarded
from cogs.umtali.ids import carries_only, id_of
from cogs.umtali.render import COLOUR
from cogs.umtali.rules_text import PAGES, pages
from cogs.umtali.unknown import OUT_OF_DATE
from umtali.i18n import Tr


def rules_embed(tr: Tr, page: int) -> discord.Embed:
    """Page ``page`` (1 to ``len(PAGES)``) in ``tr``'s language."""
    title, text = pages(tr)[page - 1]
    embed = discord.Embed(title=tr("Umtali rules · {title}", title=title),
                          description=text, colour=COLOUR)
    # The command as the member's client names it, with a page to go to (the next, else the
    # first) where "<n>" was: a screen reader said "less than n greater than".
    command = ("/umtali " + tr.ctx("command", "rules") + " " + tr.ctx("option", "page")
               + f":{page % len(PAGES) + 1}")
    embed.set_footer(text=tr("Page {page} of {pages} · {note}", page=page,
                             pages=len(PAGES), note=command))
    return embed


def rules_view(tr: Tr, page: int) -> discord.ui.View:
    """The buttons under page ``page``: the page before and the page after, each greyed out
    where there is none."""
    view = discord.ui.View(timeout=None)
    # In words alone: a screen reader reads an arrow in a label out by name.
    view.add_item(RulesButton(page - 1, tr("Previous page"), disabled=page <= 1))
    view.add_item(RulesButton(page + 1, tr("Next page"), disabled=page >= len(PAGES)))
    return view


async def show_rules(interaction: discord.Interaction, page: int, *, turned: bool) -> None:
    """Page ``page`` for the member: a new private message (the command), or the clicked one
    edited in place (``turned``: a page button). A page out of range (a forged button, a client
    that skips Discord's range) is answered privately and changes nothing."""
    tr = tr_of(interaction)
    if not 1 <= page <= len(PAGES):
        await interaction.response.send_message(
            tr("There are {pages} pages: choose 1 to {pages}.", pages=len(PAGES)),
            ephemeral=True)
        return
    if turned and not carries_only(interaction.message, "umtali:rules:"):
        # A page button forged onto another message: that one is not turned into a page.
        await interaction.response.send_message(tr(OUT_OF_DATE), ephemeral=True)
        return
    embed, view = rules_embed(tr, page), rules_view(tr, page)
    if turned:
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"umtali:rules:(?P<page>[0-9]+)"):
    def __init__(self, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or str(page), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"umtali:rules:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RulesButton:
        return cls(id_of(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_rules(interaction, self.page, turned=True))
