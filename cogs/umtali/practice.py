"""Practice sessions against the computer: ``/umtali practice`` or a challenge to the bot.

The session's seed is sealed on its message at once, and the player cuts the deck with a click,
as a challenged member does by accepting: a practice waiting for its cut is a challenge to the
bot (``data.challenges``), so it is saved, expires, and is claimed by one click alike."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.challenge_expiry import expire
from cogs.umtali.challenge_posts import close_unposted, drop_lost, note_posted, on_its_message
from cogs.umtali.challenge_text import dealer_drawn
from cogs.umtali.challenges import CHALLENGE_TTL
from cogs.umtali.durations import wait_seconds
from cogs.umtali.fair import cut_line, practice_seats_line, sealed_cut_line
from cogs.umtali.in_time import (
    answer,
    answered_in_public,
    clock_started,
    edit_clicked_even_late,
    in_time,
    post_public,
    thinking,
)
from cogs.umtali.match_start import drawn_cards, open_started
from cogs.umtali.mentions import NO_MENTIONS
from cogs.umtali.names import plain_global_name, plain_member_name, safe_name, seat_names
from cogs.umtali.options import clock_words, computer_name, level_word, rules_words
from cogs.umtali.panels import cut_panel
from cogs.umtali.permissions import missing_here, not_in_thread, refusal
from cogs.umtali.render import COLOUR
from cogs.umtali.time_control import PRESETS
from cogs.umtali.unheard import challenge_made, settled
from data.models import Challenge
from data.store import AlreadyPlaying, Refused, StaleState
from umtali.i18n import Tr
from umtali.rules import RuleSet

log = logging.getLogger(__name__)


def slow_down(retry_after: float, tr: Tr) -> str:
    """A practice asked for too soon: the wait in seconds, in words (a bare "s" is read as
    the letter), rounded up as the challenge's (4.2 s said "4": asked again then, refused)."""
    return tr.plural("Slow down: you can start another practice session in {count} second.",
                     "Slow down: you can start another practice session in {count} seconds.",
                     wait_seconds(retry_after))


def practice_embed(member_id: int, level: str, rules: RuleSet, tr: Tr) -> discord.Embed:
    """The session announced in the channel (the draw for first dealer follows)."""
    # "rules: english, optional melding", as a challenge says it: put before "rules", the
    # option words read "english, optional melding rules".
    text = tr("<@{member}> plays a session against the computer, level **{level}** (rules: "
              "{rules}). Results are kept; ratings do not change.", member=member_id,
              level=level_word(tr, level),
              rules=rules_words(tr, rules.name, rules.optional_melding))
    return discord.Embed(title=tr("Umtali practice"), description=text, colour=COLOUR)


def offer_embed(ch: Challenge, tr: Tr, status: str = "") -> discord.Embed:
    """A practice session waiting for its player's cut: the commitment, then ``status``
    once the deck is cut (or it expired); until then, when it expires."""
    assert ch.computer_level is not None
    rules = RuleSet.named(ch.variant, optional_melding=ch.optional_melding)
    embed = practice_embed(ch.challenger_id, ch.computer_level, rules, tr)
    # The clock, as a challenge says its own: the player's to know before they cut.
    words = clock_words(tr, ch.time_control, ch.turn_timer)
    # What running out does, said with the clock (review164): against the computer every
    # clock forfeits (``LiveMatch.asks_when_late``); no clock, nothing to run out.
    clock = (tr("Clock for your turns: {clock}.", clock=words) if off_clock(ch)
             else tr("Clock for your turns: {clock}; run out of time and you lose the "
                     "session.", clock=words))
    lines = [embed.description or "", clock, practice_seats_line(tr),
             sealed_cut_line(ch.commitment, tr)]
    if status:
        lines.append(status)
    else:
        expires = discord.utils.format_dt(dt.datetime.fromtimestamp(ch.expires_at, dt.UTC), "R")
        lines.append(tr("Nothing is dealt until you cut the deck; uncut, this expires {when}.",
                        when=expires))
    embed.description = "\n".join(lines)
    return embed


