"""Persistence layer: SQLite records of matches and leaderboards."""
