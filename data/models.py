"""Rows as typed values: what the store hands to the cogs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from data.db import Row

#: ``matches.dm_refused0``/``1``: 0 the seat's DMs taken for open; 1 refused (told in the
#: channel, or nobody to tell); UNTOLD refused, the channel not told yet (its notice failed
#: for now, or the copy that found the refusal stopped before it): whichever copy of the match
#: delivers to the seat next tells it (``cogs.umtali.dms_again``).
UNTOLD: Final = 2

#: A claimed match's turn standing still since its holder stopped (``matches.stood_since``):
#: since when, and the time that holder owed the turn then.
Stood = tuple[float, float]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    variant: str = "english"
    optional_melding: bool = False
    #: Seconds a player has for a turn; 0 turns the timer off.
    turn_timer: int = 300
    threads: bool = True
    #: Tables and hands carry their pictures (else: the text alone, everywhere on the server).
    pictures: bool = True
    #: The language of its matches' public messages ('': the server's own preferred locale).
    language: str = ""
    #: Its challenges' time control preset ('': from ``turn_timer``, as before presets).
    time_control: str = ""
    #: 'off', 'monthly' or 'quarterly'; and where a season's summary is posted (None: nowhere).
    seasons: str = "off"
    season_channel_id: int | None = None


@dataclass(frozen=True, slots=True)
class MemberPrefs:
    """A member's own choices, the same on every server; a member with no row has these."""

    user_id: int
    #: How the private panels lay out the hand: 'suit', 'rank' or 'melds'.
    hand_order: str = "suit"
    #: The private panels carry a picture of the hand (else: the text alone).
    pictures: bool = True
    #: Diamonds blue and clubs green in the pictures of the hand.
    four_colour: bool = False
    #: The language of the member's Discord client, as last seen ('': never seen, or English,
    #: the same to the bot: not written for each member heard from, prefs._plain).
    language: str = ""

    @property
    def is_default(self) -> bool:
        return self == MemberPrefs(self.user_id)


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
    #: The time control preset ('': the turn timer alone, as before presets).
    time_control: str = ""
    #: The session this challenge asks to play again: the opponent then takes seat 0.
    rematch_of: int | None = None
    #: The session's seed and salt, drawn when the challenge is made and kept secret (never
    #: shown while the challenge or its match is open), and the commitment to them, posted on
    #: the challenge. '' for a challenge made before deals were committed at the offer.
    seed: str = ""
    salt: str = ""
    commitment: str = ""
    #: A practice session waiting for its player's cut (the bot is the opponent): the
    #: computer's level; None for a challenge between members.
    computer_level: str | None = None
    #: The two members' Discord-wide display names (global name, else username), for the
    #: records of all servers: a nickname is its server's. '' for a challenge from before.
    challenger_global_name: str = ""
    opponent_global_name: str = ""
    #: Withdrawn by its opponent's stop, its message not yet saying so (``StopQueries``).
    unsaid: bool = False
    #: Its tries by the ticks so far, this one's counted (``StopQueries.claim_withdrawals``).
    said_tries: int = 0

    @property
    def seated(self) -> tuple[tuple[int, str], tuple[int, str]]:
        """The players by seat: the challenger first, but the other player in a rematch
        (seat 0 draws first for dealer)."""
        challenger = (self.challenger_id, self.challenger_name)
        opponent = (self.opponent_id, self.opponent_name)
        return (opponent, challenger) if self.rematch_of is not None else \
            (challenger, opponent)

    @property
    def global_names(self) -> tuple[str, str]:
        """The players' Discord-wide display names by seat, as ``seated`` seats them."""
        names = (self.challenger_global_name, self.opponent_global_name)
        return (names[1], names[0]) if self.rematch_of is not None else names


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
    #: JSON list of announcements saved but not yet posted.
    unsent: str
    created_at: float
    finished_at: float | None
    winner_seat: int | None
    how: str | None
    #: The match's channel refused the bot for good: the match goes on in the players' DMs.
    channel_lost: bool = False
    #: The seed's salt (secret until the session ends) and the published commitment to both.
    salt: str = ""
    commitment: str = ""
    #: The time control preset ('' for a match from before presets) and each seat's reserve.
    time_control: str = ""
    reserves: tuple[float, float] = (0.0, 0.0)
    #: The time-up question waiting for an answer (JSON, '' for none).
    question: str = ""
    #: The cut: the text the accepting player typed, or, with none, their submit's id, played
    #: with the committed seed (``umtali.seeds.cut_seed``); '' for a match never cut.
    cut: str = ""
    #: A practice match's hands whose review was sent: how many had ended when the last one
    #: was (0: none yet; -1: not known, a match from before this was saved).
    reviewed: int = 0
    #: Each seat's new DM panel was being sent, its id not yet saved (``dm_message_ids``).
    dm_sending: tuple[bool, bool] = (False, False)
    #: The turn each seat was last told of by a new DM panel (``game:hand:turn:seat``, ''
    #: for none).
    dm_told: tuple[str, str] = ("", "")
    #: Each seat still to be told, by a new DM, that the match's channel was lost.
    lost_untold: tuple[bool, bool] = (False, False)
    #: What a delivery that failed for now still owes (``Batch.dumps``; '' for nothing).
    resend: str = ""
    #: The players' Discord-wide display names, for the records of all servers ('' when not
    #: known: a match from before they were kept).
    global_names: tuple[str, str] = ("", "")
    #: Each seat whose refused DMs (``dm_refused``) are still to be told in the channel: its
    #: notice failed for now, or its finder stopped before it (``dm_refused`` saved as 2).
    dm_untold: tuple[bool, bool] = (False, False)
    #: Its turn standing still since its holder stopped, as a claim saved it: since when, and
    #: the time that holder owed it then (None: none, or not for the turn's deadline as saved).
    stood: Stood | None = None
    #: The server admin who ended it with no result (``/umtali-admin end-match``); None: not.
    ended_by: int | None = None
    #: A practice game's review message (JSON: game, id, text; '' for none yet).
    review_dm: str = ""


