"""Lengths of time in words, in the reader's language: "1 minute 15 seconds", «1 минута 15
секунд». Units in words, never bare letters: a screen reader says "30 s" as "thirty ess", and
a phone's reader takes "min" for a word of its own. The words and their plural forms are
CLDR's, through Babel (the bot's catalogues need it already), not a catalogue entry each: so
«21 минута», «22 минуты», «25 минут» come right in every language it speaks. Nominative forms,
for a value standing alone ("reserve: …", "clock: …"); a sentence that needs another case
(«через 1 минуту») says its own plural forms through the catalogue."""

from __future__ import annotations

import math

from babel.lists import format_list
from babel.units import format_unit

from umtali.i18n import Tr


def unit_words(count: int, unit: str, tr: Tr) -> str:
    """``count`` of one unit, ``hour``, ``minute`` or ``second``: "5 minutes", «5 минут»."""
    return str(format_unit(count, f"duration-{unit}", length="long", locale=tr.lang))


def wait_seconds(wait: float) -> int:
    """A wait to say in whole seconds ("try again in {count} seconds"): rounded up, at least
    1. Said short of its end, the thing asked for again then would be refused again."""
    return max(1, math.ceil(wait))


def duration_words(seconds: float, tr: Tr) -> str:
    """A length of time to the second: "1 hour 2 minutes", "1 minute 15 seconds", "0 seconds".
    Parts joined as the language joins units (no comma: the clock line parts players with
    one)."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [unit_words(n, unit, tr) for n, unit in
             ((hours, "hour"), (minutes, "minute"), (secs, "second")) if n]
    if not parts:
        return unit_words(0, "second", tr)
    return str(format_list(parts, style="unit-narrow", locale=tr.lang))
