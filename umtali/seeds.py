"""A session's seed as the engine takes it, and as a cut makes it.

A session may be **cut**: its seed is committed to first (``umtali.fairness``), then a player
contributes something the bot could not choose: the text they type (``typed_cut``), or, if they
type nothing, the id Discord gives their click. The session is played from both, ``SEED/CUT``.
The commitment fixes the seed alone: the cut comes after it, by design.

A cut is text: a click's id is a number of ``CLICK_DIGITS`` digits or more (Discord's ids have had
18 or 19 since 2016); anything else, a shorter number too, was typed by a player (``typed_cut``).
"""

from __future__ import annotations

import datetime as dt
import re
import sys
import unicodedata

from umtali.errors import InvalidStateError
from umtali.i18n import Text

#: The fewest digits of a click's cut; a player's typed number is shorter.
CLICK_DIGITS = 17
#: The most characters a typed cut has (the modal's limit, and the file's).
MAX_TYPED = 32
#: A click's cut: a decimal number (a Discord snowflake), written as text. Up to the modal's
#: limit, so that no number the modal takes reads as typed once it is as long as an id.
_CUT = re.compile(rf"[0-9]{{{CLICK_DIGITS},{MAX_TYPED}}}")
#: Discord's epoch (the first second of 2015), in milliseconds: a snowflake's top bits count
#: the milliseconds since it.
_DISCORD_EPOCH_MS = 1_420_070_400_000


def seed_value(seed: int | str) -> int | str:
    """The seed as the session holds it: a decimal number as an int (so ``"42"`` and ``42``
    are one seed, as they shuffle alike), any other text as it is."""
    text = str(seed)
    if not text.isdecimal():
        return text
    try:
        number = int(text)
    except ValueError:
        # Past Python's limit for a number written out (4,300 digits): no session's seed.
        raise InvalidStateError(Text.plural(
            "the seed is too long: a number has at most {count} digit",
            "the seed is too long: a number has at most {count} digits",
            sys.get_int_max_str_digits())) from None
    return number if str(number) == text else text


def cut_seed(seed: int | str, cut: str | None) -> int | str:
    """The seed a session is played from: the committed ``seed`` and the player's ``cut``,
    ``SEED/CUT``; the seed alone for a session never cut (from before cuts, or a test's)."""
    if not cut:
        return seed_value(seed)
    if not is_cut(cut):
        raise InvalidStateError(Text.of(
            "the cut must be a click's id ({digits} digits or more) or typed text (at most "
            "{count} visible characters; a number, of fewer than {digits} digits)",
            count=MAX_TYPED, digits=CLICK_DIGITS))
    return f"{seed_value(seed)}/{cut}"


def typed_cut(text: str) -> str | None:
    """The cut a player typed, as it is kept: Unicode's NFC form (one way of writing each
    accented letter, as every keyboard may not type it alike), without spaces around it;
    ``""`` for nothing typed; None if it is not one: more than ``MAX_TYPED`` characters, one
    that is not printable, or a number of ``CLICK_DIGITS`` digits or more (a click's id).
    Nothing is taken out of it: a cut shown cleaned would not be the one typed."""
    cut = unicodedata.normalize("NFC", text).strip()
    if not cut:
        return ""
    # ``isprintable``: no control, format (zero-width, bidi), separator other than the space,
    # private or unassigned character; so the text survives JSON, a terminal and a message.
    if len(cut) > MAX_TYPED or not cut.isprintable() or _CUT.fullmatch(cut):
        return None
    return cut


def is_cut(cut: str) -> bool:
    """Whether ``cut`` is one: a click's id, or a cut as ``typed_cut`` keeps it. Not ``""``
    (``typed_cut``'s nothing typed, whose cut is the click's id): a deck cut with it is dealt
    from the seed alone, a file claiming it as a typed cut a deck never cut."""
    return bool(_CUT.fullmatch(cut)) or (cut != "" and typed_cut(cut) == cut)


def clicked(cut: str) -> bool:
    """Whether ``cut`` is a click's id (``CLICK_DIGITS`` digits or more), not text a player
    typed."""
    return bool(_CUT.fullmatch(cut))


def uncut(played: int | str, cut: str | None) -> int | str:
    """The committed seed of a session played from ``played`` after ``cut`` (``cut_seed``
    undone): what the commitment fixes and the reveal shows."""
    if not cut:
        return played
    text = str(played)
    assert text.endswith(f"/{cut}"), "a cut session is played from SEED/CUT"
    return seed_value(text.removesuffix(f"/{cut}"))


def cut_time(cut: str) -> str | None:
    """The time a click's cut carries, as a Discord id does (its bits above the 22 lowest: the
    milliseconds since Discord's epoch), in UTC to the millisecond; None for a cut that names no
    time a Discord id could. It is the one part of the cut a player can check (it must be when
    they clicked): Discord shows nobody the id of their click, and its lower bits are Discord's
    counters. None for a typed cut too: it is no id."""
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
