"""Practice sessions against the computer: ``/umtali practice`` or a challenge to the bot."""

from __future__ import annotations

import contextlib
import logging
import time

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.challenges import cancelled, dealer_drawn, thread_name
from cogs.umtali.fair import sealed_line
from cogs.umtali.in_time import in_time
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.names import plain_member_name, safe_name
from cogs.umtali.options import level_word, rules_words
from cogs.umtali.permissions import can_make_thread, missing_here, refusal
from cogs.umtali.render import COLOUR
from cogs.umtali.threads import into_thread
from data.store import AlreadyPlaying, Refused
from umtali.cards import CARDS
from umtali.i18n import Tr
from umtali.rules import RuleSet
from umtali.session import Shuffler, draw_for_dealer

log = logging.getLogger(__name__)


def computer_name(level: str, tr: Tr) -> str:
    """The computer's name in a session: in the server's language, kept with the results as a
    member's name is."""
    return tr("Computer ({level})", level=level_word(tr, level))


def practice_embed(member_id: int, level: str, rules: RuleSet, tr: Tr) -> discord.Embed:
    """The session announced in the channel (the draw for first dealer follows)."""
    text = tr("<@{member}> plays a session against the computer, level **{level}** ({rules} "
              "rules). Results are kept, apart from the ratings.", member=member_id,
              level=level_word(tr, level),
              rules=rules_words(tr, rules.name, rules.optional_melding))
    return discord.Embed(title=tr("Umtali practice"), description=text, colour=COLOUR)


async def start_practice(interaction: discord.Interaction, *, level: str, rules: RuleSet,
                         turn_timer: int, time_control: str) -> None:
    """Start a session against the computer in this channel (a thread when allowed), with the
    clock chosen as a challenge's is (``options.chosen_control``): a preset, or (``''``) a
    plain ``turn_timer``."""
    assert interaction.guild is not None and interaction.channel is not None
    # Discord's 3 seconds count from here (``in_time``'s clock).
    interaction.extras.setdefault("in_time", time.monotonic())
    svc = service(interaction.client)
    tr = tr_of(interaction)
    me = interaction.user
    # The database may be busy for seconds (a long write elsewhere): if so, the answer is
    # promised in time, and comes as an edit of it.
    if await in_time(interaction, svc.store.active_match_of(interaction.guild.id, me.id),
                     public=True) is not None:
        await _refuse(interaction, tr("You are already playing a match on this server."))
        return
    if missing := missing_here(interaction):
        await _refuse(interaction, refusal(missing, tr))
        return
    bot_user = interaction.client.user
    assert bot_user is not None
    # The session is shown in the channel: in the server's language, the computer's name too
    # (it is kept with the results under that name, as a member's is).
    public = svc.prefs.guild_tr(interaction.guild.id)
    computer = computer_name(level, public)
    names = (plain_member_name(me), computer)
    seed = svc.new_seed()
    try:
        # Saved before anything is shown: a double click starts one session, not two.
        live = await in_time(interaction, svc.start(
            guild_id=interaction.guild.id, channel_id=interaction.channel.id,
            players=((me.id, names[0]), (bot_user.id, computer)), rules=rules,
            turn_timer=turn_timer, time_control=time_control, seed=seed, computer=(1, level),
        ), public=True)
    except AlreadyPlaying:
        await _refuse(interaction, tr("You are already playing a match on this server."))
        return
    except Refused as e:
        await _refuse(interaction, tr(
            "Slow down: you can start another practice session in {seconds} s.",
            seconds=max(1, round(e.retry_after))))
        return
    draws, dealer = draw_for_dealer(Shuffler(seed), rules)
    shown = (safe_name(names[0]), computer)
    drawn = "; ".join(f"{shown[0]} {CARDS[a]}, {shown[1]} {CARDS[b]}" for a, b in draws)
    embed = practice_embed(me.id, level, rules, public)
    embed.description = (f"{embed.description}\n{dealer_drawn(drawn, shown[dealer], public)}"
                         f"\n{sealed_line(live.commitment, public)}")
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=embed, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)
    settings = await svc.store.guild_settings(interaction.guild.id)
    if settings.threads and can_make_thread(interaction):
        try:
            message = await interaction.original_response()
        except discord.HTTPException as e:
            log.info("practice %d: no thread (%s); playing in the channel", live.id, e)
        else:
            await into_thread(svc, live, message, thread_name(names[0], computer, public))
    if not await svc.open_table(live):
        embed.description = cancelled(public)
        await interaction.edit_original_response(embed=embed)


async def _refuse(interaction: discord.Interaction, text: str) -> None:
    """A refusal, to the member alone: deferred in public, the "thinking" message goes."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()
    await interaction.followup.send(text, ephemeral=True)
