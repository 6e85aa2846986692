"""Challenges: posted with Accept and Decline buttons for the challenged member (the challenger
may withdraw theirs with Decline); they expire after ten minutes and say so. Each step that
waits on the database is answered within Discord's 3 seconds (``in_time``). The match an
accept makes is opened by ``match_start``; what a challenge says is ``challenge_text``'s, its
message ``challenge_posts``', its expiry ``challenge_expiry``'s."""

from __future__ import annotations

from collections.abc import Awaitable

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.challenge_expiry import expire
from cogs.umtali.challenge_posts import (
    close_unposted,
    drop_lost,
    drop_lost_of,
    note_posted,
    on_its_message,
)
from cogs.umtali.challenge_text import (
    accepted,
    challenge_buttons,
    challenge_embed,
    challenge_refusal,
    declined,
    withdrawn,
)
from cogs.umtali.fair import cut_line, sealed_above_line, sealed_line
from cogs.umtali.in_time import answer, edit_clicked_even_late, in_time, post_public
from cogs.umtali.match_start import drawn_cards, open_started
from cogs.umtali.mentions import only
from cogs.umtali.names import challenge_names, record_name, safe_name, seat_names, unnamed
from cogs.umtali.permissions import missing_here, not_in_thread, refusal, standing
from cogs.umtali.stops import offer_stop, say_withdrawn
from cogs.umtali.unheard import challenge_made, settled
from data.models import Challenge
from data.store import AlreadyPlaying, Refused, StaleState
from umtali.rules import RuleSet

CHALLENGE_TTL = 600.0


async def offer_challenge(
    interaction: discord.Interaction, *, challenger: tuple[int, str],
    opponent: tuple[int, str], shown: tuple[str, str], variant: str, optional_melding: bool,
    turn_timer: int, time_control: str, global_names: tuple[str, str],
    rematch_of: int | None = None,
) -> None:
    """Post a new challenge from ``challenger`` (the member who clicked or typed) to
    ``opponent``, or answer privately why not: one of the two is already playing here, the
    channel lacks a permission, or a limit against spam says no. ``shown`` are the two names
    as the refusals write them; ``global_names`` the two Discord-wide display names, recorded
    with the session for the records of all servers."""
    assert interaction.guild_id is not None and interaction.channel_id is not None
    svc = service(interaction.client)
    tr = tr_of(interaction)
    # A name that shows nothing as the records word it ("Player …4821"): no seat is taken yet.
    named = [safe_name(record_name(who[1], who[0], tr)) if unnamed(who[1]) else name
             for who, name in zip((challenger, opponent), shown, strict=True)]
    shown = (named[0], named[1])
    for user_id, name in zip((challenger[0], opponent[0]), shown, strict=True):
        # A busy database defers the interaction (``in_time``): never failed by Discord.
        if await in_time(interaction, svc.store.active_match_of(interaction.guild_id,
                                                                user_id)) is not None:
            await answer(interaction, tr("You are already playing a match on this server.")
                         if user_id == challenger[0]
                         else tr("{name} is already playing a match on this server.",
                                 name=name))
            return
    if missing := missing_here(interaction):
        await answer(interaction, refusal(missing, tr))
        return
    if closed := await in_time(interaction, not_in_thread(interaction)):
        await answer(interaction, closed)
        return

    # The session's seed, drawn and committed to before anyone can answer: the accepting
    # click then cuts the deck (``answer_challenge``).
    sealed = svc.new_seal()

    def create() -> Awaitable[Challenge]:
        guild_id, now = interaction.guild_id, svc.clock()
        assert guild_id is not None and interaction.channel_id is not None
        return in_time(interaction, settled("a challenge", svc.store.create_challenge(
            guild_id=guild_id, channel_id=interaction.channel_id,
            challenger=challenger, opponent=opponent, variant=variant,
            optional_melding=optional_melding, turn_timer=turn_timer, ttl=CHALLENGE_TTL,
            now=now, time_control=time_control, rematch_of=rematch_of,
            sealed=sealed, global_names=global_names), lambda: challenge_made(svc.store, guild_id, (
                challenger[0], opponent[0]), now, sealed[0])))

    try:
        try:
            ch = await create()
        except Refused as e:
            # The pair's open challenge, or the challenger's open ones, may be ones nobody can
            # answer any more (their message, thread or channel deleted): they are closed,
            # and this one made in their place.
            guild_id = interaction.guild_id
            assert guild_id is not None
            if e.reason == "pair":
                lost = drop_lost(interaction.client, guild_id, challenger[0], opponent[0])
            elif e.reason == "open":
                lost = drop_lost_of(interaction.client, guild_id, challenger[0])
            else:
                raise
            if not await in_time(interaction, lost):
                raise
            ch = await create()
    except Refused as e:
        await answer(interaction, challenge_refusal(e, shown[1], tr))
        return
    # The challenge is posted for the channel: in the server's language.
    public = svc.prefs.guild_tr(interaction.guild_id)
    try:
        message = await post_public(interaction, content=f"<@{opponent[0]}>",
                                    embed=challenge_embed(ch, public),
                                    view=challenge_buttons(ch, public),
                                    allowed_mentions=only(opponent[0]))
    except Exception as e:
        await close_unposted(interaction, ch, e)
        raise
    await note_posted(interaction.client, ch, message.id)


