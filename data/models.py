"""Rows as typed values: what the store hands to the cogs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    variant: str = "english"
    optional_melding: bool = False
    #: Seconds a player has for a turn; 0 turns the timer off.
    turn_timer: int = 300
    threads: bool = True


@dataclass(frozen=True, slots=True)
class Challenge:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    opponent_id: int
    challenger_name: str
    opponent_name: str
    variant: str
    optional_melding: bool
    turn_timer: int
    created_at: float
    expires_at: float
    status: str
    match_id: int | None


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    guild_id: int
    channel_id: int
    table_message_id: int | None
    player_ids: tuple[int, int]
    names: tuple[str, str]
    status: str
    variant: str
    turn_timer: int
    deadline: float | None
    warned: bool
    state: str
    version: int
    dm_channel_ids: tuple[int | None, int | None]
    dm_message_ids: tuple[int | None, int | None]
    dm_refused: tuple[bool, bool]
    pending: str
    computer_seat: int | None
    computer_level: str | None
    created_at: float
    finished_at: float | None
    winner_seat: int | None
    how: str | None


@dataclass(frozen=True, slots=True)
class Finish:
    """How a session ended, recorded with its last move in the same transaction."""

    winner_seat: int
    how: str
    games_won: tuple[int, int]
    hand_scores: str
