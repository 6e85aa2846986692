"""What a live match looks like: the public table and each player's private panels."""

from __future__ import annotations

import discord

from cogs.umtali.live import LiveMatch
from cogs.umtali.names import safe_name
from cogs.umtali.panels import hand_panel
from cogs.umtali.render import hand_embed, table_embed
from umtali.view import SPECTATOR

ABANDONED = ("This match was abandoned: I could no longer reach {who}. Nobody wins it and no "
             "rating changed; you are free to start another.")


def table_of(live: LiveMatch, note: str = "") -> discord.Embed:
    return table_embed(live.session.view(SPECTATOR), live.names, live.id,
                       deadline=live.deadline, note=note)


def hand_of(live: LiveMatch, seat: int, note: str = "") -> tuple[
        discord.Embed, discord.ui.View]:
    view = live.session.view(seat)
    if live.abandoned:
        who = " and ".join(safe_name(live.names[s]) for s in (0, 1) if not live.reachable(s))
        note = ABANDONED.format(who=who or "this match's channel")
        return hand_embed(view, live.names, live.id, note), discord.ui.View(timeout=None)
    return (hand_embed(view, live.names, live.id, note),
            hand_panel(view, live.id, live.version))


def dm_panel_of(live: LiveMatch, seat: int, note: str = "") -> tuple[
        list[discord.Embed], discord.ui.View]:
    """The DM panel: the hand, and while the channel is lost the table with the last turn
    too (it is public; the hand is this player's own)."""
    embed, view = hand_of(live, seat, note)
    if not live.channel_lost:
        return [embed], view
    return [table_of(live, live.last_turn[-1000:]), embed], view