async def answer_challenge(interaction: discord.Interaction, challenge_id: int,
                           accept: bool, typed: str = "") -> None:
    """Decline (or withdraw) a challenge on a click; accept it on the submit of the cut's
    modal, whose ``typed`` text (``umtali.seeds.typed_cut``) is the cut, or, with none, the
    submit's id."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    # Each read and write may wait on a busy database: past two seconds the click is
    # deferred (``in_time``), so that Discord never fails it after the match was made.
    ch = await in_time(interaction, svc.store.challenge(challenge_id))
    # A practice session waiting for its cut is no challenge to answer (``practice.cut_deck``).
    if ch is None or ch.status != "open" or ch.computer_level is not None or \
            not on_its_message(interaction, ch):
        await answer(interaction, tr("This challenge is no longer open."))
        if ch is not None and ch.unsaid:
            # Withdrawn by a stop, its message not saying so yet (its edit failed for now):
            # said now, its buttons gone (its own message's edit, whatever was clicked; the
            # clicked message itself if its id was never saved, and the click is on it).
            clicked = interaction.message.id if interaction.message is not None and \
                interaction.type == discord.InteractionType.component and \
                interaction.channel_id == ch.channel_id else None
            await say_withdrawn(interaction.client, ch, clicked)
        return
    # The challenger may withdraw their challenge with Decline (a challenge sent by mistake
    # would otherwise hold the pair, and one of their few open challenges, until it expires).
    withdraw = interaction.user.id == ch.challenger_id and not accept
    if interaction.user.id != ch.opponent_id and not withdraw:
        await answer(interaction, tr("You can't answer your own challenge.")
                     if interaction.user.id == ch.challenger_id
                     else tr("Only the challenged member can answer this challenge."))
        return
    if svc.clock() >= ch.expires_at:
        await in_time(interaction, expire(interaction.client, ch))
        await answer(interaction, tr("This challenge has expired."))
        return
    # What the channel reads, the challenge's message above all, is in the server's language.
    public = svc.prefs.guild_tr(ch.guild_id)
    if not accept:
        # Closed only if still open: of an accept and a withdrawal racing, one wins.
        if await in_time(interaction, svc.store.close_challenge(
                ch.id, "cancelled" if withdraw else "declined", now=svc.clock())):
            said = withdrawn(ch, public) if withdraw else declined(ch, public)
            answered = await edit_clicked_even_late(
                interaction, embed=challenge_embed(ch, public, said), view=None)
            if not withdraw and answered:
                # Privately, to the member who said no: a way to hear no more from them (not
                # to a click expired: nobody can be answered privately any more).
                await offer_stop(interaction, ch, tr)
        else:
            await answer(interaction, tr("This challenge is no longer open."))
        return
    if missing := missing_here(interaction):
        await answer(interaction, refusal(missing, tr))
        return
    # A challenger who has left the server (or lost the channel) since would never see the
    # table: with no clock the match would hold the accepting member until they resign.
    if gone := await in_time(interaction, standing(interaction, ch.challenger_id)):
        name = safe_name(challenge_names(ch, tr)[0])
        await answer(interaction, tr(
            "{name} is no longer a member of this server: this challenge can't be accepted.",
            name=name) if gone == "left" else tr(
            "{name} can no longer see this channel: this challenge can't be accepted here.",
            name=name))
        return
    rules = RuleSet.named(ch.variant, optional_melding=ch.optional_melding)
    # This submit cuts the deck sealed on the challenge (one made before seeds were sealed at
    # the offer has none: its seed is drawn now, as it was then).
    sealed, cut = ((ch.seed, ch.salt), typed or svc.cut_of(interaction)) if ch.seed \
        else (None, "")
    try:
        # The claim: the challenge is accepted and the match made in one transaction, which
        # only one click can win, and the winning click's cut is saved with the match.
        # Nothing is shown before it is won.
        live = await in_time(interaction, svc.start(
            guild_id=ch.guild_id, channel_id=ch.channel_id,
            players=ch.seated, global_names=ch.global_names,
            rules=rules, turn_timer=ch.turn_timer, challenge_id=ch.id, sealed=sealed,
            cut=cut, time_control=ch.time_control,
        ))
    except AlreadyPlaying as e:
        await answer(
            interaction,
            tr("You are already playing a match on this server: finish it first. This "
               "challenge stays open until it expires.") if e.user_id == interaction.user.id
            else tr("<@{member}> is already playing a match on this server: accept again once "
                    "that match is over. This challenge stays open until it expires.",
                    member=e.user_id))
        return
    except StaleState:
        await answer(interaction, tr("This challenge is no longer open."))
        return
    # The draw for first dealer is shown before any card reaches a player, as at a real table
    # (it comes from a deck of its own: it tells nothing of the deal).
    seated = seat_names((ch.seated[0][1], ch.seated[1][1]), public)
    names = (safe_name(seated[0]), safe_name(seated[1]))
    opponent = safe_name(challenge_names(ch, public)[1])
    # An offer sealed already shows the fingerprint whole: said once in the message.
    sealing = (sealed_above_line(live.commitment, public) if ch.commitment == live.commitment
               else sealed_line(live.commitment, public))
    said = accepted(opponent, names, drawn_cards(live, names),
                    live.session.first_dealer, public) + "\n" + (
        cut_line(opponent, live.cut, public) if live.cut else sealing)
    await open_started(interaction, live, ch, public,
                       lambda status: challenge_embed(ch, public, status), said)
