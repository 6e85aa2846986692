"""Migrations 3 to 19: announcements saved, faults and limits, members' choices, pictures,
languages, fair deals, time controls, seasons, several processes, and what deliveries owe.
They follow ``data.first_schema``'s in ``data.migrations.MIGRATIONS``; shipped, so never
edited. Plain SQLite statements all (``data.migrations.postgresql`` rewrites them)."""

from __future__ import annotations

from typing import Final

EARLY_MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    # 3: announcements saved until posted, so that a crash between saving a move and posting
    # its announcement loses nothing (at worst, one is posted twice).
    (
        """ALTER TABLE matches ADD COLUMN unsent TEXT NOT NULL DEFAULT '[]'""",
    ),
    # 4: faults and limits. ``channel_lost``: the match's channel refused the bot for good (the
    # match goes on in the players' DMs). Indexes for the per-member limits on challenges and
    # practice, and for expiring only the challenges that are due.
    (
        """ALTER TABLE matches ADD COLUMN channel_lost INTEGER NOT NULL DEFAULT 0""",
        """CREATE INDEX challenges_by_challenger
            ON challenges (guild_id, challenger_id, status, created_at)""",
        """CREATE INDEX matches_by_player0 ON matches (guild_id, player0_id, created_at)""",
    ),
    # 5: each member's own choices, wherever they play. ``hand_order``: how the private panels
    # lay out their hand ('suit', 'rank' or 'melds'). No CHECK on it: a later choice must not
    # need the table rebuilt; the bot reads a value it does not know as the default. Later choices
    # (a four-colour deck, pictures on or off) are columns added here with their defaults.
    (
        """CREATE TABLE member_prefs (
            user_id INTEGER PRIMARY KEY,
            hand_order TEXT NOT NULL DEFAULT 'suit'
        )""",
    ),
    # 6: pictures or text alone: per member for their own panels (with a four-colour deck as
    # a choice), and per server for all of its matches.
    (
        """ALTER TABLE member_prefs ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1""",
        """ALTER TABLE member_prefs ADD COLUMN four_colour INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1""",
    ),
    # 7: languages. A member's is the one their Discord client last showed the bot (for
    # messages that reach them with no interaction to read it from: DMs); a server's is chosen
    # by its admins for its matches' public messages. '' means not known / the server's own.
    (
        """ALTER TABLE member_prefs ADD COLUMN language TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE guild_settings ADD COLUMN language TEXT NOT NULL DEFAULT ''""",
    ),
    # 8: fair deals, time controls and seasons.
    # ``salt``/``commitment``: the session's seed is committed to (SHA-256 of seed and salt)
    # before any card is dealt, and both are revealed when it ends. ``time_control``: a preset
    # name ('' for a match made before presets: its turn timer alone); ``reserve0/1``: each
    # seat's time bank left, in seconds. Ratings before and after each rated session, for the
    # final card. Seasons: each server's open and past seasons, and each season's ratings.
    (
        """ALTER TABLE matches ADD COLUMN salt TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN commitment TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN time_control TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN reserve0 REAL NOT NULL DEFAULT 0""",
        """ALTER TABLE matches ADD COLUMN reserve1 REAL NOT NULL DEFAULT 0""",
        """ALTER TABLE challenges ADD COLUMN time_control TEXT NOT NULL DEFAULT ''""",
        # A rematch: the session it follows (its seats are turned round).
        """ALTER TABLE challenges ADD COLUMN rematch_of INTEGER""",
        """ALTER TABLE guild_settings ADD COLUMN time_control TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE guild_settings ADD COLUMN seasons TEXT NOT NULL DEFAULT 'off'""",
        """ALTER TABLE guild_settings ADD COLUMN season_channel_id INTEGER""",
        """ALTER TABLE session_players ADD COLUMN rating_before REAL""",
        """ALTER TABLE session_players ADD COLUMN rating_after REAL""",
        # ``ended_at`` is set once, by whichever process ends the season first; ``announced``
        # once its summary is posted.
        """CREATE TABLE seasons (
            guild_id INTEGER NOT NULL,
            season TEXT NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL,
            announced INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, season)
        ) WITHOUT ROWID""",
        """CREATE TABLE season_ratings (
            guild_id INTEGER NOT NULL,
            season TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            ordinal REAL NOT NULL,
            sessions_won INTEGER NOT NULL DEFAULT 0,
            sessions_lost INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, season, user_id)
        ) WITHOUT ROWID""",
        """CREATE INDEX season_board ON season_ratings (guild_id, season, ordinal DESC, user_id)""",
    ),
    # 9: several processes. Each match is held by one process at a time (``owner``, its name,
    # '' for none) until ``lease_until`` (epoch seconds), renewed while it lives; a match whose
    # lease ran out is taken over by another process. ``announced`` counts the announcements
    # posted so far: clearing the posted ones is a compare-and-set on it, and it keys the
    # message nonce that lets Discord drop a repeat (docs/processes.md).
    (
        """ALTER TABLE matches ADD COLUMN owner TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN lease_until REAL NOT NULL DEFAULT 0""",
        """ALTER TABLE matches ADD COLUMN announced INTEGER NOT NULL DEFAULT 0""",
        """CREATE INDEX matches_owner ON matches (owner, lease_until)""",
    ),
    # 10: the time-up question waiting for an answer, as JSON (its message, the turn's
    # version, the absent seat; '' for none), so that a move, from any process or after a
    # restart, can take its buttons off and say it is no longer needed.
    (
        """ALTER TABLE matches ADD COLUMN question TEXT NOT NULL DEFAULT ''""",
    ),
    # 11: matches that ended with no result (abandoned, cancelled), for a member's history:
    # their seeds are revealed too. Few, so a small index of them alone.
    (
        """CREATE INDEX matches_unfinished ON matches (guild_id, finished_at)
            WHERE status = 'finished' AND winner_seat IS NULL""",
    ),
    # 12: the matches some process must still hold (``data.leases.LIVE``, word for word: a
    # partial index serves a query that repeats its condition), so that looking for lapsed
    # leases, every second in every process, never reads the finished matches, most of the
    # table (a scan of 200,000 took some 45 ms).
    (
        """CREATE INDEX matches_live ON matches (id) WHERE status = 'active' OR unsent != '[]'""",
    ),
    # 13: the player cuts the deck. A challenge's seed and salt are drawn when it is made and
    # committed to on its message (both secret until its match is over; '' for a challenge
    # made before); the click that accepts it is the ``cut``, kept with the match ('' for a
    # match never cut), and the session is played from both. A practice session waiting for
    # its player's cut is a challenge to the bot, with the computer's ``computer_level``.
    (
        """ALTER TABLE challenges ADD COLUMN seed TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE challenges ADD COLUMN salt TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE challenges ADD COLUMN commitment TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE challenges ADD COLUMN computer_level TEXT""",
        """ALTER TABLE matches ADD COLUMN cut TEXT NOT NULL DEFAULT ''""",
    ),
    # 14: when each member's choices last changed, as a count of the changes to anyone's
    # (``data.settings.PREFS_CHANGED``): every process keeps them all in memory and reads again,
    # every few seconds, only the rows changed since it last read (0: before this migration).
    (
        """ALTER TABLE member_prefs ADD COLUMN changed INTEGER NOT NULL DEFAULT 0""",
        """CREATE INDEX member_prefs_changed ON member_prefs (changed)""",
    ),
    # 15: a practice match's hands whose review was sent (how many had ended when the last
    # one was), saved once it is: a restart, or another process taking the match over, sends
    # no review twice, and loses none (0: none yet). -1 for the practice matches from before
    # this migration: not known, their last hand is reviewed only if its player has not
    # acted since, as before.
    (
        """ALTER TABLE matches ADD COLUMN reviewed INTEGER NOT NULL DEFAULT 0""",
        """UPDATE matches SET reviewed = -1 WHERE computer_seat IS NOT NULL""",
        # A new DM panel on its way to the seat, its id not saved yet: should the bot stop
        # before it is, that panel is found in the DM and its buttons taken off.
        """ALTER TABLE matches ADD COLUMN dm0_sending INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE matches ADD COLUMN dm1_sending INTEGER NOT NULL DEFAULT 0""",
    ),
    # 16: a season's summary is claimed by the process posting it (its name, '' for none) until
    # a time, and marked ``announced`` once posted: a process that stopped in between leaves
    # its claim, which its restart takes back at once and any other process once it runs out
    # (before, the claim was ``announced`` itself, and such a summary was never posted).
    (
        """ALTER TABLE seasons ADD COLUMN claimed_by TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE seasons ADD COLUMN claimed_until REAL NOT NULL DEFAULT 0""",
    ),
    # 17: the turn each seat was last told of by a new DM panel (``game:hand:turn:seat``, ''
    # for none), saved with that panel's id: a match played in DMs (its channel lost) brought
    # back by a restart or a take-over tells the player to act their turn if its panel never
    # went out, whenever the bot stopped (before, only if a new panel was on its way).
    (
        """ALTER TABLE matches ADD COLUMN dm0_told TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN dm1_told TEXT NOT NULL DEFAULT ''""",
    ),
    # 18: each seat still to be told, by a new DM, that the match's channel was lost: set
    # with the loss, cleared with the seat's panel saying so. Before, kept in memory alone: a
    # bot stopping between the loss and a notice (or with one failing for now) left that
    # player never told where the match went.
    (
        """ALTER TABLE matches ADD COLUMN dm0_lost_untold INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE matches ADD COLUMN dm1_lost_untold INTEGER NOT NULL DEFAULT 0""",
    ),
    # 19: what a delivery that failed for now still owes (the table, hands, the question's
    # edit: ``Batch.dumps``), saved with the failure and cleared once sent: a restart before
    # the retry (or another process taking the match) sends it. Before, the retry was kept in
    # memory alone, and the table or a panel showed the turn before until the next move.
    (
        """ALTER TABLE matches ADD COLUMN resend TEXT NOT NULL DEFAULT ''""",
    ),
)
