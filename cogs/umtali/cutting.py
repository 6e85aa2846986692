"""The cut a player types: **Accept** on a challenge and **Cut the deck** on a practice session
open a modal asking for it; its submit is the cut, and starts the match.

A typed cut is the player's own: nothing of the bot's is mixed into it (an id the player cannot
see would give a bot changed to cheat its choice again), so once the seed is committed nobody,
the bot included, can steer the deal, unless they guess the text. Left empty, the cut is the
submit's id, as Discord made it: the bot's word (docs/FAIR_DEALS.md).

The modal must be the first answer to the click, so only what needs no database is checked
before it (whose button it is, from its custom id); the rest is checked on the submit, answered
privately. The modal is not kept in memory (``discord.py`` forgets its modals on a restart):
every submit is handled by its custom id, ``umtali:cutmodal:<kind>:<challenge>``, here.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.umtali.access import tr_of
from cogs.umtali.errors import guarded
from cogs.umtali.ids import id_of
from cogs.umtali.in_time import answer
from umtali.seeds import CLICK_DIGITS, MAX_TYPED, typed_cut

#: The modal's custom id, ``umtali:cutmodal:<kind>:<challenge>``: a challenge's accept or a
#: practice session's cut, and its id.
SUBMIT = "umtali:cutmodal:"
#: The text input's custom id.
FIELD = "cut"


def cut_modal(kind: str, challenge_id: int, interaction: discord.Interaction) -> discord.ui.Modal:
    """The modal asking for the cut, in the clicker's language (only they see it)."""
    tr = tr_of(interaction)
    modal = discord.ui.Modal(title=tr("Cut the deck"), timeout=None,
                             custom_id=f"umtali:cutmodal:{kind}:{challenge_id}")
    modal.add_item(discord.ui.TextInput(
        label=tr("Your cut (optional)"), custom_id=FIELD, required=False,
        max_length=MAX_TYPED, style=discord.TextStyle.short,
        placeholder=tr("Type anything: a few random letters and digits")))
    # Stopped, so that discord.py does not keep it: its submit is handled by its custom id
    # (``cut_submitted``), the same before and after a restart.
    modal.stop()
    return modal


async def ask_accept(interaction: discord.Interaction, challenge_id: int,
                     pair: tuple[int, int] | None) -> None:
    """A click on a challenge's **Accept**: the modal for the cut, or, for anyone but the
    challenged member (the button's id names both), a private refusal and no modal."""
    tr = tr_of(interaction)
    if pair is not None and interaction.user.id != pair[1]:
        await answer(interaction, tr("You can't answer your own challenge.")
                     if interaction.user.id == pair[0]
                     else tr("Only the challenged member can answer this challenge."))
        return
    await interaction.response.send_modal(cut_modal("accept", challenge_id, interaction))


async def ask_practice_cut(interaction: discord.Interaction, challenge_id: int,
                           member: int | None) -> None:
    """A click on a practice session's **Cut the deck**: the modal for the cut, or, for anyone
    but its player (the button's id names them), a private refusal and no modal."""
    tr = tr_of(interaction)
    if member is not None and interaction.user.id != member:
        await answer(interaction, tr("Only <@{member}> can cut this deck: it is their practice "
                                     "session.", member=member))
        return
    await interaction.response.send_modal(cut_modal("practice", challenge_id, interaction))


def submitted_text(data: Any) -> str:
    """The text input's value in a modal submit's data (in an action row, or a label)."""
    rows = data.get("components") if isinstance(data, dict) else None
    for row in rows or []:
        children = row.get("components") or [row.get("component") or {}]
        for child in children:
            if isinstance(child, dict) and child.get("custom_id") == FIELD:
                value = child.get("value")
                return value if isinstance(value, str) else ""
    return ""


async def cut_submitted(interaction: discord.Interaction) -> None:
    """Every interaction: a submit of the cut's modal is the cut (``on_interaction``)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not custom_id.startswith(SUBMIT):
        return
    # The id is the client's word: one naming no challenge (digits past SQLite's integers, or
    # none) reads as 0, answered "no longer open" as a forged click is, not left unanswered.
    kind, _, digits = custom_id.removeprefix(SUBMIT).partition(":")
    challenge_id = id_of(digits) if kind in ("accept", "practice") else 0
    await guarded(interaction, lambda: _cut(interaction, kind, challenge_id,
                                            submitted_text(data)))


async def _cut(interaction: discord.Interaction, kind: str, challenge_id: int,
               text: str) -> None:
    from cogs.umtali.challenges import answer_challenge
    from cogs.umtali.practice import cut_deck

    typed = typed_cut(text)
    if typed is None:
        tr = tr_of(interaction)
        await answer(interaction, tr(
            "That cut cannot be used: type at most {count} visible characters (letters, "
            "digits, signs, spaces between them; a number, of fewer than {digits} digits), "
            "with no line breaks or invisible marks; or leave it empty. Nothing was started: "
            "click the button again.", count=MAX_TYPED, digits=CLICK_DIGITS))
        return
    if kind == "practice":
        await cut_deck(interaction, challenge_id, typed)
    else:
        await answer_challenge(interaction, challenge_id, True, typed)
