"""A session's seed as the engine takes it, and as a cut makes it.

A session may be **cut**: its seed is committed to first (``umtali.fairness``), then a player
contributes something nobody could choose or foresee (the id Discord gives their click), and the
session is played from both, ``SEED/CUT``. The commitment fixes the seed alone: the cut comes
after it, by design.
"""

from __future__ import annotations

import datetime as dt
import re

from umtali.errors import InvalidStateError
from umtali.i18n import Text

#: A cut: a decimal number (a Discord snowflake), written as text.
_CUT = re.compile(r"[0-9]{1,30}")
#: Discord's epoch (the first second of 2015), in milliseconds: a snowflake's top bits count
#: the milliseconds since it.
_DISCORD_EPOCH_MS = 1_420_070_400_000


def seed_value(seed: int | str) -> int | str:
    """The seed as the session holds it: a decimal number as an int (so ``"42"`` and ``42``
    are one seed, as they shuffle alike), any other text as it is."""
    text = str(seed)
    if text.isdecimal() and str(int(text)) == text:
        return int(text)
    return text


def cut_seed(seed: int | str, cut: str | None) -> int | str:
    """The seed a session is played from: the committed ``seed`` and the player's ``cut``,
    ``SEED/CUT``; the seed alone for a session never cut (from before cuts, or a test's)."""
    if not cut:
        return seed_value(seed)
    if not _CUT.fullmatch(cut):
        raise InvalidStateError(Text.of("the cut must be a whole number"))
    return f"{seed_value(seed)}/{cut}"


def uncut(played: int | str, cut: str | None) -> int | str:
    """The committed seed of a session played from ``played`` after ``cut`` (``cut_seed``
    undone): what the commitment fixes and the reveal shows."""
    if not cut:
        return played
    text = str(played)
    assert text.endswith(f"/{cut}"), "a cut session is played from SEED/CUT"
    return seed_value(text.removesuffix(f"/{cut}"))


def cut_time(cut: str) -> str | None:
    """The time a cut carries, as a Discord id does (its bits above the 22 lowest: the
    milliseconds since Discord's epoch), in UTC to the millisecond; None for a cut that names no
    time a Discord id could. It is the one part of the cut a player can check (it must be when
    they clicked): Discord shows nobody the id of their click, and its lower bits are Discord's
    counters."""
    if not _CUT.fullmatch(cut):
        return None
    ms = (int(cut) >> 22) + _DISCORD_EPOCH_MS
    try:
        when = dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    if when.year >= 2200:
        return None
    return when.strftime("%Y-%m-%d %H:%M:%S.") + f"{ms % 1000:03d}"
