"""Challenges: posted with Accept and Decline buttons for the challenged member (the challenger
may withdraw theirs with Decline); they expire after ten minutes and say so. Each step that
waits on the database is answered within Discord's 3 seconds (``in_time``). The match an
accept makes is opened by ``match_start``."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
from collections.abc import Awaitable

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.failures import PASSING
from cogs.umtali.fair import cut_line, sealed_line, sealed_offer_line
from cogs.umtali.in_time import answer, edit_clicked, in_time, post_public, thinking
from cogs.umtali.match_start import drawn_cards, open_started
from cogs.umtali.mentions import only
from cogs.umtali.names import challenge_names, safe_name, seat_names
from cogs.umtali.options import clock_words, rules_words
from cogs.umtali.panels import challenge_panel
from cogs.umtali.permissions import missing_here, not_in_thread, refusal, standing
from cogs.umtali.render import COLOUR
from cogs.umtali.rules_text import command
from cogs.umtali.unheard import challenge_made, settled
from data.failing import failing_for_now
from data.models import Challenge
from data.store import AlreadyPlaying, Refused, StaleState
from umtali.i18n import Tr
from umtali.rules import RuleSet

log = logging.getLogger(__name__)

CHALLENGE_TTL = 600.0
#: Seconds after which an open challenge with no message saved is taken as never posted.
UNPOSTED = 30.0
#: Posted challenges whose message could not be saved, remembered by their process at most
#: (each is forgotten at its expiry; one answered first, when it is the oldest past this).
UNSAVED_KEPT = 1000


def challenge_refusal(e: Refused, opponent: str, tr: Tr) -> str:
    """Why a limit against spam refused a challenge, in a sentence."""
    if e.reason == "pair":
        return tr("There is already an open challenge between you and {opponent}: answer it, "
                  "or wait until it expires.", opponent=opponent)
    if e.reason == "declined":
        return tr("{opponent} declined your last challenge: you can challenge them again in "
                  "{minutes} min.", opponent=opponent,
                  minutes=max(1, math.ceil(e.retry_after / 60)))
    if e.reason == "unanswered":
        return tr("You have challenged {opponent} several times of late with no answer: you can "
                  "challenge them again in {minutes} min.", opponent=opponent,
                  minutes=max(1, math.ceil(e.retry_after / 60)))
    if e.reason == "open":
        return tr("You have too many open challenges: wait until one is answered or expires "
                  "before you send another.")
    return tr("Slow down: you can send another challenge in {seconds} s.",
              seconds=max(1, round(e.retry_after)))


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
            # The pair's open challenge may be one nobody can answer any more (its message,
            # thread or channel deleted): it is closed, and this one made in its place.
            if e.reason != "pair" or not await in_time(interaction, drop_lost(
                    interaction.client, interaction.guild_id, challenger[0], opponent[0])):
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


async def note_posted(client: discord.Client, ch: Challenge, message_id: int) -> None:
    """``ch`` (a challenge, or a practice offer) is posted as ``message_id``: saved with it,
    for its expiry's edit and a pair's challenge again. The database failing for now leaves it
    unsaved, the offer up and answerable all the same (a click on it is known by its
    channel), and its message remembered here (``message_of``): its poster is not told to try
    again, which would be refused as a second challenge of the pair."""
    svc = service(client)
    try:
        await svc.store.set_challenge_message(ch.id, message_id)
    except Exception as e:
        if not failing_for_now(e):
            raise
        # Known here at least: on show, so never taken for one never posted (``drop_lost``),
        # and its expiry said on it.
        if len(svc.unsaved_posts) >= UNSAVED_KEPT:
            del svc.unsaved_posts[next(iter(svc.unsaved_posts))]  # the oldest, long expired
        svc.unsaved_posts[ch.id] = message_id
        log.warning("challenge %d: posted, but its message could not be saved (%s: %s)",
                    ch.id, e.__class__.__name__, e)


async def close_unposted(interaction: discord.Interaction, ch: Challenge,
                         error: Exception) -> None:
    """After the post of ``ch`` (a challenge, or a practice session) failed with ``error``:
    closed if Discord refused it, so shown to nobody (the answer never made, or the message
    after a deferral never sent), so that it holds nothing for its ten minutes, neither the
    pair nor one of the challenger's open challenges. Kept if it may have been shown all the
    same: Discord or the network failing (it may have been posted), or an answer made whose
    message could not be read back."""
    if not isinstance(error, discord.HTTPException) or \
            isinstance(error, discord.DiscordServerError):
        return
    # Deferred ("thinking", or an update of a clicked final card: a rematch), the post was a
    # message of its own, which Discord refused; answered, it was shown but not read back.
    deferred = thinking(interaction) or \
        interaction.response.type is discord.InteractionResponseType.deferred_message_update
    if interaction.response.is_done() and not deferred:
        return
    try:
        if await service(interaction.client).store.close_challenge(ch.id, "cancelled"):
            log.info("challenge %d: its post failed; cancelled", ch.id)
    except Exception as e:
        log.warning("challenge %d: its post failed, and so did cancelling it (%s: %s)",
                    ch.id, e.__class__.__name__, e)


async def drop_lost(client: discord.Client, guild_id: int, one: int, other: int) -> bool:
    """Close the open challenge between two members if its message is gone (deleted, or its
    thread or channel deleted; or never posted, the post having failed): True if closed."""
    svc = service(client)
    now = svc.clock()
    ch = await svc.store.open_challenge_between(guild_id, one, other, now)
    if ch is None:
        return False
    message_id = message_of(client, ch)
    if message_id is None:
        # Posted a moment after it is saved: one still without a message a while later
        # never will have one.
        lost = now - ch.created_at > UNPOSTED
    else:
        try:
            await client.get_partial_messageable(ch.channel_id, guild_id=guild_id) \
                .fetch_message(message_id)
            lost = False
        except discord.NotFound:
            lost = True
        except (discord.HTTPException, *PASSING):
            lost = False  # not allowed to look, or Discord failing: it stands
    if lost and await svc.store.close_challenge(ch.id, "cancelled"):
        log.info("challenge %d: its message is gone; cancelled for a new one", ch.id)
        return True
    return False


def message_of(client: discord.Client, ch: Challenge) -> int | None:
    """``ch``'s message: as saved, or as this process posted it, its save having failed."""
    if ch.message_id is not None:
        return ch.message_id
    return service(client).unsaved_posts.get(ch.id)


