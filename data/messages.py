"""The store's queries on where a match is shown: its channel, its table message, each
player's DM panel (and the turn it told), what is still to be announced, and a practice's
reviews sent (``data.store.Store`` has them all)."""

from __future__ import annotations

import json

from data.db import Database, Row, Tx
from data.models import UNTOLD, AsSaved, DmPanel, Place

#: The columns of ``matches`` that ``panels_of`` reads.
PANEL_COLUMNS = ("dm0_channel_id, dm0_message_id, dm0_sending, dm0_told, dm1_channel_id, "
                 "dm1_message_id, dm1_sending, dm1_told")


def panels_of(row: Row) -> tuple[DmPanel, DmPanel]:
    """Each seat's DM panel in a row holding ``PANEL_COLUMNS``."""
    return (DmPanel(row["dm0_channel_id"], row["dm0_message_id"], bool(row["dm0_sending"]),
                    row["dm0_told"]),
            DmPanel(row["dm1_channel_id"], row["dm1_message_id"], bool(row["dm1_sending"]),
                    row["dm1_told"]))


async def read_saved(c: Tx, match_id: int, into: AsSaved) -> None:
    """Where the match is shown as saved, read in the transaction ``c`` into ``into``."""
    row = await c.fetchone("SELECT channel_id, table_message_id, channel_lost, deadline, "
                           f"warned, reserve0, reserve1, question, resend, {PANEL_COLUMNS} "
                           "FROM matches WHERE id = ?", (match_id,))
    if row is not None:
        into.panels = panels_of(row)
        into.place = Place(int(row["channel_id"]), row["table_message_id"],
                           bool(row["channel_lost"]))
        deadline = row["deadline"]
        into.deadline = None if deadline is None else float(deadline)
        into.warned = bool(row["warned"])
        into.warned_at = into.deadline if into.warned else None
        into.reserves = (float(row["reserve0"]), float(row["reserve1"]))
        into.question = row["question"] or ""
        into.resend = row["resend"] or ""


#: The key of ``matches.resend`` (``cogs.umtali.outbox.Batch``) saying the challenge message's
#: end line is owed.
END_LINE = "ended"
#: ``matches.resend`` owing the end line alone, as ``owe_end_line`` writes it when nothing else
#: was owed (nearly always).
ENDED_ALONE = json.dumps({END_LINE: True}, separators=(",", ":"))


async def owe_end_line(c: Tx, match_id: int) -> None:
    """The match ending in ``c``: the line its challenge message ends with (how it ended, and
    a link to the final card: ``cogs.umtali.session_end``) is owed from now on, saved with
    the end (fix161: told after the final table's edit, a stop between lost it, the match no
    longer in play). Its delivery clears it once told; a process taking the match over tells
    it. None with the channel lost: nothing more is posted for the match."""
    # Nothing else owed, as nearly always: one write (fix169).
    cur = await c.execute("UPDATE matches SET resend = ? WHERE id = ? AND resend = '' AND "
                          "channel_lost = 0", (ENDED_ALONE, match_id))
    if cur.rowcount == 1:
        return
    row = await c.fetchone("SELECT resend, channel_lost FROM matches WHERE id = ?", (match_id,))
    if row is None or row["channel_lost"]:
        return
    try:
        owed = json.loads(row["resend"]) if row["resend"] else {}
    except ValueError:
        owed = {}
    if not isinstance(owed, dict):
        owed = {}  # (no bot wrote it: as ``Batch.loads`` reads it, nothing)
    owed[END_LINE] = True
    await c.execute("UPDATE matches SET resend = ? WHERE id = ?",
                    (json.dumps(owed, separators=(",", ":")), match_id))


async def panels_in(c: Tx, match_id: int) -> tuple[DmPanel, DmPanel] | None:
    """Each seat's DM panel as saved, read in the transaction ``c``."""
    row = await c.fetchone(f"SELECT {PANEL_COLUMNS} FROM matches WHERE id = ?", (match_id,))
    return None if row is None else panels_of(row)


