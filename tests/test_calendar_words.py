"""Seasons and dates in the reader's words (``calendar_words``): a season's name as a member
says it, never its id, and a moment as a date and a time in UTC as the reader's language
writes them."""

from __future__ import annotations

import datetime as dt

import pytest

from cogs.umtali.calendar_words import season_name, season_of_name, when_words
from umtali.i18n import tr_for

EN, RU = tr_for("en"), tr_for("ru")
#: 7 December 2026, 04:41 UTC.
AT = dt.datetime(2026, 12, 7, 4, 41, 59, tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize("season, english, russian", [
    ("2026-12", "December 2026", "декабрь 2026"),
    ("2027-01", "January 2027", "январь 2027"),
    ("2026-05", "May 2026", "май 2026"),
    ("2026-Q4", "Q4 2026", "4-й квартал 2026"),
    ("2027-Q1", "Q1 2027", "1-й квартал 2027"),
])
def test_a_season_is_named_as_a_member_says_it(season: str, english: str,
                                               russian: str) -> None:
    assert season_name(EN, season) == english
    # The month stand-alone, in the nominative («декабрь», not «декабря»).
    assert season_name(RU, season) == russian


@pytest.mark.parametrize("odd", ["2026-13", "2026-Q5", "2026-00", "season", "", "2026-1x",
                                 "-12", "2026-Q"])
def test_an_id_that_cannot_be_read_is_shown_as_it_is(odd: str) -> None:
    assert season_name(EN, odd) == odd and season_name(RU, odd) == odd


def test_a_moment_is_a_date_and_a_time_in_utc() -> None:
    assert when_words(EN, AT) == "Dec 7, 2026, 04:41 UTC"
    # A 24-hour clock, «г.» after the year as Russian writes a date.
    assert when_words(RU, AT).replace("\u202f", " ") == "7 дек. 2026 г., 04:41 UTC"
    # The afternoon is not "4:41 PM" in either.
    later = AT + 12 * 3600
    assert when_words(EN, later) == "Dec 7, 2026, 16:41 UTC"
    assert when_words(RU, later).endswith(", 16:41 UTC")


@pytest.mark.parametrize("typed, season", [
    ("December 2026", "2026-12"), ("december 2026", "2026-12"), ("DECEMBER  2026", "2026-12"),
    ("декабрь 2026", "2026-12"), ("Декабрь 2026", "2026-12"), ("май 2026", "2026-05"),
    ("q4 2026", "2026-Q4"), ("Q4 2026", "2026-Q4"), ("4-й квартал 2026", "2026-Q4"),
    ("4-Й КВАРТАЛ 2026", "2026-Q4"),
])
def test_a_name_in_either_language_gives_its_season(typed: str, season: str) -> None:
    assert season_of_name(typed) == season


@pytest.mark.parametrize("typed", ["December", "2026", "Decembre 2026", "Q5 2026",
                                   "13 2026", "", "нет 2026"])
def test_a_name_of_no_season_gives_none(typed: str) -> None:
    assert season_of_name(typed) is None
