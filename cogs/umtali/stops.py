"""A member stops another's challenges (review138: challenges sent and withdrawn, or sent
again after each "no", pinged them every few minutes; blocking the challenger in Discord does
not help, for the ping is the bot's).

Offered privately after a Decline, not as a third button on every challenge: the channel and
the challenger see nothing of it, and the member who said no sees it only then. Saved for
every server (``data.stops``); a stopped member's challenges and rematches to them are refused
privately before anything is posted (``Refused("stopped")``). ``/umtali display`` lists the
stops, ``/umtali unblock`` lifts one.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.archived import reopened
from cogs.umtali.challenge_posts import message_of
from cogs.umtali.challenge_text import challenge_embed
from cogs.umtali.errors import guarded
from cogs.umtali.failures import PASSING
from cogs.umtali.ids import id_of
from cogs.umtali.in_time import answer, edit_clicked, in_time, private_answer
from cogs.umtali.names import challenge_names, label_name, member_name, safe_name, shorten
from cogs.umtali.rules_text import command
from data.failing import failing_for_now
from data.models import Challenge
from data.stops import WITHDRAWN_TRIES
from umtali.i18n import EN, N_, Tr

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

UNBLOCK = ("umtali", "unblock")
#: Said on a challenge its opponent's stop withdrew (on any server).
STOPPED = N_("This challenge was withdrawn.")
DISPLAY = ("umtali", "display")


class StopButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"umtali:stop:(?P<challenge>[0-9]+)"):
    """"Stop challenges from <name>", under a declined challenge's private answer."""

    def __init__(self, challenge_id: int, name: str = "", tr: Tr = EN) -> None:
        super().__init__(discord.ui.Button(
            label=shorten(tr("Stop challenges from {name}", name=name), 80),
            style=discord.ButtonStyle.danger, custom_id=f"umtali:stop:{challenge_id}"))
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StopButton:
        return cls(id_of(match["challenge"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: stop_clicked(interaction, self.challenge_id))


async def offer_stop(interaction: discord.Interaction, ch: Challenge, tr: Tr) -> None:
    """After ``ch`` was declined: to the member who declined it alone, a way to take no more
    challenges from its challenger."""
    name = challenge_names(ch, tr)[0]
    view = discord.ui.View(timeout=None)
    view.add_item(StopButton(ch.id, label_name(name), tr))
    try:
        await private_answer(interaction, view=view, content=tr(
            "You declined {name}'s challenge. To take no more challenges or rematches from "
            "them, on any server, stop them here (`{command}` lifts it).",
            name=safe_name(name), command=command(tr, UNBLOCK)))
    except discord.HTTPException as e:
        # The "no" is saved and shown: an offer Discord refused is no failure of the click.
        log.warning("challenge %d: the offer to stop its challenger not sent (%s)", ch.id, e)


async def stop_clicked(interaction: discord.Interaction, challenge_id: int) -> None:
    """The challenged member of ``challenge_id`` stops its challenger's challenges; anyone
    else is refused (the button is on their private answer, but a custom id can be sent by
    anyone)."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    ch = await in_time(interaction, svc.store.challenge(challenge_id))
    if ch is None or ch.computer_level is not None or interaction.user.id != ch.opponent_id:
        await answer(interaction, tr("Only the challenged member can stop these challenges."))
        return
    try:
        # The stop and the withdrawal of the stopped member's challenges still open, on any
        # server, in one save: nothing of either is done unless both are.
        closed = await in_time(interaction, svc.store.stop_challenges(
            ch.opponent_id, ch.challenger_id, svc.clock()))
    except Exception as e:
        if not failing_for_now(e):
            raise
        # Nothing saved, nothing held in memory: the button stays, to be clicked again.
        log.warning("challenge %d: a stop not saved (%s: %s)", ch.id, e.__class__.__name__, e)
        await answer(interaction, tr("Your choice could not be saved just now: nothing "
                                     "changed. Try again in a moment."))
        return
    try:
        await edit_clicked(interaction, view=None, content=tr(
            "{name} can no longer challenge you, nor ask you for a rematch, on any server. "
            "`{command}` lifts it.", name=safe_name(challenge_names(ch, tr)[0]),
            command=command(tr, UNBLOCK)))
    finally:
        # Withdrawn as saved, whatever became of the answer (its click expired, say).
        for withdrawn in closed:
            await say_withdrawn(interaction.client, withdrawn)


async def say_withdrawn(client: discord.Client, ch: Challenge,
                        clicked: int | None = None, *, claimed: bool = False) -> None:
    """``ch``, withdrawn by its opponent's stop (closed in the database already), says so on
    its message, in its server's language, its buttons gone. Neutral: the stop is the
    opponent's private choice, which the channel and the challenger are not told. A message
    Discord cannot edit (its channel gone, a permission taken) stays as it is: a click on it
    is answered "no longer open". Owed until said (``unsaid``, saved with the stop): an edit
    failing for now, or a bot stopped first, is tried again by the timers' tick
    (``challenge_expiry``) or a click on its buttons (review158: they stayed for good), the
    tick's tries further apart, given up after about an hour (review160). ``clicked``: the
    message whose button was clicked, the challenge's own (its id never saved). ``claimed``:
    a tick's try, taken by this process alone and counted as taken
    (``data.stops.StopQueries.claim_withdrawals``): a failure writes nothing."""
    svc = service(client)
    # (as posted here, its save having failed: known until now)
    message_id = message_of(client, ch) or clicked
    if message_id is None:
        if svc.clock() < ch.expires_at:
            # Its id maybe only in the posting process's memory (its save failed): owed
            # still, for that process's tick to say it (review160).
            return
        await _said(svc, ch)  # (nothing to edit: none posted, or only by a process gone)
        return
    try:
        if not svc.prefs.language_known(ch.guild_id):
            # A server this process does not hear from: its language as another saw it.
            await svc.prefs.learn_language(ch.guild_id)
    except Exception as e:  # said in English then: the withdrawal stands all the same
        if not failing_for_now(e):
            raise
        log.info("challenge %d: its server's language could not be read (%s: %s)", ch.id,
                 e.__class__.__name__, e)
    public = svc.prefs.guild_tr(ch.guild_id)
    message = client.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id) \
        .get_partial_message(message_id)

    async def edit() -> None:
        await message.edit(embed=challenge_embed(ch, public, public(STOPPED)), view=None)
    try:
        # A rematch's challenge is in the match's thread, which may be archived since.
        await reopened(client, ch.channel_id, edit)
    except (discord.HTTPException, *PASSING) as e:
        # For now: Discord's 5xx or rate limit, the network (as the delivery sorts them).
        later = isinstance(e, PASSING) or (isinstance(e, discord.HTTPException) and (
            e.status == 429 or e.status >= 500))
        if later and claimed and ch.said_tries >= WITHDRAWN_TRIES:
            # The ticks' last try failed: given up, out of their index, logged by the process
            # whose save did it (once), after edits really tried (review163).
            if await _given_up(svc, ch):
                log.warning("challenge %d withdrawn by a stop; its message could not be edited "
                            "in %d tries: left as it is (a click on its buttons is answered "
                            "\"no longer open\" and tries again) (%s: %s)", ch.id,
                            ch.said_tries, e.__class__.__name__, e)
            return
        log.info("challenge %d withdrawn by a stop; its message could not be edited%s "
                 "(%s: %s)", ch.id, ", tried again later" if later else "",
                 e.__class__.__name__, e)
        if later:
            return  # (its next try set as this one was taken, or a click's, not counted)
    svc.unsaved_posts.pop(ch.id, None)
    await _said(svc, ch)


async def say_claimed(client: discord.Client, ch: Challenge) -> None:
    """A tick's try of ``ch``'s withdrawal, claimed by this process (``say_withdrawn``)."""
    await say_withdrawn(client, ch, claimed=True)


async def _said(svc: MatchService, ch: Challenge) -> None:
    """``ch``'s withdrawal is no longer owed to its message (said, or never to be). Not saved
    (the database): said again later, the same edit."""
    if not ch.unsaid:
        return
    try:
        await svc.store.withdrawal_said(ch.id)
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.info("challenge %d: its withdrawal, said, not saved so (%s: %s)", ch.id,
                 e.__class__.__name__, e)


async def _given_up(svc: MatchService, ch: Challenge) -> bool:
    """``give_up_withdrawal`` for ``ch``'s failed last try; False if not saved (the database
    failing for now: claimed again later, one more try)."""
    try:
        return await svc.store.give_up_withdrawal(ch.id, ch.said_tries)
    except Exception as e:
        if not failing_for_now(e):
            raise
        log.info("challenge %d: its withdrawal's last try failed, not saved so (%s: %s)",
                 ch.id, e.__class__.__name__, e)
        return False


def stops_line(stopped: list[int], tr: Tr) -> str:
    """The members a member takes no challenges from (mentions: in a private answer they
    ping nobody)."""
    return tr("You take no challenges from {members}: `{command}` lifts a stop.",
              members=", ".join(f"<@{user_id}>" for user_id in stopped),
              command=command(tr, UNBLOCK))


def stops_unread(tr: Tr) -> str:
    """Said instead of ``stops_line`` where the database could not read them just now."""
    return tr("The list of members whose challenges you stopped could not be read just now: "
              "`{command}` shows it again in a moment.", command=command(tr, DISPLAY))


async def unblock(interaction: discord.Interaction, member: discord.User) -> None:
    """``/umtali unblock member``: ``member`` may challenge this member again."""
    svc = service(interaction.client)
    tr = tr_of(interaction)
    lifted = await in_time(interaction, svc.store.lift_stop(interaction.user.id, member.id))
    name = member_name(member)
    await answer(interaction, tr("{name} can challenge you again.", name=name) if lifted
                 else tr("You had not stopped challenges from {name}.", name=name))
