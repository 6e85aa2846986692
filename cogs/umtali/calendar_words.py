"""Seasons and dates in the reader's words: a season by its month or quarter ("December 2026",
«декабрь 2026»; "Q4 2026", «4-й квартал 2026»), not by its id ("2026-12", "2026-Q4":
``data.seasons``), and a moment as a date and a time in UTC as the reader's language writes
them ("Dec 7, 2026, 04:41 UTC", «7 дек. 2026 г., 04:41 UTC»). Babel knows each language's
month names and date forms; the catalogue, the order of a season's words.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_skeleton, get_month_names

from umtali.i18n import ENGLISH, Text, Tr, languages, tr_for

#: A monthly season's id, "2026-12", and a quarterly one's, "2026-Q4" (``season_of``).
_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")
_QUARTER = re.compile(r"([0-9]{4})-Q([1-4])")
#: A season's name: a month's, with its month's name as said alone (Russian «декабрь», not
#: the «декабря» of a date), and a quarter's.
MONTH_SEASON = Text.ctx("a season's name: a month and its year", "{month} {year}")
QUARTER_SEASON = Text.ctx("a season's name: a quarter of the year", "Q{quarter} {year}")


@cache
def _locale(lang: str) -> Locale:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(ENGLISH)


def season_name(tr: Tr, season: str) -> str:
    """``season`` (its id) as the reader says it; an id that is none of a month's or a
    quarter's is shown as it is (a name never fails to show)."""
    month = _MONTH.fullmatch(season)
    if month and 1 <= int(month[2]) <= 12:
        names = get_month_names("wide", context="stand-alone", locale=_locale(tr.lang))
        return tr(MONTH_SEASON, month=names[int(month[2])], year=month[1])
    quarter = _QUARTER.fullmatch(season)
    if quarter:
        return tr(QUARTER_SEASON, quarter=quarter[2], year=quarter[1])
    return season


def folded(text: str) -> str:
    """``text`` as compared: lower case, ``ё`` as ``е`` (as Russian is mostly typed), its
    spaces single."""
    return " ".join(text.lower().replace("ё", "е").split())


def season_of_name(typed: str) -> str | None:
    """The season (its id) whose name, in any language the bot speaks, is ``typed`` (cased
    and spaced at will); None when it names none. A member types what they were shown."""
    asked = folded(typed)
    year = re.search(r"(?<![0-9])[0-9]{4}(?![0-9])", asked)
    if year is None:
        return None
    seasons = [f"{year[0]}-{m:02d}" for m in range(1, 13)] + \
        [f"{year[0]}-Q{q}" for q in range(1, 5)]
    for season in seasons:
        if any(folded(season_name(tr_for(lang), season)) == asked for lang in languages()):
            return season
    return None


def when_words(tr: Tr, at: float) -> str:
    """The moment ``at`` (a Unix time) as a date and a time in UTC, for a file or a select
    option (where Discord's own ``<t:…>`` dates, shown in the reader's zone, do not work).
    A 24-hour clock in every language: a time in UTC is read against one's own, not lived
    by."""
    moment = dt.datetime.fromtimestamp(at, dt.UTC)
    locale = _locale(tr.lang)
    date = format_skeleton("yMMMd", moment, tzinfo=dt.UTC, locale=locale)
    time = format_skeleton("Hm", moment, tzinfo=dt.UTC, locale=locale)
    # The language's own joining of a date and a time ("{1}, {0}": "Dec 7, 2026, 04:41").
    joined = str(locale.datetime_formats["medium"]).format(time, date)
    return f"{joined} UTC"
