"""Names that show as nothing though they hold a letter: the "invisible name" of Discord, made
of Hangul fillers (U+3164, U+115F, U+1160, U+FFA0: letters by their category, drawn as
nothing), the blank braille pattern (U+2800) or the combining grapheme joiner (U+034F). Such a
player read as nobody ("**ㅤ** wins the session"): these go as the invisible characters do, and
a name of nothing else is the fallback name."""

from __future__ import annotations

import pytest

from cogs.umtali.names import FALLBACK, clean_name, label_name, safe_name, unnamed

BLANKS = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f"]


@pytest.mark.parametrize("blank", BLANKS)
def test_a_name_of_blank_letters_is_the_fallback_name(blank: str) -> None:
    for name in (blank, blank * 5, f"{blank} {blank}"):
        assert clean_name(name) == FALLBACK
        assert safe_name(name) == FALLBACK and label_name(name) == FALLBACK


@pytest.mark.parametrize("blank", BLANKS)
def test_blank_letters_are_taken_out_of_a_name(blank: str) -> None:
    assert clean_name(f"{blank}Ada{blank}") == "Ada"
    # A filler is drawn as a blank as wide as a letter (that is its use): a space between
    # words; the joiner has no width.
    parted = "AdaLovelace" if blank == "\u034f" else "Ada Lovelace"
    assert clean_name(f"Ada{blank}Lovelace") == parted


def test_korean_names_keep_their_letters() -> None:
    assert clean_name("김민준") == "김민준"


@pytest.mark.parametrize("marks", ["\u0301\u0302\u0303", "\u0301", " \u20dd \u0489 ",
                                   "\u0301\u3164\u0302"])
def test_a_name_of_combining_marks_alone_is_the_fallback_name(marks: str) -> None:
    # Marks with no letter to sit on: the text showed accents over nothing, the picture a
    # stray accent. Such a name shows nothing of its own, as a blank one does.
    assert clean_name(marks) == FALLBACK and unnamed(marks)
    assert safe_name(marks) == FALLBACK and label_name(marks) == FALLBACK


def test_marks_on_a_letter_stay() -> None:
    assert clean_name("Zoe\u0301") == "Zoe\u0301" and not unnamed("Zoe\u0301")
    # A letter after them: a name all the same, but the marks before it would sit on the text
    # before the name (tests/test_fix134_leading_marks.py).
    assert clean_name("\u0301Ada") == "Ada"