class MessageQueries:
    """Mixed into ``data.store.Store``, which gives it its database."""

    db: Database

    async def set_opening(self, match_id: int, pending: str) -> None:
        """The deal's lines, before any move: announced with the first turn (the computer's,
        which leads), saved as its turn's lines are (``pending``)."""
        async with self.db.transaction() as c:
            await c.execute("UPDATE matches SET pending = ? WHERE id = ? AND version = 0",
                            (pending, match_id))

    async def set_match_channel(self, match_id: int, channel_id: int) -> None:
        async with self.db.transaction() as c:
            await c.execute("UPDATE matches SET channel_id = ? WHERE id = ?",
                            (channel_id, match_id))

    async def move_match(self, match_id: int, channel_id: int, table_message_id: int,
                         was: tuple[int, int | None, bool], version: int,
                         owner: str = "", lease_until: float = 0.0) -> bool:
        """The match is played in ``channel_id`` from now on, its live table there, if it
        was still where it was read (``was``: its channel, table and whether the channel
        was lost) at ``version``, and in play: False if another process moved its table or
        the match on since, or ended it (an ending keeps the place it was ended in).
        ``owner`` holds it from then on (until ``lease_until``): a copy that moved the table
        is the one that edits it."""
        at, table, lost = was
        held = ", owner = ?, lease_until = ?" if owner else ""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET channel_id = ?, table_message_id = ?, channel_lost = 0, "
                f"dm0_lost_untold = 0, dm1_lost_untold = 0{held} "
                "WHERE id = ? AND channel_id = ? AND COALESCE(table_message_id, 0) = ? "
                "AND channel_lost = ? AND version = ? AND status = 'active'",
                (channel_id, table_message_id, *((owner, lease_until) if owner else ()),
                 match_id, at, table or 0, int(lost), version))
            return cur.rowcount == 1

    async def note_table_posted(self, match_id: int, channel_id: int, now: float,
                                every: float) -> tuple[float, float]:
        """A player posts the match's live table again in its own channel ``channel_id`` at
        ``now`` (``/umtali table``): noted, and (0, ``now``), unless a table was posted so
        there less than ``every`` seconds before: then the seconds still to wait and when that
        post was noted (for ``note_table_gone``), nothing noted. Checked and noted in one
        statement: two commands racing cannot both pass. A match whose channel is lost, or in
        another channel by now, is never held back (0, nothing noted): the table brought where
        the players are."""
        async with self.db.transaction() as c:
            # A note ahead of this clock by more than ``every`` (a clock set back since, or
            # another process's clock ahead) holds nothing back: it would for the whole gap.
            # The table it replaces noted with it: one found deleted meanwhile is being
            # replaced already (``note_table_gone``).
            cur = await c.execute(
                "UPDATE matches SET table_posted_at = ?, table_replaced_id = table_message_id "
                "WHERE id = ? AND channel_id = ? AND channel_lost = 0 "
                "AND (table_posted_at <= ? OR table_posted_at > ?)",
                (now, match_id, channel_id, now - every, now + every))
            if cur.rowcount == 1:
                return 0.0, now
            row = await c.fetchone("SELECT channel_id, channel_lost, table_posted_at FROM "
                                   "matches WHERE id = ?", (match_id,))
        if row is None or row["channel_id"] != channel_id or row["channel_lost"]:
            return 0.0, now
        last = float(row["table_posted_at"])
        return last + every - now, last

    async def note_table_gone(self, match_id: int, channel_id: int, table_message_id: int,
                              last: float, now: float) -> bool:
        """The live table ``table_message_id``, held back by the post noted at ``last``
        (``note_table_posted``), was found deleted: a post at ``now`` is noted all the same,
        and True, if the match's live table is still that one, no other post was noted since,
        and the one noted was not to replace it (the other player's, posted again or after
        finding it deleted too, on its way, its table not yet saved: one new table, not
        two)."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET table_posted_at = ?, table_replaced_id = table_message_id "
                "WHERE id = ? AND channel_id = ? AND channel_lost = 0 AND table_message_id = ? "
                "AND table_posted_at = ? "
                "AND (table_replaced_id IS NULL OR table_replaced_id <> ?)",
                (now, match_id, channel_id, table_message_id, last, table_message_id))
            return cur.rowcount == 1

    async def unnote_table_posted(self, match_id: int, noted: float) -> None:
        """The post noted at ``noted`` (``note_table_posted``) never went out: the next one
        is not held back by it."""
        async with self.db.transaction() as c:
            await c.execute("UPDATE matches SET table_posted_at = 0 WHERE id = ? AND "
                            "table_posted_at = ?", (match_id, noted))

    async def set_channel_lost(self, match_id: int, channel_id: int,
                               saved: AsSaved | None = None) -> tuple[bool, bool] | None:
        """The match's channel ``channel_id`` refused the bot for good: what was waiting to be
        posted there is dropped (the players see the table with their hands instead), and both
        seats are to be told so (``set_dm_message(lost_told=)``). Each seat still to be told,
        as saved: a channel another process lost already keeps what that one told. None if
        the match is in another channel now (``move_match``, since the copy that found
        ``channel_id`` refused was read): nothing is lost, the match is live there.
        ``saved``: filled with where the match is shown as saved with the loss (another
        process that lost the channel first told the player to act its turn by a new panel,
        say)."""

        async def job(c: Tx) -> tuple[bool, bool] | None:
            await c.execute("UPDATE matches SET channel_lost = 1, unsent = '[]', "
                            "dm0_lost_untold = 1, dm1_lost_untold = 1 "
                            "WHERE id = ? AND channel_lost = 0 AND channel_id = ?",
                            (match_id, channel_id))
            row = await c.fetchone("SELECT channel_id, dm0_lost_untold, dm1_lost_untold "
                                   "FROM matches WHERE id = ?", (match_id,))
            if row is None:
                return False, False
            if row["channel_id"] != channel_id:
                return None
            if saved is not None:
                await read_saved(c, match_id, saved)
            return bool(row["dm0_lost_untold"]), bool(row["dm1_lost_untold"])

        return await self.db.batched(job)

    async def set_table_message(self, match_id: int, message_id: int) -> None:
        async with self.db.transaction() as c:
            await c.execute("UPDATE matches SET table_message_id = ? WHERE id = ?",
                            (message_id, match_id))

    async def replace_table_message(self, match_id: int, message_id: int, *, channel_id: int,
                                    was: int) -> bool:
        """The table ``was`` (deleted by someone) is replaced by ``message_id`` in the same
        channel, if it is still the live one: False if another process moved the table since
        (``/umtali table``), whose table stays the live one."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                "UPDATE matches SET table_message_id = ? WHERE id = ? AND channel_id = ? "
                "AND table_message_id = ? AND channel_lost = 0",
                (message_id, match_id, channel_id, was))
            return cur.rowcount == 1

    async def set_dm_message(self, match_id: int, seat: int, channel_id: int,
                             message_id: int, *, at_version: int | None = None,
                             owner: str = "", told: str | None = None,
                             lost_told: bool = False, reopened: bool = False) -> bool:
        """``message_id`` is the seat's DM panel from now on; with ``at_version``, only if
        ``owner`` (the sending process) still holds the match, or it is still at the version
        that panel shows, or another process took this very panel as the seat's already:
        False if another process moved it on meanwhile (and edits the panel it knows), or a
        newer panel was saved meanwhile (ids grow with time: the process the match was taken
        from saving one sent before the new holder's own).
        ``told``: the turn that new panel told the seat of (``dm_told``); ``lost_told``: it
        told the seat that the match's channel was lost (saved so even if the panel is not:
        the seat was told all the same, and the holder is not to tell it again).
        ``reopened``: a panel tried again in DMs that refused the bot (``dms_again``), which
        reached them: their refusal cleared in the same write (one written apart, lost as the
        bot stops, left the seat taken for closed with its new panel offering moves), and
        saved only by the match's holder ``owner``, in play with its channel (a refusal with
        the channel lost abandoned it, and is never taken back)."""
        at = "" if at_version is None else \
            f" AND (owner = ? OR version = ? OR dm{seat}_message_id = ?)" \
            f" AND (dm{seat}_message_id IS NULL OR dm{seat}_message_id <= ?)"
        telling = "" if told is None else f", dm{seat}_told = ?"
        if lost_told:
            telling += f", dm{seat}_lost_untold = 0"
        holder: tuple[str, ...] = ()
        if reopened:
            telling += f", dm_refused{seat} = 0"
            at += " AND owner = ? AND status = 'active' AND channel_lost = 0"
            holder = (owner,)
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET dm{seat}_channel_id = ?, dm{seat}_message_id = ?{telling} "
                f"WHERE id = ?{at}",
                (channel_id, message_id, *(() if told is None else (told,)), match_id,
                 *(() if at_version is None else (owner, at_version, message_id, message_id)),
                 *holder),
            )
            if cur.rowcount != 1 and lost_told:
                await c.execute(f"UPDATE matches SET dm{seat}_lost_untold = 0 "
                                "WHERE id = ? AND channel_lost = 1", (match_id,))
            return cur.rowcount == 1

    async def lost_untold(self, match_id: int) -> tuple[bool, bool]:
        """Each seat still to be told that the match's channel was lost, as saved."""
        row = await self.db.fetchone(
            "SELECT dm0_lost_untold, dm1_lost_untold FROM matches WHERE id = ?", (match_id,))
        return (False, False) if row is None else \
            (bool(row["dm0_lost_untold"]), bool(row["dm1_lost_untold"]))

    async def set_resend(self, match_id: int, owed: str, owner: str) -> bool:
        """What the match's delivery still owes after a failure for now ('' once sent), saved
        by its holder ``owner`` alone: whether it was (a process the match was taken from
        clears nothing of its new holder's)."""
        async with self.db.transaction() as c:
            cur = await c.execute("UPDATE matches SET resend = ? WHERE id = ? AND owner = ?",
                                  (owed, match_id, owner))
            return cur.rowcount == 1

    async def set_reviewed(self, match_id: int, hands: int, message: str | None = None) -> None:
        """The review of the practice match's hand that made ``hands`` finished ones was sent
        (never taken back: a process behind cannot lower it); ``message``: in the game's
        review message so (``review_dm``)."""
        kept = "" if message is None else ", review_dm = ?"
        async with self.db.transaction() as c:
            await c.execute(f"UPDATE matches SET reviewed = ?{kept} WHERE id = ? AND reviewed < ?",
                            (hands, *(() if message is None else (message,)), match_id, hands))

    async def set_dm_sending(self, match_id: int, seat: int, sending: bool) -> None:
        """A new DM panel is on its way to the seat (its id saved next), or was saved."""
        async with self.db.transaction() as c:
            await c.execute(f"UPDATE matches SET dm{seat}_sending = ? WHERE id = ?",
                            (int(sending), match_id))

    async def take_dm_message(self, match_id: int, seat: int, channel_id: int,
                              message_id: int, told: str | None = None,
                              lost_told: bool = False) -> DmPanel | None:
        """``message_id`` is the seat's DM panel from now on, unless a newer one was saved
        (ids grow with time): the seat's panel as saved then (None: no such match). For a
        panel whose process sent it and is saving its id, or stopped first: the same id saved
        twice, or the one it would have saved;
        ``told``, the turn it told the seat of, and ``lost_told``, that it told the seat the
        channel was lost, as that process would save them (``dm_told``, ``lost_untold``)."""
        telling = "" if told is None else f", dm{seat}_told = ?"
        if lost_told:
            telling += f", dm{seat}_lost_untold = 0"
        async with self.db.transaction() as c:
            await c.execute(
                f"UPDATE matches SET dm{seat}_channel_id = ?, dm{seat}_message_id = ?{telling} "
                f"WHERE id = ? AND (dm{seat}_message_id IS NULL OR dm{seat}_message_id < ?)",
                (channel_id, message_id, *(() if told is None else (told,)), match_id,
                 message_id))
            panels = await panels_in(c, match_id)
        return None if panels is None else panels[seat]

    async def set_dm_refused(self, match_id: int, seat: int, hand: int = 0) -> bool:
        """The seat's DMs refused the bot, in ``hand`` (``dms_again``: not tried again in it),
        its notice still to be told (``UNTOLD``: ``claim_dm_notice``); whether that is news:
        False when it was saved so already (found by another copy of the match)."""
        async with self.db.transaction() as c:
            found = await c.execute(
                f"UPDATE matches SET dm_refused{seat} = ? WHERE id = ? AND dm_refused{seat} = 0",
                (UNTOLD, match_id))
            await c.execute(
                f"UPDATE matches SET dm_tried{seat} = ? WHERE id = ? AND dm_tried{seat} < ?",
                (hand, match_id, hand))
            return found.rowcount == 1

    async def claim_dm_notice(self, match_id: int, seat: int) -> bool:
        """Whether this copy of the match is to tell the channel that the seat's DMs refused
        the bot: the refusal's notice, once, whichever copy (or process) asks first."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET dm_refused{seat} = 1 WHERE id = ? AND dm_refused{seat} = ?",
                (match_id, UNTOLD))
            return cur.rowcount == 1

    async def owe_dm_notice(self, match_id: int, seat: int) -> None:
        """The refusal's notice claimed (``claim_dm_notice``) but not posted (failing for
        now): still to be told, by whichever copy delivers to the seat next."""
        async with self.db.transaction() as c:
            await c.execute(
                f"UPDATE matches SET dm_refused{seat} = ? WHERE id = ? AND dm_refused{seat} = 1",
                (UNTOLD, match_id))

    async def claim_dm_try(self, match_id: int, seat: int, hand: int, owner: str) -> bool:
        """Whether the seat's refused DMs are to be tried again in ``hand`` by the match's
        holder ``owner``: once a hand, whichever process asks, the match in play with its
        channel (a refusal with the channel lost abandoned it)."""
        async with self.db.transaction() as c:
            cur = await c.execute(
                f"UPDATE matches SET dm_tried{seat} = ? WHERE id = ? AND owner = ? "
                f"AND status = 'active' AND channel_lost = 0 AND dm_refused{seat} != 0 "
                f"AND dm_tried{seat} < ?", (hand, match_id, owner, hand))
            return cur.rowcount == 1

    async def set_unsent(self, match_id: int, unsent: str) -> None:
        """What is still to be announced (after some of it was posted)."""

        async def job(c: Tx) -> None:
            await c.execute("UPDATE matches SET unsent = ? WHERE id = ?", (unsent, match_id))

        await self.db.batched(job)

    async def unsent_of(self, match_id: int) -> str:
        row = await self.db.fetchone("SELECT unsent FROM matches WHERE id = ?", (match_id,))
        return "[]" if row is None else str(row["unsent"])
