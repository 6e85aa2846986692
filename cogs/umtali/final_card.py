"""The session's final card: how it ended, game by game and hand by hand, each player's rating
before and after (or "practice, not rated"), the deals' commitment and its reveal, and a
button for the replay file and the deals file.

It rides on the table message's last edit, which happens anyway when a session ends, under
the table itself: no call of its own, and a restart that re-sends the table re-sends it. A
session whose ratings could not be counted as it ended has its card edited once they are
(``show_counted``).
"""

from __future__ import annotations

import functools
import logging
import re
import weakref
from typing import TYPE_CHECKING, Any

import discord

from cogs.umtali.archived import reopened
from cogs.umtali.calendar_words import season_name
from cogs.umtali.errors import guarded
from cogs.umtali.failures import GONE, PASSING
from cogs.umtali.ids import id_of
from cogs.umtali.names import safe_name
from cogs.umtali.numbers import one_decimal, score, session_over
from cogs.umtali.options import level_word, rules_words
from cogs.umtali.render import COLOUR
from cogs.umtali.text_cuts import head
from data.failing import failing_for_now
from umtali.i18n import EN, N_, Tr
from umtali.text import HOW

if TYPE_CHECKING:
    from cogs.umtali.live import LiveMatch
    from cogs.umtali.service import MatchService

log = logging.getLogger(__name__)

#: A session counted late has its final card shown again only if it ended this recently (in
#: seconds): a count that failed as the session ended is swept within minutes, or at the next
#: start; older ones were kept before records existed, their tables long scrolled away.
RECOUNT_SHOWN_FOR = 24 * 3600.0


async def final_embed(svc: MatchService, live: LiveMatch, tr: Tr) -> discord.Embed:
    session = live.session
    assert session.over
    names = [safe_name(n) for n in live.names_in(tr)]
    w = session.winner
    won = session.games_won
    embed = discord.Embed(
        title=session_over(tr, names[w], won[w], won[1 - w]),
        colour=COLOUR)
    how = session.how or "played out"
    ended = tr("played out") if how == "played out" else tr(
        "{name} {how}", name=names[1 - w], how=tr(HOW[how]) if how in HOW else how)
    embed.description = tr("Rules: {rules} · {how}", rules=rules_words(
        tr, session.rules.name, session.rules.optional_melding), how=ended)
    hands = await svc.store.records.hands(live.id)
    games: dict[int, list[str]] = {}
    for h in hands:
        # As the session's own score is written: English "24–0", Russian «24:0».
        games.setdefault(h.game, []).append(score(tr, h.scores[0], h.scores[1]))
    if games:
        embed.add_field(name=tr("Games and hands ({first} – {second})", first=names[0],
                                second=names[1]),
                        value=head("\n".join(tr("Game {game}: {hands}", game=g,
                                                hands=" · ".join(scores))
                                             for g, scores in sorted(games.items())), 1024),
                        inline=False)
    embed.add_field(name=tr("Ratings"), value=await ratings(svc, live, tr), inline=False)
    if live.commitment:
        # Said once (review164): the seed, salt, cut and the check by hand are in the session's
        # last announcement, which links here; the card says where, and which file checks.
        embed.add_field(name=tr("Fair deals"), value=tr(
            "The seed and salt are revealed in the session's last announcement, with the "
            "check by hand. {files}", files=files(tr)), inline=False)
    return embed


#: Under a session's rating changes: what a rating is, and why it moves as it does.
CAUTIOUS = N_("A rating is a cautious estimate of skill (μ − 3σ, as on the board): it moves most "
              "in your first sessions and rises as you play more.")


def files(tr: Tr) -> str:
    """What the button under the card gives, and which of its two files checks the deals."""
    return tr("**{button}** below sends the session's replay file (its moves) and its deals "
              "file, which `python3 -m umtali verify` checks.", button=tr("Session files"))