def on_its_message(interaction: discord.Interaction, ch: Challenge) -> bool:
    """Whether the click (or the submit of the modal it opened) came from ``ch``'s own
    message: a modal's id forged to name another challenge of the member's does not, and
    answering it would edit the wrong message. One whose message was never saved is known
    by its channel."""
    if interaction.message is None or ch.message_id is None:
        return interaction.channel_id == ch.channel_id
    return interaction.message.id == ch.message_id


def challenge_embed(ch: Challenge, tr: Tr, status: str = "") -> discord.Embed:
    """The challenge as posted, in the server's language; ``status`` once it is answered."""
    text = tr("<@{challenger}> challenges <@{opponent}> to a session of Umtali (best of three "
              "games of four hands).\nRules: {rules} · clock: {timer}.",
              challenger=ch.challenger_id, opponent=ch.opponent_id,
              rules=rules_words(tr, ch.variant, ch.optional_melding),
              timer=clock_words(tr, ch.time_control, ch.turn_timer))
    if ch.rematch_of is not None:
        text += "\n" + tr("A rematch of session #{match}: <@{first}> draws first for dealer.",
                          match=ch.rematch_of, first=ch.seated[0][0])
    if ch.commitment:
        text += "\n" + sealed_offer_line(ch.commitment, tr)
    if status:
        text += f"\n**{status}**"
    else:
        expires = discord.utils.format_dt(dt.datetime.fromtimestamp(ch.expires_at, dt.UTC), "R")
        text += "\n" + tr("The challenge expires {when}.", when=expires)
        # A member invited by a friend may never have played: where to learn, before they
        # answer. The command is named in the server's language, as the whole embed is (it is
        # everyone's): a command mention (</umtali rules:ID>) would not name it in each reader's
        # own, for Discord draws a mention with the name written in it, never the reader's
        # localized one (discord/discord-api-docs#5518, #7309), and one written in another
        # language does not run the command.
        text += "\n" + tr("New to Umtali? `{rules}` explains the game, privately.",
                           rules=command(tr, ("umtali", "rules")))
    return discord.Embed(title=tr("Umtali challenge"), description=text, colour=COLOUR)


def challenge_buttons(ch: Challenge, tr: Tr) -> discord.ui.View:
    """Accept and Decline, in the server's language (everyone in the channel sees them)."""
    return challenge_panel(ch.id, tr, (ch.challenger_id, ch.opponent_id))


def declined(ch: Challenge, tr: Tr) -> str:
    return tr("{name} declined.", name=safe_name(challenge_names(ch, tr)[1]))


