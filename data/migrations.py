"""Numbered schema migrations, one list for both backends. The last one applied is SQLite's
``user_version``, PostgreSQL's ``schema_version`` table.

Never edit a migration that has shipped: add the next one. An upgrade runs all of its
migrations in one transaction (``Database.migrate``): none may need its own. The
first two, the schema the others build on, are ``data.first_schema``'s; 3 to 19
``data.early_migrations``'.

Statements are written in SQLite's SQL. PostgreSQL runs the same text through a few fixed
rewrites (``postgresql``): every INTEGER is a BIGINT there (Discord ids are 64-bit), REAL is
DOUBLE PRECISION, an AUTOINCREMENT id is an identity column, WITHOUT ROWID is dropped. Where
that is not enough, a statement is a ``Variant``: its text for each backend (empty: none
there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from data.early_migrations import EARLY_MIGRATIONS
from data.first_schema import FIRST_SCHEMA


@dataclass(frozen=True, slots=True)
class Variant:
    """A statement whose SQL differs between the backends."""

    sqlite: str
    postgresql: str


#: ``player_stats``' columns, as migration 2 made them (copied as its table is built again).
_STATS_COLUMNS: Final = ("scope, user_id, practice, name, sessions_won, sessions_lost, "
                         "games_won, games_lost, hands_won, hands_lost, points, best_hand, "
                         "marriages, went_out, forfeits, last_at")

MIGRATIONS: Final[tuple[tuple[str | Variant, ...], ...]] = (
    *FIRST_SCHEMA,  # migrations 1 and 2
    *EARLY_MIGRATIONS,  # migrations 3 to 19
    # 20: a match over with something owed still (``resend``: its last panel's edit failing
    # for now) is one some process must hold too (``data.leases.LIVE``, word for word), else
    # a restart before the retry left that panel showing the match in play for good.
    (
        """DROP INDEX matches_live""",
        """CREATE INDEX matches_live ON matches (id)
            WHERE status = 'active' OR unsent != '[]' OR resend != ''""",
    ),
    # 21: the language of each server's own preferred locale, as last seen by a process that
    # hears from the server: another process (whose shards do not receive the server, reached
    # by a player's click in a DM) drew a server that chose no language in English
    # (``Preferences.guild_tr``). A table of its own: not a server's settings, and not read
    # again by every process at each change of any server's settings.
    (
        """CREATE TABLE guild_locales (
            guild_id INTEGER PRIMARY KEY,
            language TEXT NOT NULL
        )""",
    ),
    # 22: each player's Discord-wide display name (their global name, else their username),
    # kept beside the server's nickname from the challenge on: records that span servers
    # (``player_stats`` of scope 0, the board of all servers) show it, as a nickname belongs
    # to its server ('' for a challenge, match or result from before: its nickname stands in,
    # and a member's row of all servers keeps its name until they next finish a session).
    (
        """ALTER TABLE challenges ADD COLUMN challenger_global_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE challenges ADD COLUMN opponent_global_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN player0_global_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE matches ADD COLUMN player1_global_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE session_results ADD COLUMN player0_global_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE session_results ADD COLUMN player1_global_name TEXT NOT NULL DEFAULT ''""",
    ),
    # 23: the hand each seat whose DMs refused the bot was last refused or tried again in
    # (``cogs.umtali.dms_again``: once a hand, whichever process holds the match; a number,
    # game * 100 + hand; 0: never).
    (
        """ALTER TABLE matches ADD COLUMN dm_tried0 INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE matches ADD COLUMN dm_tried1 INTEGER NOT NULL DEFAULT 0""",
    ),
    # 24: the season a rated session was counted into, with each player's season rating
    # before and after it, for its final card (NULL: counted into no season, or before).
    (
        """ALTER TABLE session_players ADD COLUMN season TEXT""",
        """ALTER TABLE session_players ADD COLUMN season_before REAL""",
        """ALTER TABLE session_players ADD COLUMN season_after REAL""",
    ),
    # 25: a match abandoned or cancelled closes its challenge by the match's id; every
    # challenge ever posted is kept, so that read needs an index (it scanned the whole table
    # in the write transaction: 33 ms at 200,000 challenges on SQLite).
    (
        """CREATE INDEX challenges_by_match ON challenges (match_id)""",
    ),
    # 26: since when a claimed match's turn has stood still (its holder stopped), on which
    # deadline, and the time that holder owed it then (``data.leases.Stood``): saved by the
    # claim before the match is brought in, cleared once it is held (renewed, taken, a move
    # saved by its holder). Before, a restart whose bring-in of its own match failed kept that
    # downtime in memory alone (its notes rewritten at the start): another restart before
    # the next claim, or another process's claim and undoing of it both failing, lost it.
    (
        """ALTER TABLE matches ADD COLUMN stood_since REAL""",
        """ALTER TABLE matches ADD COLUMN stood_on REAL""",
        """ALTER TABLE matches ADD COLUMN stood_owed REAL NOT NULL DEFAULT 0""",
    ),
    # 27: when a player last posted the live table again in the match's own channel
    # (``/umtali table``, by the bot's clock; 0: never), for the limit on those posts, kept
    # here as the challenges' limits are: whichever process answers the command reads it;
    # and the live table that post was to replace (its message id, None: none), so that two
    # players finding it deleted post one table.
    (
        """ALTER TABLE matches ADD COLUMN table_posted_at REAL NOT NULL DEFAULT 0""",
        """ALTER TABLE matches ADD COLUMN table_replaced_id INTEGER""",
    ),
    # 28: a season's board (its pages, count and places) reads only those who played in it:
    # every rating carried into a season (every player ever rated on the server) was read and
    # filtered out before. The index over every rating it replaces served only those reads.
    # Its sessions make it hold all a count reads (SQLite read each row of the table for them
    # otherwise, and took the primary key instead). ``seasons.players``: how many played in
    # the season, counted as each first plays (``rate_season``), for the ``season`` option's
    # suggestions on every keystroke (review116: counting 36 seasons of 50,000 players, 200 ms
    # and more).
    (
        """CREATE INDEX season_played ON season_ratings (guild_id, season, ordinal DESC, user_id,
           sessions_won, sessions_lost) WHERE sessions_won + sessions_lost > 0""",
        """DROP INDEX season_board""",
        """ALTER TABLE seasons ADD COLUMN players INTEGER NOT NULL DEFAULT 0""",
        """UPDATE seasons SET players = (SELECT COUNT(*) FROM season_ratings r
           WHERE r.guild_id = seasons.guild_id AND r.season = seasons.season
           AND r.sessions_won + r.sessions_lost > 0)""",
    ),
    # 29: a challenge closed because Discord never posted it (1: its post refused, so shown
    # to nobody and pinging nobody), left out of the limit of challenges to one member.
    (
        """ALTER TABLE challenges ADD COLUMN unseen INTEGER NOT NULL DEFAULT 0""",
    ),
    # 30: when each server's settings last changed, counted as ``member_prefs.changed`` is
    # (migration 14): every process keeps every server's look in memory, and a change of one
    # server's made each read all the rows again (140 ms at 100,000 servers, review116).
    (
        """ALTER TABLE guild_settings ADD COLUMN changed INTEGER NOT NULL DEFAULT 0""",
        """CREATE INDEX guild_settings_changed ON guild_settings (changed)""",
    ),
    # 31: a best hand is NULL until a hand is scored (fix133): a session forfeited before its
    # first hand's score added 0, shown as a hand played, and put 0 over a negative best. The
    # rows that hold 0 are read again from their sessions' hands (``session_hands``, kept with
    # every count since migration 2): none scored gives NULL; a best above 0 is left as it is
    # (a forfeit's 0 never beat it). SQLite cannot drop a NOT NULL: its table is built again.
    (
        Variant(sqlite="""CREATE TABLE player_stats_new (
            scope INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            practice INTEGER NOT NULL,
            name TEXT NOT NULL,
            sessions_won INTEGER NOT NULL,
            sessions_lost INTEGER NOT NULL,
            games_won INTEGER NOT NULL,
            games_lost INTEGER NOT NULL,
            hands_won INTEGER NOT NULL,
            hands_lost INTEGER NOT NULL,
            points INTEGER NOT NULL,
            best_hand INTEGER,
            marriages INTEGER NOT NULL,
            went_out INTEGER NOT NULL,
            forfeits INTEGER NOT NULL,
            last_at REAL NOT NULL,
            PRIMARY KEY (scope, user_id, practice)
        ) WITHOUT ROWID""",
                postgresql="""ALTER TABLE player_stats ALTER COLUMN best_hand DROP NOT NULL"""),
        Variant(sqlite=f"""INSERT INTO player_stats_new ({_STATS_COLUMNS})
            SELECT {_STATS_COLUMNS} FROM player_stats""", postgresql=""),
        Variant(sqlite="""DROP TABLE player_stats""", postgresql=""),
        Variant(sqlite="""ALTER TABLE player_stats_new RENAME TO player_stats""",
                postgresql=""),
        """UPDATE player_stats SET best_hand = (
            SELECT MAX(CASE WHEN p.seat = 0 THEN h.score0 ELSE h.score1 END)
            FROM session_players p JOIN session_hands h ON h.match_id = p.match_id
            WHERE p.user_id = player_stats.user_id AND p.practice = player_stats.practice
            AND (player_stats.scope = 0 OR p.guild_id = player_stats.scope))
           WHERE best_hand = 0""",
    ),
    # 32: a match a server admin ended (``/umtali-admin end-match``) keeps who did (NULL:
    # not an admin's end; ``how`` stays ``abandoned``, as its deals file says), for history
    # and the panels to say so; and the server's matches in play by id, for that command's
    # suggestions on every keystroke (the ``status`` index alone read every server's).
    (
        """ALTER TABLE matches ADD COLUMN ended_by INTEGER""",
        """CREATE INDEX matches_in_play ON matches (guild_id, id) WHERE status = 'active'""",
    ),
    # 33: since when a server's cadence is what it is (``change_guild_settings``; NULL: since
    # long ago, as for every row before): a result counted late opens the season of its end
    # only if the cadence in force then made it (``seasons.current_season``, fix139).
    (
        """ALTER TABLE guild_settings ADD COLUMN seasons_since REAL""",
    ),
    # 34: who stops whose challenges (fix162): a member no longer challenged, nor asked for a
    # rematch, by another, on any server (harassment follows a person, not a server, as
    # Discord's own block does), until they lift it; ``since`` for the list they are shown.
    # ``challenges.closed_at``: when an open challenge was closed (declined, withdrawn,
    # expired; NULL for one closed before), so that a "no" holds back the next challenge from
    # when it was said, not from when the challenge was sent.
    (
        """CREATE TABLE challenge_stops (
            user_id INTEGER NOT NULL,
            stopped_id INTEGER NOT NULL,
            since REAL NOT NULL,
            PRIMARY KEY (user_id, stopped_id)
        ) WITHOUT ROWID""",
        """ALTER TABLE challenges ADD COLUMN closed_at REAL""",
    ),
    # 35: since when each seat of a match with no clock has been out of reach, as the bot
    # first found them so (left the server, or hidden from its channel with their DMs closed;
    # NULL: not found so, or found back since): their opponent's "Yes" to resign ends the
    # match with no result only a day after (``resigning.NO_RESULT_AFTER``, fix161).
    (
        """ALTER TABLE matches ADD COLUMN gone_since0 REAL""",
        """ALTER TABLE matches ADD COLUMN gone_since1 REAL""",
    ),
    # 36: by correspondence, the turn's DM standing in each seat's DMs (NULL: none), so that
    # whichever process tells the next turn, or sees this one played, deletes it: one stands
    # at most (fix164; in the seat's DM channel, ``dm0_channel_id``).
    (
        """ALTER TABLE matches ADD COLUMN turn_dm0_id INTEGER""",
        """ALTER TABLE matches ADD COLUMN turn_dm1_id INTEGER""",
        # A practice game's review message, edited with each hand's review (JSON: the game,
        # the message's id and text; '' for none yet): one message a game, not one a hand.
        """ALTER TABLE matches ADD COLUMN review_dm TEXT NOT NULL DEFAULT ''""",
    ),
    # 37: a challenge withdrawn by its opponent's stop whose message is still to say so (1;
    # 0 once said, or Discord refused it for good): its edit failing for now, or the bot
    # stopped before it, the timers' tick says it later (review158: closed, expiry skipped
    # it, and its buttons stayed for good). Tried from ``said_after`` on, pushed out doubling
    # at each failure (``said_tries``), given up by the ticks after about an hour (2 since
    # fix170, ``said_after`` NULL, out of the index: only a click on its buttons tries it
    # then; review160: every tick retried them all, and the oldest failing starved the
    # newer). Few at a time: found through their own index, the one due longest first.
    (
        """ALTER TABLE challenges ADD COLUMN unsaid INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE challenges ADD COLUMN said_after REAL""",
        """ALTER TABLE challenges ADD COLUMN said_tries INTEGER NOT NULL DEFAULT 0""",
        """CREATE INDEX challenges_unsaid ON challenges (said_after) WHERE unsaid = 1""",
    ),
    # 38: the withdrawals the ticks gave up before fix170 (``unsaid`` 1, ``said_after`` NULL,
    # which no later version writes) given up as since (2): out of the ticks' index, where
    # they stayed for good (review163), owed to a click on their buttons still.
    (
        """UPDATE challenges SET unsaid = 2 WHERE unsaid = 1 AND said_after IS NULL""",
    ),
)


_POSTGRESQL: Final = (
    (re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"),
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT ROWID\s*$"), ")"),
)


def postgresql(sql: str) -> str:
    """An SQLite statement of the migrations as PostgreSQL runs it."""
    for pattern, replacement in _POSTGRESQL:
        sql = pattern.sub(replacement, sql)
    return sql


def statements_for(number: int, dialect: str) -> list[str]:
    """Migration ``number`` (from 1) in ``dialect`` ("sqlite" or "postgresql")."""
    out = []
    for statement in MIGRATIONS[number - 1]:
        if isinstance(statement, Variant):
            if text := getattr(statement, dialect):  # empty: nothing to do on that backend
                out.append(text)
        elif dialect == "postgresql":
            out.append(postgresql(statement))
        else:
            out.append(statement)
    return out