async def ratings(svc: MatchService, live: LiveMatch, tr: Tr) -> str:
    """Each player's rating before and after the finished session, or why there is none."""
    if live.computer_level is not None:
        return tr("Practice against the computer ({level}), not rated.",
                  level=level_word(tr, live.computer_level))
    names = [safe_name(n) for n in live.names_in(tr)]
    changes = await svc.store.records.rating_changes(live.id)
    if not changes:
        return tr("Ratings are not counted yet.")

    def lines(moved: dict[int, tuple[float, float]]) -> list[str]:
        # Decimals as the reader's language writes them (19,5 in Russian).
        return [tr("{name}: {before} → {after}", name=names[seat],
                   before=one_decimal(tr, before), after=one_decimal(tr, after))
                for seat, (before, after) in sorted(moved.items())]

    # Why a first loss goes below zero and the two changes differ (review164), in the board's
    # words (RATING_NOTE).
    why = tr(CAUTIOUS)
    season = await svc.store.records.season_changes(live.id)
    if season is None:
        return "\n".join([*lines(changes), why])
    # The server's board shows the season: its figures first, each set named.
    return "\n".join([tr("{season} season:", season=season_name(tr, season[0])), *lines(season[1]),
                      tr("All time:"), *lines(changes), why])


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"umtali:rf:(?P<guild>[0-9]+):(?P<match>[0-9]+)"):
    """The replay file and deals file of a finished session, privately, for anyone who asks
    (the session is over: nothing in them is secret any more)."""

    def __init__(self, guild_id: int, match_id: int, tr: Tr = EN) -> None:
        super().__init__(discord.ui.Button(
            label=tr("Session files"), style=discord.ButtonStyle.secondary,
            custom_id=f"umtali:rf:{guild_id}:{match_id}"))
        self.guild_id, self.match_id = guild_id, match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayButton:
        return cls(id_of(match["guild"]), id_of(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.umtali.history import send_replay

        await guarded(interaction,
                      lambda: send_replay(interaction, self.guild_id, self.match_id))


def final_panel(live: LiveMatch, tr: Tr) -> discord.ui.View:
    from cogs.umtali.rematch import RematchButton  # (the rematch reaches the challenges)

    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(live.id, tr))
    view.add_item(ReplayButton(live.guild_id, live.id, tr))
    return view


FINAL_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ReplayButton,)


#: By service, the sessions whose card Discord could not take for now (``show_counted``).
_owed: weakref.WeakKeyDictionary[MatchService, set[int]] = weakref.WeakKeyDictionary()


async def show_counted(svc: MatchService, match_ids: list[int]) -> None:
    """The final cards of sessions counted late (their count failed as they ended, and said
    "not counted yet") show the ratings now: each table edited in place, never posted again.
    Never raises: a card Discord cannot take for now (a 5xx, the network) is tried again with
    the next ones (the next season tick); one gone for good keeps its old text."""
    now = svc.clock()
    owed = _owed.setdefault(svc, set())
    for match_id in sorted(owed | set(match_ids)):
        owed.discard(match_id)
        try:
            row = await svc.store.match(match_id)
            if (row is None or row.computer_level is not None or row.finished_at is None
                    or now - row.finished_at > RECOUNT_SHOWN_FOR):
                continue  # practice is never rated; an old table is left as it is
            live = await svc.lookup(match_id)
            if (live is None or not live.over or live.abandoned or live.channel_lost
                    or live.table_message_id is None):
                continue
            # Its thread archived since (a day on, or by a moderator): brought back for the
            # edit, and archived again, as it was.
            await reopened(svc.client, live.channel_id, functools.partial(
                _edit_final, svc, live), archive_again=True)
        except PASSING as e:
            owed.add(match_id)
            log.info("match %d: its final card could not show the ratings counted late yet "
                     "(%s: %s); trying again", match_id, e.__class__.__name__, e)
        except GONE as e:
            log.info("match %d: its final card could not show the ratings counted late (%s: "
                     "%s)", match_id, e.__class__.__name__, e)
        except Exception as e:
            if not failing_for_now(e):
                log.exception("match %d: its final card could not show the ratings counted "
                              "late", match_id)
                continue
            # The database busy or out of reach: no bug, and tried again with the next ones.
            owed.add(match_id)
            log.info("match %d: its final card could not show the ratings counted late yet "
                     "(%s: %s); trying again", match_id, e.__class__.__name__, e)


async def _edit_final(svc: MatchService, live: LiveMatch) -> None:
    """The finished table edited with its final card as it is now (drawn for each try: a
    file is read once)."""
    assert live.table_message_id is not None
    tr = svc.public_tr(live)
    table = await svc.table_message(live).drawn()
    table.embeds.append(await final_embed(svc, live, tr))
    await svc.client.get_partial_messageable(live.channel_id).get_partial_message(
        live.table_message_id).edit(embeds=table.embeds, attachments=table.files,
                                    view=final_panel(live, tr))
