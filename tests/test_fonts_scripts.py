"""Names in Greek, Hebrew, Arabic (and Thai, Tamil...) drawn in the pictures, by the typeface
that has their letters (``fonts.CHAIN``: PT Sans, then Noto Sans, Heebo, Noto Sans Arabic...),
not dropped nor drawn as boxes: found pixel for pixel as that typeface draws them directly
(``picture_ink``), Arabic joined, Hebrew and Arabic right to left, every run of a line on one
baseline, cut and wrapped by the width they are drawn at."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image, ImageDraw, features

from cogs.umtali.pictures import draw_table_png
from cogs.umtali.pictures.table import WIDTH
from tests.picture_ink import HEEBO, NOTO_ARABIC, NOTO_SANS, PT_SANS, found, typeface
from umtali import RuleSet, Session
from umtali.view import SPECTATOR

raqm = pytest.mark.skipif(not features.check_feature("raqm"),
                          reason="Hebrew and Arabic are drawn only with raqm")

VIEW = Session(RuleSet.english(), 5).view(SPECTATOR)
NAMES = [("محمد", NOTO_ARABIC, "rtl"), ("דוד", HEEBO, "rtl"),
         ("Παπαδόπουλος", NOTO_SANS, "ltr")]


@raqm
@pytest.mark.parametrize(("name", "which", "direction"), NAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_name_of_another_script_is_drawn_by_its_typeface(
        name: str, which: tuple[str, str], direction: str, seat: int) -> None:
    names = (name, "Ben") if seat == 0 else ("Ben", name)
    png = draw_table_png(VIEW, names)
    # In its band (and in the status line when the seat is to act).
    assert found(png, name, which, direction=direction), name
    assert png != draw_table_png(VIEW, ("Ben", "Ben"))


@raqm
def test_an_arabic_name_is_drawn_joined() -> None:
    f = typeface(NOTO_ARABIC)
    # Shaped, the letters join: not the width of their isolated forms side by side.
    assert f.getlength("محمد", direction="rtl") != sum(f.getlength(ch) for ch in "محمد")
    png = draw_table_png(VIEW, ("محمد", "Ben"))
    assert found(png, "محمد", NOTO_ARABIC, direction="rtl")


@raqm
@pytest.mark.parametrize(("name", "first", "second"), [
    ("Ana محمد", ("Ana", PT_SANS, "ltr"), ("محمد", NOTO_ARABIC, "rtl")),
    # A right-to-left name (its first strong letter Hebrew) reads right to left as a whole
    # (UAX #9: tests/test_pictures_bidi_order.py): Ada on the left of דוד.
    ("דוד Ada", ("Ada", PT_SANS, "ltr"), ("דוד", HEEBO, "rtl")),
    ("Ben Ελένη", ("Ben", PT_SANS, "ltr"), ("Ελένη", NOTO_SANS, "ltr")),
])
def test_a_name_of_two_scripts_keeps_both_in_visual_order_on_one_baseline(
        name: str, first: tuple[str, tuple[str, str], str],
        second: tuple[str, tuple[str, str], str]) -> None:
    png = draw_table_png(VIEW, (name, "Zed"))
    [(x1, base1), *_] = found(png, first[0], first[1], direction=first[2])
    seconds = found(png, second[0], second[1], direction=second[2])
    # The second part to the right of the first, on the same baseline (in the band, where the
    # first is found first, top to bottom).
    assert any(base == base1 and x > x1 for x, base in seconds), (x1, base1, seconds)


def test_the_typefaces_letters_are_of_a_size() -> None:
    """A capital of each typeface about as tall as PT Sans's at the same size."""
    tall = typeface(PT_SANS).getbbox("H", anchor="ls")[1]
    for which, capital in ((NOTO_SANS, "Η"), (HEEBO, "H")):
        assert abs(typeface(which).getbbox(capital, anchor="ls")[1] - tall) <= 2, which


MIXED = ["Ana محمد Παπαδόπουλος דוד", "محمد علي Ελένη Bob שלום", "Nguyễn Thị สมชาย தமிழ்",
         "Ελένη" * 8, "שלום" * 10]


@raqm
@pytest.mark.parametrize("name", MIXED)
def test_fit_never_exceeds_its_width_with_runs_of_several_typefaces(name: str) -> None:
    from cogs.umtali.pictures.runs import draw, fit, length

    for width in range(24, 420, 11):  # from an ellipsis's width
        cut = fit(name, 26, width)
        assert length(cut, 26) <= width, (width, cut)
        assert cut == name or name.startswith(cut.removesuffix("…").rstrip()), cut
        canvas = Image.new("RGB", (600, 60))
        draw(ImageDraw.Draw(canvas), (0, 8), cut, 26, (255, 255, 255))
        ink = canvas.getbbox()
        assert ink is None or ink[2] <= width + 2, (width, cut, ink)


@raqm
@pytest.mark.parametrize("name", ["Παπαδόπουλος Αλεξανδρόπουλος Κωνσταντινίδης",
                                  "عبد الرحمن بن محمد آل سعود", "שלמה בן דוד המלך"])
def test_the_status_line_wraps_names_of_other_scripts(name: str) -> None:
    from cogs.umtali.pictures.runs import length
    from cogs.umtali.pictures.table import status_lines

    text = f"{name} to meld and discard"
    size, lines = status_lines(text, 420)
    assert len(lines) > 1, lines
    assert " ".join(lines).split() == text.split(), lines  # every word, none cut
    assert all(length(line, size) <= 420 for line in lines), lines


HOSTILE = [
    "A\u202eBC\u202d\u2067محمد\u2069 Ελένη דוד สมชาย 山田 🎲" * 3,
    "Z" + "\u0301\u0337\u0591\u064b" * 1000 + "محمد",
    "\u200d".join("محمد") + "\u200d" * 50 + "Ana",
    "\u2066" * 20 + "שלום" * 200 + "\u202e" * 20,
]


@raqm
@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_stays_in_its_box_and_draws_quickly(name: str) -> None:
    plain = Image.open(io.BytesIO(draw_table_png(VIEW, ("Ben", "Ben"))))
    draw_table_png(VIEW, (name, "Ben"))  # typefaces loaded
    start = time.perf_counter()
    png = draw_table_png(VIEW, (name, "Ben"))
    assert time.perf_counter() - start < 0.5
    hostile = Image.open(io.BytesIO(png))
    assert hostile.size == plain.size
    # Above the name's band (the title), the score line at its right, and what is under it
    # (the seat's melds) as with a plain name: nothing drawn past the name's box.
    for box in ((0, 0, WIDTH, 44), (WIDTH - 240, 44, WIDTH, 94), (0, 94, WIDTH, 138)):
        assert hostile.crop(box).tobytes() == plain.crop(box).tobytes(), box


def test_without_raqm_right_to_left_and_shaped_scripts_are_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pillow without raqm can neither join Arabic nor lay Hebrew out right to left: those
    letters are dropped as before (and Devanagari, which Noto Sans has but must be shaped);
    Greek and Vietnamese, which need neither, are still drawn."""
    from cogs.umtali.pictures import fonts

    monkeypatch.setattr(fonts, "RAQM", False)
    fonts.has.cache_clear()
    try:
        assert fonts.drawable("Ana محمد") == "Ana"
        assert fonts.drawable("דוד Ελένη") == "Ελένη"
        assert fonts.drawable("देव Nguyễn") == "Nguyễn"
        assert fonts.drawable("محمد") == "محمد"  # nothing left: as typed (boxes)
    finally:
        fonts.has.cache_clear()
