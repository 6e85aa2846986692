"""The ``/umtali`` slash commands."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.umtali.access import service, tr_of
from cogs.umtali.actions import play_text
from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.challenges import offer_challenge
from cogs.umtali.cutting import cut_submitted
from cogs.umtali.display import set_display
from cogs.umtali.hand_panels import load_orders
from cogs.umtali.history import show_history
from cogs.umtali.in_time import answer, in_time
from cogs.umtali.live import LiveMatch
from cogs.umtali.names import (
    member_name,
    plain_global_name,
    plain_member_name,
    safe_name,
    visible,
)
from cogs.umtali.options import (
    TIME_CONTROLS,
    VARIANTS,
    chosen_control,
    server_control,
    timer_refusal,
)
from cogs.umtali.panels import resign_panel
from cogs.umtali.permissions import no_posting
from cogs.umtali.practice import start_practice
from cogs.umtali.private import send_private
from cogs.umtali.records import SCOPES, count_backlog, show_leaderboard
from cogs.umtali.reminders import TurnNotices
from cogs.umtali.resigning import UNSAVED, Gone, opponent_absence, resign_question, unsaved
from cogs.umtali.rules_panel import show_rules
from cogs.umtali.rules_text import PAGES
from cogs.umtali.seasons import season_choices
from cogs.umtali.stats import show_stats
from cogs.umtali.stops import unblock as lift_stop
from cogs.umtali.suggesting import suggested
from cogs.umtali.tables import post_table
from cogs.umtali.text_cuts import head
from umtali.i18n import ENGLISH, Tr
from umtali.letters import found_in, spellings
from umtali.moves import Move, MoveKind, face_up_text
from umtali.rules import RuleSet
from umtali.text import move_meaning
from umtali.view import PlayerView

LEVELS = [
    app_commands.Choice(name="easy: lays what it can, keeps it simple", value="easy"),
    app_commands.Choice(name="normal: plans its hand", value="normal"),
    app_commands.Choice(name="hard: searches ahead", value="hard"),
]
#: The longest text ``/umtali play`` takes (Discord's client refuses more; it would send 6,000
#: characters). The longest legal move written the long way, a ten-card sequence as
#: "meld ♠️10, ♠️9, …, ♠️A", is 54; room for stray spaces, and an answer quotes it whole
#: (MAX_ECHO).
MAX_MOVE = 100


def move_choices(view: PlayerView, typed: str, tr: Tr) -> list[app_commands.Choice[str]]:
    """The seat's legal moves matching what was typed (in the notation, read as the move would
    be, or in the member's words), at most 25. The value is the notation; the label says it in
    the member's language (English reads the notation itself)."""
    # As /umtali play reads it: hidden characters (pasted along) do not hide every move, and
    # look-alike letters of the other alphabet read in the member's language.
    text = visible(typed)
    if len(text) > MAX_MOVE:
        return []  # (no move is this long: sent only by a command synced without the limit)
    words = [spellings(w, tr.lang) for w in text.replace(",", " ").split()]
    choices = []
    legal = view.legal_moves
    for m in legal:
        # As typed here a last card goes face down unless said up: its face-up twin says so.
        value = face_up_text(m, legal)
        shown = m.text(symbols=True) + value[len(str(m)):]
        if tr.lang != ENGLISH:
            # The member's words first, the notation's word after (what /umtali play reads:
            # the value filled in): the cards said once, not twice, on a phone's narrow list.
            shown = f"{move_meaning(view, m, tr)} ({_keyword(m)})"
        if not found_in(words, value.lower()) and not found_in(words, shown.lower()):
            continue
        choices.append(app_commands.Choice(name=head(shown, 100), value=value))
    return choices[:25]


def _keyword(move: Move) -> str:
    """The notation's word for ``move``: ``meld``, ``extend``, ``discard``, ``draw``, ``take``,
    ``take 2``."""
    return "take 2" if move.kind is MoveKind.TAKE_TWO else str(move).split()[0]


def _sees_channel(interaction: discord.Interaction, member: discord.Member) -> bool:
    """Whether ``member`` can see the interaction's channel: as Discord resolved it with the
    command, else from the server's roles and the channel's overwrites."""
    perms = member.resolved_permissions
    if perms is None:
        channel = interaction.channel
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return True
        perms = channel.permissions_for(member)
    return perms.view_channel


def _unable(interaction: discord.Interaction, opponent: discord.Member | discord.User,
            tr: Tr) -> str | None:
    """Why ``opponent`` (anyone but the bot) cannot be challenged here, if they cannot."""
    if not isinstance(opponent, discord.Member):
        return tr("{name} is not a member of this server.", name=member_name(opponent))
    if opponent.bot:
        practice = "/umtali " + tr.ctx("command", "practice")
        return tr("Bots can't accept challenges; to play the computer, use {command}.",
                  command=practice)
    if not _sees_channel(interaction, opponent):
        # They would never see the challenge (nor its ping): it could only expire.
        return tr("{name} can't see this channel: challenge them in a channel you both can "
                  "see.", name=member_name(opponent))
    return None


