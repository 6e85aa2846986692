"""PT Sans (the pictures' typeface) lacks the Vietnamese letters, the Yoruba under-dots and
all of Greek. A letter it lacks whose canonical decomposition is a letter it has plus marks
is drawn as that letter with the marks it has ("ễ" is "ê"); a name is not drawn with holes
("Nguyễn" as "Nguyn"). Only what has no drawable letter under it is dropped."""

from __future__ import annotations

import unicodedata

import pytest

from cogs.umtali.pictures.fonts import drawable, has_glyph
from cogs.umtali.pictures.scene import table_scene
from tests.test_review96_pictures import _ended_with_cards_left
from umtali.i18n import EN

#: Names, and what the picture draws of them.
DRAWN = {
    "Nguyễn Thị Phượng": "Nguyên Thi Phuong",
    "Trần Đức Hoàng": "Trân Đúc Hoàng",
    "Adébáyọ̀ Ọlájídé": "Adébáyò Olájídé",  # the under-dot goes, the tone stays
    "Ṣadé": "Sadé",
    "Zbigniew Łękawski Źdźbło": "Zbigniew Łękawski Źdźbło",  # Polish: all there
    "Dvořák Růžička Těšínský": "Dvořák Růžička Těšínský",  # Czech
    "Ağaoğlu Işıl Şimşek": "Ağaoğlu Işıl Şimşek",  # Turkish
    "Ștefănescu Țurcanu": "Ștefănescu Țurcanu",  # Romanian, comma below
    "Þórdís Guðrún Ævarsdóttir": "Þórdís Guðrún Ævarsdóttir",  # Icelandic
    "Ґалїна Євгенія": "Ґалїна Євгенія",  # Ukrainian
    "Ђорђе Ћирић Џаја": "Ђорђе Ћирић Џаја",  # Serbian
    "Әсел Ғалым Қуаныш Ұлан Үміт Өмір Һ": "Әсел Ғалым Қуаныш Ұлан Үміт Өмір Һ",  # Kazakh
    "Ελένη Bob": "Bob",  # no Greek at all in PT Sans: dropped, as an emoji is
    "Ελένη": "Ελένη",  # nothing left: the name as typed (boxes; the text shows it whole)
    "Bob 🎲 山田": "Bob",
    # PT Sans has 4 Greek letters (the mathematicians' Δ Ω μ π): not a Greek word's "ππ".
    "Ελένη Παπαδοπούλου Bob": "Bob",
    "ΔLex μ-ziq Ωmega": "ΔLex μ-ziq Ωmega",
    "Kɔfi Ɛsi": "Kfi si",  # Akan: a letter without a base the typeface has (ɔ, ɛ) goes
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
    assert [seat.name for seat in seats] == ["Nguyên Thi Phuong", "Adébáyò"]


@pytest.mark.parametrize("text", ["", " ", "\u0301", "\u0323\u0300a", "ọ\u0489" * 3])
def test_odd_texts(text: str) -> None:
    # Nothing, marks on nothing, marks first, a mark it lacks after one it has not.
    shown = drawable(text)
    assert shown == unicodedata.normalize("NFC", text) or all(
        ch.isspace() or has_glyph(ch) for ch in shown), ascii(shown)
