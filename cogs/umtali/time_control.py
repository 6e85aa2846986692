"""Time controls: how long a turn may take, and the reserve (time bank) behind it.

A turn has its own time; when that runs out, the player's reserve starts to run, and only the
reserve is spent: a turn played within its own time costs nothing, so one slow decision does
not lose a session. When the reserve is gone too, the turn is over: in ``blitz`` and
``normal`` the absent player forfeits; in ``correspondence`` the waiting player chooses to
claim the session or to give another turn's time.

Pure arithmetic on times given by the caller (the service's clock), so that tests inject time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from umtali.i18n import N_


@dataclass(frozen=True, slots=True)
class TimeControl:
    name: str
    #: Seconds a turn has of its own; 0: no clock at all.
    turn: float
    #: Seconds of reserve each player starts the session with.
    reserve: float
    #: How long before the turn's last moment the player is warned (correspondence: reminded).
    warn_before: float
    #: What running out of time does.
    on_timeout: Literal["forfeit", "ask"]
    #: A DM to the player whenever their turn starts (for games played over days).
    notify_turn: bool = False

    @property
    def timed(self) -> bool:
        return self.turn > 0

    def deadline(self, turn_start: float, reserve_left: float) -> float | None:
        """The turn's last moment: its own time, then the reserve."""
        return turn_start + self.turn + reserve_left if self.timed else None

    def reserve_after(self, deadline: float, reserve_left: float, ended: float) -> float:
        """The reserve left after a turn that ended at ``ended`` (its last moment being
        ``deadline``): only the time past the turn's own time is spent."""
        own_end = deadline - reserve_left
        return max(0.0, reserve_left - max(0.0, ended - own_end))

    def in_reserve(self, deadline: float, reserve_left: float, now: float) -> bool:
        """The turn's own time is over and the reserve is running."""
        return now >= deadline - reserve_left


MINUTE: Final = 60.0
HOUR: Final = 60 * MINUTE
DAY: Final = 24 * HOUR

PRESETS: Final[dict[str, TimeControl]] = {
    "blitz": TimeControl("blitz", turn=30, reserve=2 * MINUTE, warn_before=10,
                         on_timeout="forfeit"),
    "normal": TimeControl("normal", turn=5 * MINUTE, reserve=5 * MINUTE, warn_before=MINUTE,
                          on_timeout="forfeit"),
    "correspondence": TimeControl("correspondence", turn=DAY, reserve=0, warn_before=2 * HOUR,
                                  on_timeout="ask", notify_turn=True),
    "off": TimeControl("off", turn=0, reserve=0, warn_before=0, on_timeout="forfeit"),
}
#: How each preset is named to players (translated where shown).
LABELS: Final = {
    "blitz": N_("Blitz: 30 seconds a turn + 2 minutes reserve"),
    "normal": N_("Normal: 5 minutes a turn + 5 minutes reserve"),
    "correspondence": N_("Correspondence: a day a turn"),
    "off": N_("Off: no clock"),
}


def time_control(name: str, turn_timer: int) -> TimeControl:
    """A match's time control: its preset, or, for a match or setting from before presets
    (``name`` empty or unknown), its turn timer alone, with no reserve."""
    if name in PRESETS:
        return PRESETS[name]
    return TimeControl("", turn=float(turn_timer), reserve=0,
                       warn_before=min(MINUTE, turn_timer / 2), on_timeout="forfeit")
