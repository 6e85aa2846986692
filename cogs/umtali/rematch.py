"""Rematch, in one click from the session's final card.

Either player may ask; the other accepts with the challenge's own buttons, so a rematch is a
challenge like any other (limits, expiry, one click wins the race), with the same rules and
time control; the player asked takes seat 0 and draws first for dealer, whoever had that seat
before (``Challenge.seated``). A practice session is offered again at once, at the same level,
for its player to cut.
"""

from __future__ import annotations

import json
import re
from typing import Any

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.challenges import offer_challenge
from cogs.umtali.errors import guarded
from cogs.umtali.ids import id_of
from cogs.umtali.in_time import answer, in_time
from cogs.umtali.names import plain_global_name, plain_member_name, safe_name, seat_names
from cogs.umtali.permissions import member_standing, no_posting
from cogs.umtali.practice import start_practice
from umtali.i18n import EN, Tr
from umtali.rules import RuleSet


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"umtali:rm:(?P<match>[0-9]+)"):
    def __init__(self, match_id: int, tr: Tr = EN) -> None:
        super().__init__(discord.ui.Button(
            label=tr("Rematch"), style=discord.ButtonStyle.primary,
            custom_id=f"umtali:rm:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        return cls(id_of(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: rematch(interaction, self.match_id))


async def rematch(interaction: discord.Interaction, match_id: int) -> None:
    svc = service(interaction.client)
    tr = tr_of(interaction)
    # A busy database (a write of this process waiting on another's lock) may hold this read
    # for seconds: past two the click is deferred as an update of the final card, which it
    # leaves as it is (``in_time``); the offer or challenge is then a message of its own in
    # the channel, and a refusal a private follow-up (``answer``).
    old = await in_time(interaction, svc.store.match(match_id))
    me = interaction.user
    # Only a session played to a result: one cancelled or abandoned (no winner) was never
    # offered a rematch, and "a rematch of session #N" would name a session never played.
    if old is None or old.status != "finished" or old.winner_seat is None or \
            interaction.guild_id != old.guild_id:
        await answer(interaction, tr("That session cannot be played again here."))
        return
    seat = old.player_ids.index(me.id) if me.id in old.player_ids else None
    if seat is None or seat == old.computer_seat:
        await answer(interaction,
                     tr("Only the two players of a session can ask for a rematch."))
        return
    if not interaction.permissions.use_application_commands:
        # A rematch is a challenge (or a practice session) by a button: where the server
        # denies the member its commands, it does not start one either.
        await answer(interaction, tr(
            "You can't use my commands here, so you can't ask for a rematch here either."))
        return
    if refused := no_posting(interaction):
        # The session's channel made read-only (its thread locked) since: nothing public.
        await answer(interaction, refused)
        return
    rules = RuleSet.from_json(json.loads(old.state)["rules"])
    if old.computer_level is not None:
        await start_practice(interaction, level=old.computer_level, rules=rules,
                             turn_timer=old.turn_timer, time_control=old.time_control)
        return
    other = 1 - seat
    # Stored names are plain: the refusals are Discord text, so escaped as everywhere.
    named = seat_names(old.names, tr)  # (one that shows nothing by its seat)
    shown = (safe_name(named[seat]), safe_name(named[other]))
    # Discord may be slow to answer: the two seconds count from the first read (``in_time``).
    gone, them = await in_time(interaction, member_standing(interaction, old.player_ids[other]))
    # The challenge could only expire: refused as ``/umtali challenge`` refuses it.
    if gone == "left":
        await answer(interaction, tr("{name} is not a member of this server.", name=shown[1]))
        return
    if gone == "hidden":
        await answer(interaction, tr("{name} can't see this channel: challenge them in a "
                                     "channel you both can see.", name=shown[1]))
        return
    # Each under the name they have now, as ``/umtali challenge`` names them: the session is
    # recorded under it (one renamed since the last would be recorded under the old name).
    names = (plain_member_name(me) if isinstance(me, discord.Member) else old.names[seat],
             old.names[other] if them is None else plain_member_name(them))
    # And their names everywhere, for the records of all servers (one unknown, of a match
    # from before they were kept: '', the name here stands in).
    global_names = (plain_global_name(me),
                    old.global_names[other] if them is None else plain_global_name(them))
    await offer_challenge(
        interaction, challenger=(me.id, names[0]),
        opponent=(old.player_ids[other], names[1]),
        shown=(safe_name(names[0]), safe_name(names[1])),
        variant=rules.name, optional_melding=rules.optional_melding,
        turn_timer=old.turn_timer, time_control=old.time_control, rematch_of=old.id,
        global_names=global_names)