class DmPanel(NamedTuple):
    """A seat's DM panel as saved: where it is, whether a newer one was on its way (its id not
    yet saved) and the turn it told (``dm_told``)."""

    channel_id: int | None
    message_id: int | None
    sending: bool
    told: str


class Place(NamedTuple):
    """Where a match is played as saved: its channel, its live table there, and whether the
    channel was lost."""

    channel_id: int
    table_message_id: int | None
    channel_lost: bool


@dataclass(slots=True)
class AsSaved:
    """Where a match is shown, as a save read it in its own transaction: for a copy read
    before that save (``LiveMatch.take_saved``), which another process may have shown
    elsewhere since (a newer DM panel, a table brought to a new message)."""

    panels: tuple[DmPanel, DmPanel] | None = None
    place: Place | None = None
    #: The deadline of the turn whose warning was claimed, if one was (a timer's claim keeps
    #: the version: a copy read before it and taken at that version never learns of it).
    warned_at: float | None = None
    #: The turn's deadline as saved, and whether its warning was claimed (read: ``place`` is
    #: set). A take at the copy's version (``Owners.hold``) takes them: time given back by
    #: the holder (an outage's), or a waiting player's answer, keeps the version.
    deadline: float | None = None
    warned: bool = False
    #: Each seat's reserve as saved: a turn resumed after downtime (``resume_turn``) cuts the
    #: reserve of the seat to act to what it had left, keeping the version.
    reserves: tuple[float, float] | None = None
    #: The time-up question as saved (JSON, '' for none): asked by the holder, its clock
    #: stopped (the deadline none), keeping the version.
    question: str = ""
    #: What its delivery owes as saved (``matches.resend``): a match's end saves its challenge
    #: message's end line as owed there (``owe_end_line``), which its copy must know to clear.
    resend: str = ""


@dataclass(frozen=True, slots=True)
class Finish:
    """How a session ended, recorded with its last move in the same transaction."""

    winner_seat: int
    how: str
    games_won: tuple[int, int]
    hand_scores: str


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's totals in one scope (a server, or all servers), rated or practice play."""

    sessions_won: int = 0
    sessions_lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    points: int = 0
    #: The highest score of a single hand; None until a hand is scored (a session forfeited
    #: before its first hand's score has none).
    best_hand: int | None = None
    marriages: int = 0
    #: Hands in which this player went out first.
    went_out: int = 0
    #: Sessions lost by resigning or timing out.
    forfeits: int = 0

    @property
    def sessions(self) -> int:
        return self.sessions_won + self.sessions_lost


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    #: The conservative estimate that orders leaderboards: mu - 3 sigma.
    value: float
    #: Place on the scope's leaderboard, out of ``players``.
    rank: int
    players: int


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """Everything kept about a person in one scope."""

    name: str | None
    rated: PlayerStats
    practice: PlayerStats
    rating: Rating | None


