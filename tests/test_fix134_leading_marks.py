"""A name that opens with what joins the character before it: combining marks (an accent, a
variation selector, the keycap's enclosing mark), an emoji's skin tone. In "Ходит ́Bob" or
"'́Bob'" the mark sat on our space or quote, outside the name; "1" before "\\ufe0f\\u20e3"
became a keycap emoji. Such characters go from a name's start (they stay inside it, on its own
letters), and a stored name from before goes through the same cleaning wherever it is shown."""

from __future__ import annotations

import unicodedata

import pytest

from cogs.umtali.names import (
    FALLBACK,
    clean_name,
    label_name,
    record_name,
    safe_name,
    seat_names,
    unnamed,
)
from umtali.i18n import EN, tr_for


def joins_before(ch: str) -> bool:
    """Whether ``ch`` joins the character before it when drawn."""
    return unicodedata.category(ch).startswith("M") or 0x1F3FB <= ord(ch) <= 0x1F3FF


@pytest.mark.parametrize("name", [
    "\u0301\u0301Bob", "\u0301Bob", " \u0301 Bob", "\u200b\u0301Bob", "\u202e\u0301Bob",
    "\ufe0f\u20e3Bob", "\u0489Bob", "\U0001f3fdBob", "\u3164\u0301Bob", "\u0301 \u0302Bob",
])
def test_nothing_at_a_names_start_joins_the_text_before_it(name: str) -> None:
    for shown in (clean_name(name), safe_name(name), label_name(name)):
        assert shown == "Bob", ascii(shown)
        assert not joins_before(shown[0])
    assert not unnamed(name)


def test_marks_inside_a_name_stay_on_its_own_letters() -> None:
    for name in ("Zoe\u0301", "Zo\u0308e", "Андреи\u0306", "Bob \u0301Smith",
                 "\U0001f44b\U0001f3fd Bob"):
        assert clean_name(name) == name


def test_a_name_kept_whole_to_32_characters_after_its_marks_go() -> None:
    assert clean_name("\u0301" * 5 + "x" * 40) == "x" * 32


@pytest.mark.parametrize("name", ["\u0301\u0302", "\U0001f3fb", " \u20e3 \ufe0f "])
def test_a_name_of_such_characters_alone_shows_nothing(name: str) -> None:
    assert clean_name(name) == FALLBACK and unnamed(name)


def test_a_name_stored_before_is_cleaned_where_it_is_shown() -> None:
    # Stored names were cleaned by the rules of their day: a match's names and the records'
    # are shown through the same cleaning as a member's name is now.
    old = "\u0301\u0301Bob"
    assert seat_names((old, "Ann"), EN) == ("Bob", "Ann")
    assert record_name(old, 10004821, tr_for("ru")) == "Bob"
