"""Answering a player's action: from a button, a menu or ``/umtali play``.

Bad input, a move out of turn, someone else's button, a stale panel: each gets a short
ephemeral answer and changes nothing.
"""

from __future__ import annotations

import discord

from cogs.umtali.access import service
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import MAX_ECHO, echo, safe_name, visible
from cogs.umtali.private import send_private
from umtali.errors import InvalidMoveError
from umtali.moves import Move

MOVES_HELP = ("moves are: draw, take, take 2, meld <cards>, extend <card> <card on the meld>, "
              "discard <card> [down]")


async def _ephemeral(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def _live(interaction: discord.Interaction, match_id: int) -> LiveMatch | None:
    return service(interaction.client).matches.get(match_id)


async def show_hand(interaction: discord.Interaction, match_id: int, note: str = "") -> None:
    live = _live(interaction, match_id)
    if live is None or live.over:
        await _ephemeral(interaction, "This match is over.")
        return
    seat = live.seat_of(interaction.user.id)
    if seat is None:
        await _ephemeral(interaction, "This is not your match: only its two players have hands.")
        return
    embed, panel = service(interaction.client).hand_message(live, seat, note)
    await send_private(interaction, panel, embed=embed)


async def play_text(interaction: discord.Interaction, match_id: int, text: str,
                    version: int | None = None) -> None:
    if len(visible(text)) > MAX_ECHO:
        # No move is this long, and the engine's answer would quote it all (past Discord's
        # 2,000 characters): answer with the start of it.
        await _ephemeral(interaction, f"“{echo(text)}” is not a move: {MOVES_HELP}.")
        return
    try:
        move = Move.parse(text)
    except InvalidMoveError as e:
        await _ephemeral(interaction, f"{e}.")
        return
    await play_move(interaction, match_id, move, version)


async def play_move(interaction: discord.Interaction, match_id: int, move: Move,
                    version: int | None = None) -> None:
    """Apply ``move`` for the user; answer on the panel it came from (or a new ephemeral one)."""
    live = _live(interaction, match_id)
    if live is None:
        await _ephemeral(interaction, "This match is over.")
        return
    svc = service(interaction.client)
    outcome = await svc.act(live, interaction.user.id, move, version)
    seat = live.seat_of(interaction.user.id)
    if not outcome.ok:
        if outcome.stale and seat is not None and not live.over:
            embed, panel = svc.hand_message(live, seat, outcome.error)
            await send_private(interaction, panel, embed=embed)
        else:
            await _ephemeral(interaction, outcome.error)
        return
    assert seat is not None
    # A finished match's panel is empty: hand_panel offers nothing when it is nobody's turn.
    embed, panel = svc.hand_message(live, seat)
    if version is not None and interaction.message is not None:
        # The action came from a panel: update that panel in place.
        svc.answered_on_dm(live, seat, interaction.message.id)
        await interaction.response.edit_message(embed=embed, view=panel)
    else:
        await send_private(interaction, panel, embed=embed)


async def confirm_resign(interaction: discord.Interaction, match_id: int,
                         version: int | None) -> None:
    live = _live(interaction, match_id)
    seat = None if live is None else live.seat_of(interaction.user.id)
    if live is None or live.over:
        await _ephemeral(interaction, "This match is over.")
        return
    if seat is None:
        await _ephemeral(interaction, "This is not your match.")
        return
    if version != live.version:
        # Asked about another position: whether to resign this one is a new question.
        await _ephemeral(interaction, "This confirmation has expired: the match has moved on. "
                                      "Use /umtali resign again if you still want to resign.")
        return
    # The position is checked again under the match's lock: a move may land meanwhile.
    if await service(interaction.client).resign(live, seat, version=version):
        await interaction.response.edit_message(
            content=f"You resigned: {safe_name(live.names[1 - seat])} wins the session.",
            view=None)
    elif live.over:
        await _ephemeral(interaction, "This match is over.")
    else:
        await _ephemeral(interaction, "This confirmation has expired: the match has moved on. "
                                      "Use /umtali resign again if you still want to resign.")


async def cancel_resign(interaction: discord.Interaction) -> None:
    await interaction.response.edit_message(content="Cancelled: you play on.", view=None)