async def _my_match(interaction: discord.Interaction) -> LiveMatch | None:
    """The user's match on this server; if none, they are told so."""
    assert interaction.guild is not None
    # Asked of the database: the match may be held by another process.
    live = await in_time(interaction, service(interaction.client).member_match(
        interaction.guild.id, interaction.user.id))
    if live is None:
        tr = tr_of(interaction)
        await answer(interaction, tr("You are not playing a match on this server."))
    return live


# Installed to a server only: left to the application's settings, a User Install ticked there
# would offer the commands in any server a member uses, the bot in it or not, where it answers
# a command but may post nothing of its own (a challenge posted, its table refused).
@app_commands.allowed_installs(guilds=True, users=False)
class UmtaliCog(commands.GroupCog, group_name="umtali",
                group_description="Play Umtali, a two-player rummy game"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Discord keeps a command out of DMs by its top-level command alone: this group is
        # open there (for rules and display), so its server commands refuse for themselves.
        if interaction.guild is None and getattr(interaction.command, "guild_only", False):
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(description="Challenge a member to a session of Umtali")
    @app_commands.describe(
        opponent="The member you want to play",
        variant="The rule set (default: this server's)",
        turn_timer="Minutes for each turn, 0 for no limit (default: this server's)",
        optional_melding="House rule: players may keep meldable cards (default: this server's)",
        time_control="The clock: a turn's time and a reserve (default: this server's)",
    )
    @app_commands.choices(variant=VARIANTS, time_control=TIME_CONTROLS)
    @app_commands.guild_only()
    async def challenge(
        self, interaction: discord.Interaction,
        # A User when Discord sends no member: someone who left the server (answered below).
        opponent: discord.Member | discord.User,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Range[int, 0, 60] | None = None,
        optional_melding: bool | None = None,
        time_control: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild is not None and interaction.channel is not None
        svc = service(interaction.client)
        tr = tr_of(interaction)
        me = interaction.user
        if refused := timer_refusal(turn_timer, tr, time_control) or no_posting(interaction):
            await interaction.response.send_message(refused, ephemeral=True)
            return
        if opponent.id == me.id:
            await interaction.response.send_message(tr("You can't challenge yourself."),
                                                    ephemeral=True)
            return
        to_bot = interaction.client.user is not None and opponent.id == interaction.client.user.id
        if not to_bot and (refused := _unable(interaction, opponent, tr)):
            await interaction.response.send_message(refused, ephemeral=True)
            return
        # The first wait on the database: past two seconds the command is acknowledged
        # (``in_time``), in public for a practice session, whose offer replaces it.
        settings = await in_time(interaction, svc.store.guild_settings(interaction.guild.id),
                                 public=to_bot)
        rules_name = variant.value if variant else settings.variant
        melding = settings.optional_melding if optional_melding is None else optional_melding
        control, timer = chosen_control(time_control.value if time_control else None,
                                        turn_timer, server_control(settings))
        if to_bot:
            # Challenging the bot itself is a practice session at the normal level, with the
            # clock the challenge chose.
            await start_practice(interaction, level="normal", turn_timer=timer,
                                 time_control=control,
                                 rules=RuleSet.named(rules_name, optional_melding=melding))
            return
        assert isinstance(opponent, discord.Member)
        await offer_challenge(
            interaction, challenger=(me.id, plain_member_name(me)),
            opponent=(opponent.id, plain_member_name(opponent)),
            shown=(member_name(me), member_name(opponent)), variant=rules_name,
            optional_melding=melding, turn_timer=timer, time_control=control,
            global_names=(plain_global_name(me), plain_global_name(opponent)))

    @app_commands.command(description="Play a session against the computer")
    @app_commands.describe(
        level="How strong the computer plays (default: normal)",
        variant="The rule set (default: this server's)",
        turn_timer="Minutes for each of your turns, 0 for no limit (default: this server's)",
    )
    @app_commands.choices(level=LEVELS, variant=VARIANTS)
    @app_commands.guild_only()
    async def practice(
        self, interaction: discord.Interaction,
        level: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Range[int, 0, 60] | None = None,
    ) -> None:
        assert interaction.guild is not None
        if refused := timer_refusal(turn_timer, tr_of(interaction)) or no_posting(interaction):
            await interaction.response.send_message(refused, ephemeral=True)
            return
        # Acknowledged in public past two seconds (``in_time``): the offer replaces it.
        settings = await in_time(interaction, service(interaction.client).store.guild_settings(
            interaction.guild.id), public=True)
        rules = RuleSet.named(variant.value if variant else settings.variant,
                              optional_melding=settings.optional_melding)
        # The clock is chosen as a challenge's: the turn timer given, or the server's default.
        control, timer = chosen_control(None, turn_timer, server_control(settings))
        await start_practice(
            interaction, level=level.value if level else "normal", rules=rules,
            turn_timer=timer, time_control=control)

    @app_commands.command(description="Make a move in the notation, e.g. draw or meld 8D 9D 10D")
    @app_commands.describe(move="draw, take, take 2, meld <cards>, extend <card> <card>, "
                                "discard <card> [up]")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction,
                   move: app_commands.Range[str, None, MAX_MOVE]) -> None:
        live = await _my_match(interaction)
        if live is not None:
            await play_text(interaction, live.id, move, typed_by_hand=True)

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild is None:
            return []
        svc = service(interaction.client)
        # The match held here first: no read on every key typed (``suggesting``).
        live = svc.match_of(interaction.guild.id, interaction.user.id) or await suggested(
            interaction, svc.member_match(interaction.guild.id, interaction.user.id),
            "/umtali play's moves")
        seat = None if live is None else live.seat_of(interaction.user.id)
        if live is None or seat is None:
            return []
        return move_choices(live.session.view(seat), current, tr_of(interaction))

    @app_commands.command(description="Resign the session: your opponent wins it")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        live = await _my_match(interaction)
        if live is None:
            return
        tr = tr_of(interaction)
        seat = live.seat_of(interaction.user.id)
        assert seat is not None
        # Said as its "Yes" will do it: no result, where the opponent of a match with no clock
        # cannot be reached (left the server; or may not see the match, DMs closed).
        # Only a day after they were first found so (``resigning.NO_RESULT_AFTER``): before,
        # a resignation, said so.
        absence = await opponent_absence(interaction, live, seat)
        if absence == UNSAVED:
            await answer(interaction, unsaved(safe_name(live.names_in(tr)[1 - seat]), tr))
            return
        gone = absence if isinstance(absence, Gone) else None
        now = service(interaction.client).clock()
        void = gone is not None and gone.over(now)
        await send_private(interaction, resign_panel(live.id, live.version, tr, void=void),
                           content=resign_question(live, seat, gone, now, tr))

    @app_commands.command(description="Post the table of your match (or this thread's) again")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        await post_table(interaction)

    @app_commands.command(description="How your own panels look: pictures, four colours")
    @app_commands.describe(pictures="Show your hand as a picture (off: text alone)",
                           four_colour="Diamonds blue and clubs green in your hand's picture")
    async def display(self, interaction: discord.Interaction, pictures: bool | None = None,
                      four_colour: bool | None = None) -> None:
        await set_display(interaction, pictures, four_colour)

    @app_commands.command(description="Take challenges again from a member you stopped")
    @app_commands.describe(member="Whose challenges you take again")
    async def unblock(self, interaction: discord.Interaction, member: discord.User) -> None:
        await lift_stop(interaction, member)

    @app_commands.command(description="The rules of Umtali, page by page")
    @app_commands.describe(page=f"Page 1 to {len(PAGES)}")
    async def rules(self, interaction: discord.Interaction,
                    page: app_commands.Range[int, 1, len(PAGES)] = 1) -> None:
        await show_rules(interaction, page, turned=False)

    @app_commands.command(description="The best players by rating, on this server or all")
    @app_commands.describe(scope="This server (default) or all servers", page="Page of the board",
                           season="A season of this server, or all time (default: the current "
                                  "season, when the server runs seasons)")
    @app_commands.choices(scope=SCOPES)
    @app_commands.autocomplete(season=season_choices)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction,
                          scope: app_commands.Choice[str] | None = None,
                          page: app_commands.Range[int, 1, 100_000] = 1,
                          season: app_commands.Range[str, 1, 40] | None = None) -> None:
        await show_leaderboard(interaction, scope.value if scope else "server", page, season)

    @app_commands.command(description="A member's record: ratings, totals, recent sessions")
    @app_commands.describe(member="Whose record (default: yours)",
                           versus="Also show the head-to-head against this member")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None,
                    versus: discord.User | None = None) -> None:
        await show_stats(interaction, member or interaction.user, versus)

    @app_commands.command(
        description="A member's recent sessions here, each with its replay file and deals file")
    @app_commands.describe(member="Whose sessions (default: yours)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction,
                      member: discord.User | None = None) -> None:
        await show_history(interaction, member or interaction.user)

    async def cog_load(self) -> None:
        # Results kept before records existed are counted at start-up, once each.
        await count_backlog(self.bot)
        await load_orders(self.bot)
        # By correspondence, a DM tells a player their turn has come.
        svc = service(self.bot)
        svc.hand_listeners.append(TurnNotices(svc))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(UmtaliCog(bot))
    await bot.add_cog(UmtaliAdminCog(bot))
    # The cut typed in its modal: handled by its custom id, whatever discord.py remembers.
    bot.add_listener(cut_submitted, "on_interaction")