def withdrawn(ch: Challenge, tr: Tr) -> str:
    return tr("{name} withdrew the challenge.", name=safe_name(challenge_names(ch, tr)[0]))


def accepted(accepter: str, names: tuple[str, str], drawn: str, dealer: int, tr: Tr) -> str:
    """The challenge accepted by ``accepter`` (always the challenged member: in a rematch the
    seats are turned round, so not always seat 1), and the draw for first dealer (``drawn``,
    as the names by seat show)."""
    return tr("{name} accepted.", name=accepter) + " " + dealer_drawn(drawn, names[dealer], tr)


def dealer_drawn(drawn: str, dealer: str, tr: Tr) -> str:
    return tr("Draw for first dealer: {rounds}. {name} deals first.", rounds=drawn, name=dealer)


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
                ch.id, "cancelled" if withdraw else "declined")):
            said = withdrawn(ch, public) if withdraw else declined(ch, public)
            await edit_clicked(interaction, embed=challenge_embed(ch, public, said), view=None)
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
    said = accepted(opponent, names, drawn_cards(live, names),
                    live.session.first_dealer, public) + "\n" + (
        cut_line(opponent, live.cut, public) if live.cut
        else sealed_line(live.commitment, public))
    await open_started(interaction, live, ch, public,
                       lambda status: challenge_embed(ch, public, status), said)


async def expire(client: discord.Client, ch: Challenge) -> None:
    """Close ``ch`` as expired (if still open) and say so on its message."""
    if await service(client).store.close_challenge(ch.id, "expired"):
        await _say_expired(client, ch)


async def _say_expired(client: discord.Client, ch: Challenge) -> None:
    message_id = message_of(client, ch)
    service(client).unsaved_posts.pop(ch.id, None)
    if message_id is None:
        return
    from cogs.umtali.practice import expired_embed  # it builds on this module

    svc = service(client)
    channel = client.get_partial_messageable(ch.channel_id)
    tr = svc.prefs.guild_tr(ch.guild_id)
    embed = expired_embed(ch, tr) if ch.computer_level is not None else challenge_embed(
        ch, tr, tr("This challenge expired: nobody answered in time."))
    try:
        await channel.get_partial_message(message_id).edit(embed=embed, view=None)
    except discord.HTTPException:
        log.info("challenge %d expired; its message could not be edited", ch.id)


class ExpiryEdits:
    """The messages of expired challenges, edited in the background, a few at a time: the
    timer tick that closed them goes on to the turn timers at once, however many expired
    together and however slowly Discord answers (an edit may wait out a rate limit).

    Bounded: ``at_once`` edits in flight, ``backlog`` waiting at most; past that a message is
    left as it is (a click on it is answered "no longer open"), and the log says so."""

    def __init__(self, client: discord.Client, at_once: int = 4, backlog: int = 1000) -> None:
        self.client = client
        self.backlog = backlog
        self._slots = asyncio.Semaphore(at_once)
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, ch: Challenge) -> None:
        """Say on ``ch``'s message (closed as expired already) that it expired."""
        if message_of(self.client, ch) is None:
            return
        if len(self._tasks) >= self.backlog:
            log.info("challenge %d expired; its message is left as it is (%d edits waiting)",
                     ch.id, len(self._tasks))
            return
        task = asyncio.create_task(self._edit(ch), name=f"umtali-challenge-expiry-{ch.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _edit(self, ch: Challenge) -> None:
        async with self._slots:
            try:
                await _say_expired(self.client, ch)
            except Exception as e:
                # Never lost silently: the challenge is closed all the same, the message stays.
                log.info("challenge %d expired; its message could not be edited (%s: %s)",
                         ch.id, e.__class__.__name__, e)

    async def idle(self) -> None:
        """Wait until every edit asked for so far is done (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        """Shutdown: the edits still waiting are cancelled (their challenges are closed)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def expire_challenges(client: discord.Client, now: float | None = None,
                            edits: ExpiryEdits | None = None) -> None:
    """Close every challenge past its time; its message says so, edited here or, with
    ``edits`` (the timer loop's), in the background."""
    svc = service(client)
    for ch in await svc.store.due_challenges(svc.clock() if now is None else now):
        # Closed first, in the database: memory and messages follow it.
        if not await svc.store.close_challenge(ch.id, "expired"):
            continue
        if edits is None:
            await _say_expired(client, ch)
        else:
            edits.add(ch)
