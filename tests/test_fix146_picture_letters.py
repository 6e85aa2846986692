"""PT Sans (the pictures' first typeface) lacks the Vietnamese letters, the Yoruba under-dots
and all of Greek: Noto Sans, after it, has them, and draws them (``fonts.CHAIN``). A letter no
typeface has whose canonical decomposition is a letter one has plus marks is drawn as that
letter with the marks it has; a name is not drawn with holes ("Nguyễn" as "Nguyn"). Only what
has no drawable letter under it is dropped (CJK, emoji)."""

from __future__ import annotations

import unicodedata

import pytest

from cogs.umtali.pictures.fonts import drawable, has_glyph
from cogs.umtali.pictures.scene import table_scene
from tests.test_review96_pictures import _ended_with_cards_left
from umtali.i18n import EN

#: Names, and what the picture draws of them.
DRAWN = {
    "Nguyễn Thị Phượng": "Nguyễn Thị Phượng",  # by Noto Sans
    "Trần Đức Hoàng": "Trần Đức Hoàng",
    "Adébáyọ̀ Ọlájídé": "Adébáyọ̀ Ọlájídé",  # the under-dot and the tone
    "Ṣadé": "Ṣadé",
    "Zbigniew Łękawski Źdźbło": "Zbigniew Łękawski Źdźbło",  # Polish: all there
    "Dvořák Růžička Těšínský": "Dvořák Růžička Těšínský",  # Czech
    "Ağaoğlu Işıl Şimşek": "Ağaoğlu Işıl Şimşek",  # Turkish
    "Ștefănescu Țurcanu": "Ștefănescu Țurcanu",  # Romanian, comma below
    "Þórdís Guðrún Ævarsdóttir": "Þórdís Guðrún Ævarsdóttir",  # Icelandic
    "Ґалїна Євгенія": "Ґалїна Євгенія",  # Ukrainian
    "Ђорђе Ћирић Џаја": "Ђорђе Ћирић Џаја",  # Serbian
    "Әсел Ғалым Қуаныш Ұлан Үміт Өмір Һ": "Әсел Ғалым Қуаныш Ұлан Үміт Өмір Һ",  # Kazakh
    "Ελένη Bob": "Ελένη Bob",  # Greek by Noto Sans
    "山田": "山田",  # nothing left: the name as typed (boxes; the text shows it whole)
    "Bob 🎲 山田": "Bob",  # no typeface has CJK or emoji: dropped
    # PT Sans has 4 Greek letters (the mathematicians' Δ Ω μ π), Noto Sans all of them.
    "Ελένη Παπαδοπούλου Bob": "Ελένη Παπαδοπούλου Bob",
    "ΔLex μ-ziq Ωmega": "ΔLex μ-ziq Ωmega",
    "Kɔfi Ɛsi": "Kɔfi Ɛsi",  # Akan: ɔ, ɛ by Noto Sans
    "Ṣadé 𝓐da": "Ṣadé Ada",  # a "fancy font" letter as its plain one
    "A̷̢̛̖da": "Ada",  # zalgo's marks PT Sans lacks over its A go
}


@pytest.mark.parametrize("name", list(DRAWN))
def test_what_the_picture_draws(name: str) -> None:
    assert drawable(name) == DRAWN[name]
    # Typed apart (letter, then its accents), the same.
    assert drawable(unicodedata.normalize("NFD", name)) == DRAWN[name]


@pytest.mark.parametrize("name", list(DRAWN))
def test_every_letter_drawn_is_in_the_typeface(name: str) -> None:
    shown = drawable(name)
    if shown != unicodedata.normalize("NFC", name):
        assert all(ch.isspace() or has_glyph(ch) for ch in shown), ascii(shown)


def test_the_table_picture_draws_vietnamese_names() -> None:
    view, _ = _ended_with_cards_left()
    seats = table_scene(view, ("Nguyễn Thị Phượng", "Adébáyọ̀"), EN).seats
    assert [seat.name for seat in seats] == ["Nguyễn Thị Phượng", "Adébáyọ̀"]


@pytest.mark.parametrize("text", ["", " ", "\u0301", "\u0323\u0300a", "ọ\u0489" * 3])
def test_odd_texts(text: str) -> None:
    # Nothing, marks on nothing, marks first, a mark it lacks after one it has not.
    shown = drawable(text)
    assert shown == unicodedata.normalize("NFC", text) or all(
        ch.isspace() or has_glyph(ch) for ch in shown), ascii(shown)
