"""How a match looks to each reader: the public table in its server's language, each seat's hand
and DM panel in its player's language and as they chose them to look.

Mixed into ``cogs.umtali.service.MatchService``, which gives it the Discord client, whether
pictures are on, and the members' and servers' choices.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import discord

from cogs.umtali.announcing import your_turn
from cogs.umtali.arrange import HandOrder
from cogs.umtali.judged import judged_deadline
from cogs.umtali.live import LiveMatch
from cogs.umtali.out_of_reach import addressed
from cogs.umtali.prefs import Preferences
from cogs.umtali.showing import Look, Seen, Shown, dm_panel_of, hand_of, table_of
from umtali.i18n import Tr
from umtali.session import Session

if TYPE_CHECKING:
    from cogs.umtali.service import MatchService


class Looks:
    client: discord.Client
    pictures: bool
    prefs: Preferences
    clock: Callable[[], float]

    def _judged(self, live: LiveMatch) -> float | None:
        """The turn's deadline as the clock judges it now: what the table and the panels say
        (time owed and not saved yet, an outage under way, counted in)."""
        return judged_deadline(cast("MatchService", self), live, self.clock())

    def table_message(self, live: LiveMatch, note: str = "") -> Shown:
        """The public table: its text, and its picture unless pictures are off or the bot
        may no longer attach files in the match's channel."""
        look = self.table_look(live)
        if look.pictures and not self._may_attach(live):
            look = dataclasses.replace(look, pictures=False)
        return table_of(live, note, look, judged=self._judged(live))

    def _may_attach(self, live: LiveMatch) -> bool:
        """Whether the bot may attach a file in the match's channel, as far as it knows (its
        permissions are checked when a match starts; an admin may take them away later):
        Discord refuses a whole message whose file it may not attach, and a table refused so
        would take the match out of its channel."""
        channel = self.client.get_channel(live.channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return True  # not known here: tried, as before
        me = channel.guild.me
        return me is None or channel.permissions_for(me).attach_files

    def table_embed(self, live: LiveMatch, note: str = "") -> discord.Embed:
        """The public table's text alone."""
        return table_of(live, note, Look(self.public_tr(live), pictures=False),
                        judged=self._judged(live)).embed

    def hand_message(self, live: LiveMatch, seat: int, note: str = "") -> tuple[
            discord.Embed, discord.ui.View]:
        """The seat's hand panel as text and components (see ``hand_shown`` for the picture)."""
        look = dataclasses.replace(self.hand_look(live, seat), pictures=False)
        shown = hand_of(live, seat, note, look, self._judged(live))
        assert shown.view is not None
        return shown.embed, shown.view

    def hand_shown(self, live: LiveMatch, seat: int, note: str = "", tr: Tr | None = None) -> \
            Shown:
        """The seat's hand panel with its picture (for that seat's eyes only), as its player
        chose it to look. ``tr``: the language of the interaction it answers, when it answers
        one (the language kept for the member may not have caught up with their client yet)."""
        look = self.hand_look(live, seat)
        if tr is not None:
            look = dataclasses.replace(look, tr=tr)
        live.pane_look[seat] = look.seen
        return hand_of(live, seat, note, look, self._judged(live))

    def dm_panel(self, live: LiveMatch, seat: int, note: str = "") -> Shown:
        look = self.hand_look(live, seat)
        table = dataclasses.replace(look, order=HandOrder.SUIT)  # in their DM: their language
        return dm_panel_of(live, seat, note, look, table, self._judged(live))

    def hand_seen(self, live: LiveMatch, seat: int) -> Seen:
        """What the seat's own panels, unasked (no interaction's language), look like now."""
        return self.hand_look(live, seat).seen

    def table_look(self, live: LiveMatch) -> Look:
        return Look(self.public_tr(live), pictures=self._pictures(live))

    def hand_look(self, live: LiveMatch, seat: int) -> Look:
        """The seat's own panels: their language, and as they chose them to look."""
        prefs = self.prefs.of(live.player_ids[seat])
        return Look(self.prefs.member_tr(prefs.user_id),
                    pictures=self._pictures(live) and prefs.pictures,
                    four_colour=prefs.four_colour, order=HandOrder.read(prefs.hand_order))

    def _pictures(self, live: LiveMatch) -> bool:
        return self.pictures and live.guild_id not in self.prefs.plain_guilds

    def _guild_locale(self, guild_id: int) -> str | None:
        guild = self.client.get_guild(guild_id)
        return None if guild is None else str(guild.preferred_locale)

    def public_tr(self, live: LiveMatch) -> Tr:
        """The language of the match's public messages: its server's."""
        return self.prefs.guild_tr(live.guild_id)

    def seat_tr(self, live: LiveMatch, seat: int) -> Tr:
        """The language of what reaches a seat's player unasked (their DMs)."""
        return self.prefs.member_tr(live.player_ids[seat])

    def answered_on_dm(self, live: LiveMatch, seat: int, message_id: int,
                       version: int) -> None:
        """The answer to an action is about to show the seat's hand at ``version`` on
        ``message_id``: if that is the seat's DM panel, it needs no edit of its own for it."""
        if message_id == live.dm_message_ids[seat] and not live.channel_lost:
            live.dm_shown[seat], live.dm_look[seat] = version, self.hand_seen(live, seat)

    def _your_turn(self, live: LiveMatch, session: Session | None = None) -> str:
        mention = self._turn_mention(live, session)
        return your_turn(self.public_tr(live), mention) if mention else ""

    def _turn_mention(self, live: LiveMatch, session: Session | None = None) -> str:
        """Whom the "your turn" line addresses ('' for none: the session over, or the
        computer to act)."""
        session = session or live.session
        if session.over or live.is_computer(session.to_act):
            return ""
        # Known out of reach (their refused DMs' notice found them so): named, not pinged.
        return addressed(live, session.to_act, self.public_tr(live))[0]
