"""Migrations 1 and 2, the schema every later migration builds on: matches, their moves,
challenges, server settings and session results (1), and the records counted from the results
(2). They head ``data.migrations.MIGRATIONS``, where the next migration is added; shipped, so
never edited."""

from __future__ import annotations

from typing import Final

FIRST_SCHEMA: Final[tuple[tuple[str, ...], ...]] = (
    # 1: matches, their moves, challenges, server settings and session results.
    (
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            variant TEXT NOT NULL DEFAULT 'english',
            optional_melding INTEGER NOT NULL DEFAULT 0,
            turn_timer INTEGER NOT NULL DEFAULT 300,
            threads INTEGER NOT NULL DEFAULT 1
        )""",
        """CREATE TABLE challenges (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            message_id INTEGER,
            challenger_id INTEGER NOT NULL,
            opponent_id INTEGER NOT NULL,
            challenger_name TEXT NOT NULL,
            opponent_name TEXT NOT NULL,
            variant TEXT NOT NULL,
            optional_melding INTEGER NOT NULL,
            turn_timer INTEGER NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            status TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'cancelled')),
            match_id INTEGER
        )""",
        """CREATE INDEX challenges_open ON challenges (status, expires_at)""",
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            table_message_id INTEGER,
            player0_id INTEGER NOT NULL,
            player1_id INTEGER NOT NULL,
            player0_name TEXT NOT NULL,
            player1_name TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
            variant TEXT NOT NULL,
            turn_timer INTEGER NOT NULL,
            deadline REAL,
            warned INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            dm0_channel_id INTEGER,
            dm0_message_id INTEGER,
            dm1_channel_id INTEGER,
            dm1_message_id INTEGER,
            dm_refused0 INTEGER NOT NULL DEFAULT 0,
            dm_refused1 INTEGER NOT NULL DEFAULT 0,
            -- Public lines of the turn in progress, announced together when it ends.
            pending TEXT NOT NULL DEFAULT '',
            -- A practice match: the seat the computer plays, and at which level.
            computer_seat INTEGER,
            computer_level TEXT,
            created_at REAL NOT NULL,
            finished_at REAL,
            winner_seat INTEGER,
            how TEXT
        )""",
        """CREATE INDEX matches_active ON matches (status)""",
        # One active match per member and server, enforced by the database itself.
        """CREATE TABLE active_players (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            match_id INTEGER NOT NULL REFERENCES matches (id),
            PRIMARY KEY (guild_id, user_id)
        )""",
        """CREATE TABLE moves (
            match_id INTEGER NOT NULL REFERENCES matches (id),
            ply INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (match_id, ply)
        )""",
        """CREATE TABLE session_results (
            match_id INTEGER PRIMARY KEY REFERENCES matches (id),
            guild_id INTEGER NOT NULL,
            player0_id INTEGER NOT NULL,
            player1_id INTEGER NOT NULL,
            winner_seat INTEGER NOT NULL,
            how TEXT NOT NULL,
            games_won0 INTEGER NOT NULL,
            games_won1 INTEGER NOT NULL,
            variant TEXT NOT NULL,
            hand_scores TEXT NOT NULL,
            -- Set for sessions against the computer: kept, but apart from player ratings.
            computer_level TEXT,
            finished_at REAL NOT NULL
        )""",
    ),
    # 2: records. Each finished session is counted once (``recorded``) into its hands, its
    # players' lines, per-player stats and ratings, per server and across all servers (scope 0:
    # Discord ids are never 0). Results finished before this migration are counted at start-up.
    (
        """ALTER TABLE session_results ADD COLUMN player0_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE session_results ADD COLUMN player1_name TEXT NOT NULL DEFAULT ''""",
        """ALTER TABLE session_results ADD COLUMN computer_seat INTEGER""",
        """ALTER TABLE session_results ADD COLUMN recorded INTEGER NOT NULL DEFAULT 0""",
        """UPDATE session_results SET
            player0_name = COALESCE((SELECT player0_name FROM matches WHERE id = match_id), ''),
            player1_name = COALESCE((SELECT player1_name FROM matches WHERE id = match_id), ''),
            computer_seat = (SELECT computer_seat FROM matches WHERE id = match_id)""",
        # Start-up finds the results still to count without reading them all.
        """CREATE INDEX session_results_unrecorded ON session_results (finished_at, match_id)
            WHERE recorded = 0""",
        """CREATE TABLE session_hands (
            match_id INTEGER NOT NULL REFERENCES session_results (match_id),
            game INTEGER NOT NULL,
            hand INTEGER NOT NULL,
            score0 INTEGER NOT NULL,
            score1 INTEGER NOT NULL,
            -- The seat that went out first; NULL when nobody did or it is not known.
            went_out INTEGER,
            marriages0 INTEGER NOT NULL,
            marriages1 INTEGER NOT NULL,
            PRIMARY KEY (match_id, game, hand)
        ) WITHOUT ROWID""",
        # One line per person in a finished session (the computer has none): history and
        # head-to-head read these through their indexes, newest first.
        """CREATE TABLE session_players (
            match_id INTEGER NOT NULL REFERENCES session_results (match_id),
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            opponent_id INTEGER NOT NULL,
            guild_id INTEGER NOT NULL,
            won INTEGER NOT NULL,
            practice INTEGER NOT NULL,
            finished_at REAL NOT NULL,
            PRIMARY KEY (match_id, seat)
        )""",
        """CREATE INDEX session_players_history
            ON session_players (user_id, guild_id, finished_at)""",
        """CREATE INDEX session_players_versus
            ON session_players (user_id, opponent_id, guild_id, finished_at, won)""",
        # Totals per scope (a server, or 0 for all servers), person, and rated or practice play.
        """CREATE TABLE player_stats (
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
            best_hand INTEGER NOT NULL,
            marriages INTEGER NOT NULL,
            went_out INTEGER NOT NULL,
            forfeits INTEGER NOT NULL,
            last_at REAL NOT NULL,
            PRIMARY KEY (scope, user_id, practice)
        ) WITHOUT ROWID""",
        # Ratings from rated sessions only; ``ordinal`` (mu - 3 sigma) orders the leaderboard.
        """CREATE TABLE ratings (
            scope INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            ordinal REAL NOT NULL,
            PRIMARY KEY (scope, user_id)
        ) WITHOUT ROWID""",
        """CREATE INDEX ratings_board ON ratings (scope, ordinal DESC, user_id)""",
    ),
)
