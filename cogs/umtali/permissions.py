"""What the bot needs where a match is played, checked before anything is posted.

A slash command's answer needs no permission at all, so a challenge could be posted where the
bot cannot post the table afterwards: the match would start, unseen, and block both players.
"""

from __future__ import annotations

import logging

import discord

from cogs.umtali.access import service, tr_of
from cogs.umtali.board_posts import may_post
from cogs.umtali.departures import UNKNOWN_MEMBER, found_here, found_left
from cogs.umtali.failures import PASSING
from cogs.umtali.lacking import lacking, own_permissions
from cogs.umtali.numbers import listed
from umtali.i18n import N_, Tr

log = logging.getLogger(__name__)

#: What the table and the announcements need, with the names Discord shows (in the reader's
#: language: Discord's own Russian names, so that they can be found in the server's settings).
_POSTING = (("view_channel", N_("View Channel")), ("embed_links", N_("Embed Links")))
_THREAD = (("create_public_threads", N_("Create Public Threads")),
           ("send_messages_in_threads", N_("Send Messages in Threads")))
_SEND = ("send_messages", N_("Send Messages"))
_SEND_IN_THREADS = ("send_messages_in_threads", N_("Send Messages in Threads"))
#: The table carries its picture as a file: without this, Discord refuses the table itself.
_ATTACH = ("attach_files", N_("Attach Files"))


def _in_thread(interaction: discord.Interaction) -> bool:
    return isinstance(interaction.channel, discord.Thread)


def _pictures_here(interaction: discord.Interaction) -> bool:
    """Whether a table posted here carries its picture (pictures on, and not turned off by
    the server)."""
    svc = service(interaction.client)
    return svc.pictures and interaction.guild_id not in svc.prefs.plain_guilds


def missing_here(interaction: discord.Interaction, *, files: bool = True) -> list[str]:
    """The permissions the bot lacks to play a match in the interaction's channel. ``files``
    False: what is posted goes without its picture where the bot may not attach one (the
    table of a match in its own channel: ``Looks.table_message``)."""
    perms = interaction.app_permissions
    send = _SEND_IN_THREADS if _in_thread(interaction) else _SEND
    attach = files and _pictures_here(interaction)
    needed = (*_POSTING, send, *((_ATTACH,) if attach else ()))
    return lacking(perms, _own(interaction), needed)


def _own(interaction: discord.Interaction) -> discord.Permissions | None:
    guild = interaction.guild
    return own_permissions(interaction.channel, guild.me if guild is not None else None)


