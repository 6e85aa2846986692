"""Challenges: posted with Accept and Decline buttons that only the challenged member may use;
they expire after ten minutes and say so."""

from __future__ import annotations

import datetime as dt
import logging

import discord

from cogs.umtali.access import service
from cogs.umtali.names import label_name, safe_name
from cogs.umtali.permissions import CANCELLED, can_make_thread, missing_here, refusal
from cogs.umtali.render import COLOUR
from data.models import Challenge
from data.store import AlreadyPlaying, Refused, StaleState
from umtali.cards import CARDS
from umtali.rules import RuleSet
from umtali.session import Shuffler, draw_for_dealer

log = logging.getLogger(__name__)

CHALLENGE_TTL = 600.0


def challenge_refusal(e: Refused, opponent: str) -> str:
    """Why a limit against spam refused a challenge, in a sentence."""
    if e.reason == "pair":
        return (f"There is already an open challenge between you and {opponent}: answer it, "
                "or wait until it expires.")
    if e.reason == "open":
        return ("You have too many open challenges: wait until one is answered or expires "
                "before you send another.")
    return f"Slow down: you can send another challenge in {max(1, round(e.retry_after))} s."


def challenge_embed(ch: Challenge, status: str = "") -> discord.Embed:
    timer = f"{ch.turn_timer // 60} min" if ch.turn_timer >= 60 else (
        f"{ch.turn_timer} s" if ch.turn_timer else "off")
    rules = ch.variant + (", optional melding" if ch.optional_melding else "")
    text = (f"<@{ch.challenger_id}> challenges <@{ch.opponent_id}> to a session of Umtali "
            f"(best of three games of four hands).\nRules: {rules} · turn timer: {timer}.")
    if status:
        text += f"\n**{status}**"
    else:
        expires = discord.utils.format_dt(dt.datetime.fromtimestamp(ch.expires_at, dt.UTC), "R")
        text += f"\nThe challenge expires {expires}."
    return discord.Embed(title="Umtali challenge", description=text, colour=COLOUR)


async def answer_challenge(interaction: discord.Interaction, challenge_id: int,
                           accept: bool) -> None:
    svc = service(interaction.client)
    ch = await svc.store.challenge(challenge_id)
    if ch is None or ch.status != "open":
        await interaction.response.send_message("This challenge is no longer open.",
                                                ephemeral=True)
        return
    if interaction.user.id != ch.opponent_id:
        who = "You can't answer your own challenge" if interaction.user.id == ch.challenger_id \
            else "Only the challenged member can answer this challenge"
        await interaction.response.send_message(f"{who}.", ephemeral=True)
        return
    if svc.clock() >= ch.expires_at:
        await expire(interaction.client, ch)
        await interaction.response.send_message("This challenge has expired.", ephemeral=True)
        return
    if not accept:
        if await svc.store.close_challenge(ch.id, "declined"):
            await interaction.response.edit_message(
                embed=challenge_embed(ch, f"{safe_name(ch.opponent_name)} declined."),
                view=None)
        else:
            await interaction.response.send_message("This challenge is no longer open.",
                                                    ephemeral=True)
        return
    if missing := missing_here(interaction):
        await interaction.response.send_message(refusal(missing), ephemeral=True)
        return
    rules = RuleSet.named(ch.variant, optional_melding=ch.optional_melding)
    seed = svc.new_seed()
    try:
        # The claim: the challenge is accepted and the match made in one transaction, which
        # only one click can win. Nothing is shown before it is won.
        live = await svc.start(
            guild_id=ch.guild_id, channel_id=ch.channel_id,
            players=((ch.challenger_id, ch.challenger_name), (ch.opponent_id, ch.opponent_name)),
            rules=rules, turn_timer=ch.turn_timer, challenge_id=ch.id, seed=seed,
        )
    except AlreadyPlaying as e:
        who = "You are" if e.user_id == interaction.user.id else f"<@{e.user_id}> is"
        await interaction.response.send_message(
            f"{who} already playing a match on this server: finish it first. This challenge "
            "stays open until it expires.", ephemeral=True)
        return
    except StaleState:
        await interaction.response.send_message("This challenge is no longer open.",
                                                ephemeral=True)
        return
    # The draw for first dealer is shown before any card reaches a player, as at a real table
    # (it comes from a deck of its own: it tells nothing of the deal).
    draws, dealer = draw_for_dealer(Shuffler(seed), rules)
    names = (safe_name(ch.challenger_name), safe_name(ch.opponent_name))
    drawn = "; ".join(f"{names[0]} {CARDS[a]}, {names[1]} {CARDS[b]}" for a, b in draws)
    await interaction.response.edit_message(
        embed=challenge_embed(
            ch, f"{names[1]} accepted. Draw for first dealer: {drawn}. "
                f"{names[dealer]} deals first."),
        view=None)
    settings = await svc.store.guild_settings(ch.guild_id)
    if settings.threads and can_make_thread(interaction) and interaction.message is not None:
        try:
            thread = await interaction.message.create_thread(
                name=f"Umtali: {label_name(ch.challenger_name)} vs "
                     f"{label_name(ch.opponent_name)}"[:100])
        except discord.HTTPException:
            log.info("match %d: no thread (missing permission?); playing in the channel",
                     live.id)
        else:
            live.channel_id = thread.id
            await svc.store.set_match_channel(live.id, thread.id)
    if not await svc.open_table(live):
        await interaction.edit_original_response(
            embed=challenge_embed(ch, CANCELLED), view=None)


async def expire(client: discord.Client, ch: Challenge) -> None:
    svc = service(client)
    if not await svc.store.close_challenge(ch.id, "expired"):
        return
    if ch.message_id is None:
        return
    channel = client.get_partial_messageable(ch.channel_id)
    try:
        await channel.get_partial_message(ch.message_id).edit(
            embed=challenge_embed(ch, "This challenge expired: nobody answered in time."),
            view=None)
    except discord.HTTPException:
        log.info("challenge %d expired; its message could not be edited", ch.id)


async def expire_challenges(client: discord.Client, now: float | None = None) -> None:
    svc = service(client)
    for ch in await svc.store.due_challenges(svc.clock() if now is None else now):
        await expire(client, ch)