def off_clock(ch: Challenge) -> bool:
    """The practice session has no clock (``clock_words`` says "off")."""
    return ch.time_control == "off" or (ch.time_control not in PRESETS and not ch.turn_timer)


def expired_embed(ch: Challenge, tr: Tr) -> discord.Embed:
    return offer_embed(ch, tr, tr("This practice session expired: its deck was never cut."))


async def start_practice(interaction: discord.Interaction, *, level: str, rules: RuleSet,
                         turn_timer: int, time_control: str) -> None:
    """Offer a session against the computer in this channel, with the clock chosen as a
    challenge's is (``options.chosen_control``): a preset, or (``''``) a plain
    ``turn_timer``. Its seed is sealed on the message at once; the player's click on **Cut
    the deck** asks for their cut, whose submit starts the session (``cut_deck``)."""
    assert interaction.guild is not None and interaction.channel is not None
    # Discord's 3 seconds counted from its creation on (``in_time``'s clock), fixed before
    # the work below.
    clock_started(interaction)
    svc = service(interaction.client)
    tr = tr_of(interaction)
    me = interaction.user
    # The database may be busy for seconds (a long write elsewhere): if so, the answer is
    # promised in time, and comes as an edit of it.
    if await in_time(interaction, svc.store.active_match_of(interaction.guild.id, me.id),
                     public=True) is not None:
        await answer(interaction, tr("You are already playing a match on this server."))
        return
    if missing := missing_here(interaction):
        await answer(interaction, refusal(missing, tr))
        return
    if closed := await in_time(interaction, not_in_thread(interaction), public=True):
        await answer(interaction, closed)
        return
    bot_user = interaction.client.user
    assert bot_user is not None
    # The session is shown in the channel: in the server's language, the computer's name too
    # (it is kept with the results under that name, as a member's is).
    public = svc.prefs.guild_tr(interaction.guild.id)
    guild_id, channel_id = interaction.guild.id, interaction.channel.id
    sealed = svc.new_seal()

    def create() -> Awaitable[Challenge]:
        now = svc.clock()
        return in_time(interaction, settled("a practice session", svc.store.create_challenge(
            guild_id=guild_id, channel_id=channel_id, challenger=(me.id, plain_member_name(me)),
            opponent=(bot_user.id, computer_name(level, public)), variant=rules.name,
            global_names=(plain_global_name(me), computer_name(level, public)),
            optional_melding=rules.optional_melding, turn_timer=turn_timer,
            ttl=CHALLENGE_TTL, now=now, time_control=time_control, sealed=sealed,
            computer_level=level), lambda: challenge_made(
                svc.store, guild_id, (me.id, bot_user.id), now, sealed[0])), public=True)

    try:
        try:
            ch = await create()
        except Refused as e:
            # The one waiting may be one nobody can cut any more (its message deleted).
            if e.reason != "pair" or not await in_time(interaction, drop_lost(
                    interaction.client, guild_id, me.id, bot_user.id), public=True):
                raise
            ch = await create()
    except Refused as e:
        await answer(interaction, tr(
            "You have a practice session waiting for you to cut its deck: cut it, or cancel "
            "it with its **{button}** button.", button=tr.ctx("button", "Cancel"))
            if e.reason == "pair" else slow_down(e.retry_after, tr))
        return
    embed, view = offer_embed(ch, public), cut_panel(ch.id, public, ch.challenger_id)
    try:
        if thinking(interaction):
            # Deferred here, in public: the "thinking" becomes the offer (an error after this
            # is told privately, the offer left as it is, posted or perhaps posted).
            answered_in_public(interaction)
            message: discord.Message = await interaction.edit_original_response(
                embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        else:
            # Answered now; or, a rematch's click deferred as an update of the final card,
            # which stays as it is, a message of its own in the channel.
            message = await post_public(interaction, embed=embed, view=view,
                                        allowed_mentions=NO_MENTIONS)
    except Exception as e:
        await close_unposted(interaction, ch, e)
        raise
    await note_posted(interaction.client, ch, message.id)


async def cut_deck(interaction: discord.Interaction, challenge_id: int, typed: str = "") -> None:
    """The player's cut, submitted from the modal their click on **Cut the deck** opened:
    ``typed`` (``umtali.seeds.typed_cut``), or, with nothing typed, the submit's id; the
    session starts from its sealed seed and that cut. Of two submits, the one that wins the
    database's accept cuts; anyone else is told privately that the deck is not theirs to cut."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    ch = await _waiting(interaction, challenge_id, lambda member: tr(
        "Only <@{member}> can cut this deck: it is their practice session.", member=member))
    if ch is None or ch.computer_level is None:
        return
    if svc.clock() >= ch.expires_at:
        await in_time(interaction, expire(interaction.client, ch))
        await answer(interaction, tr("This practice session expired: its deck was never cut."))
        return
    if missing := missing_here(interaction):
        await answer(interaction, refusal(missing, tr))
        return
    rules = RuleSet.named(ch.variant, optional_melding=ch.optional_melding)
    public = svc.prefs.guild_tr(ch.guild_id)
    try:
        # Saved before anything is shown, the cut with it: a double click starts one
        # session, cut once.
        live = await in_time(interaction, svc.start(
            guild_id=ch.guild_id, channel_id=ch.channel_id,
            players=((ch.challenger_id, ch.challenger_name), (ch.opponent_id, ch.opponent_name)),
            rules=rules, turn_timer=ch.turn_timer, time_control=ch.time_control,
            challenge_id=ch.id, sealed=(ch.seed, ch.salt), cut=typed or svc.cut_of(interaction),
            computer=(1, ch.computer_level), global_names=ch.global_names))
    except AlreadyPlaying:
        await answer(interaction, tr("You are already playing a match on this server."))
        return
    except Refused as e:
        await answer(interaction, slow_down(e.retry_after, tr))
        return
    except StaleState:
        await answer(interaction, tr("This practice session is no longer waiting for its cut."))
        return
    # (a member's name that shows nothing by its seat, as the table names it)
    shown = (safe_name(seat_names((ch.challenger_name, ch.opponent_name), public)[0]),
             ch.opponent_name)
    said = (cut_line(shown[0], live.cut, public) + "\n"
            + dealer_drawn(drawn_cards(live, shown), shown[live.session.first_dealer], public))
    await open_started(interaction, live, ch, public,
                       lambda status: offer_embed(ch, public, status), said)


async def _waiting(interaction: discord.Interaction, challenge_id: int,
                   not_theirs: Callable[[int], str]) -> Challenge | None:
    """The practice session ``challenge_id`` waiting for its cut, if the clicker is its
    player; else None, the clicker told privately why (``not_theirs(player)``)."""
    tr = tr_of(interaction)
    ch = await in_time(interaction, service(interaction.client).store.challenge(challenge_id))
    if ch is None or ch.status != "open" or ch.computer_level is None or \
            not on_its_message(interaction, ch):
        await answer(interaction, tr("This practice session is no longer waiting for its cut."))
        return None
    if interaction.user.id != ch.challenger_id:
        await answer(interaction, not_theirs(ch.challenger_id))
        return None
    return ch


async def cancel_practice(interaction: discord.Interaction, challenge_id: int) -> None:
    """The player's click on **Cancel**: their practice session, never cut, is withdrawn
    (nothing was dealt, its seed goes), so that they may ask for another at once (a level or
    rules chosen by mistake would otherwise hold them until it expires)."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    ch = await _waiting(interaction, challenge_id, lambda member: tr(
        "Only <@{member}> can cancel this practice session: it is theirs.", member=member))
    if ch is None:
        return
    # Closed only if still open: of a cut and a cancel racing, one wins.
    if not await in_time(interaction, svc.store.close_challenge(ch.id, "cancelled")):
        await answer(interaction, tr("This practice session is no longer waiting for its cut."))
        return
    public = svc.prefs.guild_tr(ch.guild_id)
    await edit_clicked_even_late(interaction, embed=offer_embed(ch, public,
                                                                withdrawn(ch, public)), view=None)


def withdrawn(ch: Challenge, tr: Tr) -> str:
    return tr("{name} cancelled this practice session: nothing was dealt.",
              name=safe_name(seat_names((ch.challenger_name, ch.opponent_name), tr)[0]))

