"""``/umtali display``: how a member's own panels look, the same on every server.

Pictures can be switched off (the text is always there, for a screen reader or a slow phone),
and the hand drawn with a four-colour deck (diamonds blue, clubs green). The public table
keeps the usual two colours: everyone at the table sees the same picture.
"""

from __future__ import annotations

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.hand_panels import refresh_dm, refresh_pane
from cogs.umtali.in_time import answer, in_time
from cogs.umtali.live import LiveMatch
from umtali.i18n import EN, Tr


def describe(pictures: bool, four_colour: bool, tr: Tr = EN) -> str:
    if not pictures:
        return tr("Your panels show your hand as text alone, without pictures.")
    if four_colour:
        return tr("Your panels show your hand as a picture, in a four-colour deck (♦ blue, "
                  "♣ green), with the text beside it.")
    return tr("Your panels show your hand as a picture, in the usual two colours, with the "
              "text beside it.")


async def set_display(interaction: discord.Interaction, pictures: bool | None,
                      four_colour: bool | None) -> None:
    svc = service(interaction.client)
    me = interaction.user.id
    now = svc.prefs.of(me)
    playing: list[tuple[LiveMatch, int]] = []
    if pictures is not None or four_colour is not None:
        # Saved even when this process holds it already: it may not have read yet a change
        # made through another process. A write elsewhere may hold the database for seconds:
        # answered in time all the same.
        now = await in_time(interaction, svc.prefs.set_look(me, pictures=pictures,
                                                            four_colour=four_colour))
        # The hand on show changes at once, not at the next turn (wherever the match is held;
        # even with no change seen here: it may have been drawn through the other process).
        for match_id in await in_time(interaction, svc.owners.leases.of_member(me)):
            live = await svc.lookup(match_id)
            seat = None if live is None else live.seat_of(me)
            if live is not None and seat is not None and not live.over:
                refresh_dm(live, seat, interaction.client, force=True)
                playing.append((live, seat))
    tr = tr_of(interaction)
    said = describe(now.pictures, now.four_colour, tr)
    if now.pictures and (not svc.pictures or interaction.guild_id in svc.prefs.plain_guilds):
        # The member's choice stands, but here it is not what they will see.
        said += " " + tr("Matches on this server are shown as text alone, whatever you choose.")
    await answer(interaction, said)
    # The open "My hand" panel too (its edits go by the interaction's token, after the answer).
    for live, seat in playing:
        await refresh_pane(interaction.client, live, seat)