def _chat_of_voice(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a voice or stage channel's chat, where Discord makes
    no thread from a message ("Cannot execute action on this channel type")."""
    return isinstance(interaction.channel, discord.VoiceChannel | discord.StageChannel)


def can_make_thread(interaction: discord.Interaction) -> bool:
    """A thread can be made from the challenge and played in (else: the channel itself)."""
    return not _in_thread(interaction) and not _chat_of_voice(interaction) and \
        not thread_missing(interaction)


def thread_missing(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks to make a match's thread in the interaction's channel
    (none in a thread: a match started there is played there)."""
    if _in_thread(interaction):
        return []
    return lacking(interaction.app_permissions, _own(interaction), _THREAD)


def threads_note(interaction: discord.Interaction, tr: Tr) -> str | None:
    """Said with the server's settings when threads are on: that the bot cannot make them in
    this channel, and so plays the matches started here in the channel itself."""
    if _chat_of_voice(interaction):
        return tr("Threads are on, but a voice or stage channel's chat has none: matches "
                  "started here are played in the channel itself.")
    missing = thread_missing(interaction)
    if not missing:
        return None
    names = listed(missing, tr)  # (a call inside ``tr.plural`` hides it from the catalogue)
    return tr.plural(
        "Threads are on, but I can't make them in this channel: I need the {names} "
        "permission here. Matches started here are played in the channel itself.",
        "Threads are on, but I can't make them in this channel: I need the {names} "
        "permissions here. Matches started here are played in the channel itself.",
        len(missing), names=names)


def pictures_note(interaction: discord.Interaction, tr: Tr) -> str | None:
    """Said with the server's settings when pictures are on: that the bot may not attach
    files in this channel, where a challenge is then refused (``missing_here``) and the
    tables of the matches in play stay text (``Looks.table_message``)."""
    if not _pictures_here(interaction) or interaction.app_permissions.attach_files:
        return None
    return tr("Pictures are on, but I can't attach files in this channel: I need the {name} "
              "permission here. Until I have it, no new match can start here, and the tables "
              "of matches in play here stay text.", name=listed([_ATTACH[1]], tr))


def no_posting(interaction: discord.Interaction) -> str | None:
    """Why no session starts here for this member (a challenge, practice, a rematch): they
    may not write in the channel, and the bot posts nothing public for them there."""
    if may_post(interaction):
        return None
    tr = tr_of(interaction)
    return tr("You can't send messages in this channel: start the session in a channel where "
              "you can.")


def refusal(missing: list[str], tr: Tr) -> str:
    """Why no match can be played here (``missing`` from ``missing_here``), to the member."""
    names = listed(missing, tr)
    return tr.plural(
        "I can't host a match in this channel: I need the {names} permission here. Ask a "
        "server admin, or try another channel.",
        "I can't host a match in this channel: I need the {names} permissions here. Ask a "
        "server admin, or try another channel.", len(missing), names=names)


async def not_in_thread(interaction: discord.Interaction) -> str | None:
    """Why the bot cannot post in the interaction's channel whatever its permissions say: a
    private thread it is not a member of, and may not manage threads in (Manage Threads sees
    every private thread). Discord takes the bot's answers to commands there, but refuses its
    own messages (Missing Access), the table's first; the permissions it sends with the
    command do not tell. Asked of Discord, as discord.py may not know the bot's membership;
    None when it cannot be told (Discord failing: the first posts tell then)."""
    channel, me = interaction.channel, interaction.client.user
    if not isinstance(channel, discord.Thread) or me is None or \
            channel.type is not discord.ChannelType.private_thread or \
            interaction.app_permissions.manage_threads:
        return None
    try:
        await channel.fetch_member(me.id)
    except (discord.Forbidden, discord.NotFound):
        pass  # not a member: the thread is closed to the bot, or it is not among its members
    except (discord.HTTPException, *PASSING) as e:
        log.info("could not tell whether the bot is in private thread %d (%s)", channel.id, e)
        return None
    else:
        return None
    tr = tr_of(interaction)
    return tr(
        "I'm not a member of this private thread, so I can't post in it: add me to it "
        "(mention me in it), or use another channel.")


#: Said in public, on the challenge or practice message (``tr(CANCELLED)``), when the first
#: posts failed: the channel refused them, or Discord or the database failed for a moment.
CANCELLED = N_("The session could not start: my first messages here failed. Nothing was "
               "recorded; try again, and if it fails again, ask a server admin to check my "
               "permissions here.")


def sees(channel: object, member: discord.Member) -> bool:
    """Whether ``member`` can see ``channel`` (a server's channel or thread); True when that
    cannot be told (a thread whose channel the bot has not seen, no server channel)."""
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return True
    try:
        return channel.permissions_for(member).view_channel
    except discord.ClientException:
        return True


async def standing(interaction: discord.Interaction, user_id: int) -> str | None:
    """"left" if ``user_id`` is no longer a member of the interaction's server (fetched: the
    bot is given no member list), "hidden" if they cannot see its channel; else None, and
    None when that cannot be known (Discord failing)."""
    return (await member_standing(interaction, user_id))[0]


async def member_standing(interaction: discord.Interaction,
                          user_id: int) -> tuple[str | None, discord.Member | None]:
    """``standing``, with the member fetched (as they are now: their name) when there is one."""
    if interaction.guild is None:
        return None, None
    try:
        member = await interaction.guild.fetch_member(user_id)
    except (discord.HTTPException, *PASSING) as e:
        if isinstance(e, discord.NotFound) and e.code == UNKNOWN_MEMBER:
            found_left(interaction.client, interaction.guild.id, user_id)
            return "left", None
        log.info("could not tell whether member %d is still here (%s)", user_id, e)
        return None, None
    found_here(interaction.client, interaction.guild.id, user_id)
    return None if sees(interaction.channel, member) else "hidden", member


async def reach(client: discord.Client, guild_id: int, channel_id: int, user_id: int) -> str:
    """"left" if ``user_id`` is known to have left the server ``guild_id`` (left, kicked or
    banned: fetched, the bot is given no member list), "hidden" if they may no longer see its
    channel ``channel_id`` (its permissions changed), "reached" if they can; "unknown" when
    that cannot be told (Discord failing, the bot no longer on the server, the channel
    unknown)."""
    guild = client.get_guild(guild_id)  # (None: another shard's, or the bot removed)
    try:
        member = await (guild.fetch_member(user_id) if guild is not None
                        else client.http.get_member(guild_id, user_id))
    except discord.NotFound as e:
        if e.code != UNKNOWN_MEMBER:
            return "unknown"
        found_left(client, guild_id, user_id)
        return "left"
    except (discord.HTTPException, *PASSING) as e:
        log.info("could not tell whether member %d is still on server %d (%s)", user_id,
                 guild_id, e)
        return "unknown"
    found_here(client, guild_id, user_id)
    channel = None if guild is None else guild.get_channel_or_thread(channel_id)
    if channel is None or not isinstance(member, discord.Member):
        return "unknown"
    return "reached" if sees(channel, member) else "hidden"