@dataclass(frozen=True, slots=True)
class HandLine:
    """A finished hand of a recorded session."""

    game: int
    hand: int
    scores: tuple[int, int]
    #: The seat that went out first, or None (nobody did, or the session could not be replayed).
    went_out: int | None
    marriages: tuple[int, int]


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    user_id: int
    name: str
    rating: float
    sessions_won: int
    sessions: int


@dataclass(frozen=True, slots=True)
class BoardPage:
    page: int
    pages: int
    players: int
    rows: tuple[BoardRow, ...]


@dataclass(frozen=True, slots=True)
class SessionLine:
    """A finished session as history shows it, with the names it was played under."""

    match_id: int
    guild_id: int
    player_ids: tuple[int, int]
    names: tuple[str, str]
    winner_seat: int
    how: str
    games_won: tuple[int, int]
    variant: str
    computer_level: str | None
    finished_at: float

    def seat_of(self, user_id: int) -> int | None:
        if user_id in self.player_ids:
            return self.player_ids.index(user_id)
        return None


@dataclass(frozen=True, slots=True)
class HeadToHead:
    won: int
    lost: int
    recent: tuple[SessionLine, ...]


def challenge_of(row: Row) -> Challenge:
    """A row of ``challenges`` as typed values."""
    return Challenge(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"], challenger_name=row["challenger_name"],
        opponent_name=row["opponent_name"], variant=row["variant"],
        optional_melding=bool(row["optional_melding"]), turn_timer=row["turn_timer"],
        created_at=row["created_at"], expires_at=row["expires_at"], status=row["status"],
        match_id=row["match_id"], time_control=row["time_control"],
        rematch_of=row["rematch_of"], seed=row["seed"], salt=row["salt"],
        commitment=row["commitment"], computer_level=row["computer_level"],
        challenger_global_name=row["challenger_global_name"],
        opponent_global_name=row["opponent_global_name"], unsaid=bool(row["unsaid"]),
        said_tries=int(row["said_tries"]),
    )


def match_row(row: Row) -> MatchRow:
    """A row of ``matches`` as typed values."""
    return MatchRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        table_message_id=row["table_message_id"],
        player_ids=(row["player0_id"], row["player1_id"]),
        names=(row["player0_name"], row["player1_name"]), status=row["status"],
        variant=row["variant"], turn_timer=row["turn_timer"], deadline=row["deadline"],
        warned=bool(row["warned"]), state=row["state"], version=row["version"],
        dm_channel_ids=(row["dm0_channel_id"], row["dm1_channel_id"]),
        dm_message_ids=(row["dm0_message_id"], row["dm1_message_id"]),
        dm_refused=(bool(row["dm_refused0"]), bool(row["dm_refused1"])),
        dm_untold=(row["dm_refused0"] == UNTOLD, row["dm_refused1"] == UNTOLD),
        pending=row["pending"], computer_seat=row["computer_seat"],
        computer_level=row["computer_level"], unsent=row["unsent"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        winner_seat=row["winner_seat"], how=row["how"],
        channel_lost=bool(row["channel_lost"]),
        salt=row["salt"], commitment=row["commitment"], time_control=row["time_control"],
        reserves=(row["reserve0"], row["reserve1"]), question=row["question"],
        cut=row["cut"], reviewed=row["reviewed"],
        dm_sending=(bool(row["dm0_sending"]), bool(row["dm1_sending"])),
        dm_told=(row["dm0_told"], row["dm1_told"]),
        global_names=(row["player0_global_name"], row["player1_global_name"]),
        lost_untold=(bool(row["dm0_lost_untold"]), bool(row["dm1_lost_untold"])),
        resend=row["resend"], stood=stood_of(row), ended_by=row["ended_by"],
        review_dm=row["review_dm"],
    )


def stood_of(row: Row) -> Stood | None:
    """A row's turn standing still as a claim saved it (``data.leases.Leases.claim``), if
    for its deadline as saved: a move or time given back since moved that on."""
    since, on = row["stood_since"], row["stood_on"]
    if since is None or on is None or on != row["deadline"]:
        return None
    return float(since), float(row["stood_owed"])
