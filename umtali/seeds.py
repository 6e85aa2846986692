"""A session's seed as the engine takes it, and as a cut makes it.

A session may be **cut**: its seed is committed to first (``umtali.fairness``), then a player
contributes something nobody could choose or foresee (the id Discord gives their click), and the
session is played from both, ``SEED/CUT``. The commitment fixes the seed alone: the cut comes
after it, by design.
"""

from __future__ import annotations

import re

from umtali.errors import InvalidStateError
from umtali.i18n import Text

#: A cut: a decimal number (a Discord snowflake), written as text.
_CUT = re.compile(r"[0-9]{1,30}")


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
