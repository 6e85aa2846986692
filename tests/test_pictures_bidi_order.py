"""A right-to-left name drawn in the pictures reads as Unicode's bidi algorithm (UAX #9) shows
it alone: its words, digits and signs in their visual order, not in the order they were typed.
The line stays left to right (English, Russian); a name whose first strong letter is Hebrew or
Arabic is one right-to-left stretch of it, isolated as Discord's text isolates names
(``names.isolate``). "בן-גוריון" was drawn בן left of גוריון: "Gurion-Ben" to its reader.

The expected order is python-bidi's (the Rust crate unicode-bidi); each word is found as its
typeface draws it (``picture_ink``), and its ink's place compared."""

from __future__ import annotations

import io
import re
import unicodedata

import pytest
from bidi import get_display
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, features

from cogs.umtali.pictures import draw_table_png
from cogs.umtali.pictures.bidi_order import levels, visual_order
from cogs.umtali.pictures.runs import draw, fit
from cogs.umtali.pictures.scene import table_scene
from cogs.umtali.pictures.table import FELT, STATUS_SIZES, TEXT
from tests.picture_ink import HEEBO, NOTO_ARABIC, NOTO_SANS, PT_SANS, found
from umtali import RuleSet, Session
from umtali.i18n import tr_for
from umtali.view import SPECTATOR

pytestmark = pytest.mark.skipif(not features.check_feature("raqm"),
                                reason="Hebrew and Arabic are drawn only with raqm")

VIEW = Session(RuleSet.english(), 5).view(SPECTATOR)
#: Brackets at a right-to-left level are drawn mirrored (UAX #9, L4); python-bidi's string
#: gives the characters, not the glyphs.
MIRRORED = {"(": ")", ")": "("}

RTL_NAMES = ["בן-גוריון", "محمد 12 علي", "محمد (سعد)", "عبد_الله", "דוד 2", "דוד Ada כהן",
             "שלום Ada"]
#: Left-to-right names (first strong letter Latin) with a right-to-left word: as typed, but
#: for the number after it ("Ana محمد 12" reads "Ana 12 دمحم", as in a browser).
LTR_NAMES = ["Ana محمد", "Ana محمد 12"]


def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _part(token: str) -> tuple[str, tuple[str, str], str]:
    """A token as a typeface draws it: its text, typeface and direction."""
    if any(unicodedata.bidirectional(ch) == "AL" for ch in token):
        return token, NOTO_ARABIC, "rtl"
    if any(_rtl(ch) for ch in token):
        return token, HEEBO, "rtl"
    return token, PT_SANS, "ltr"


def visual(name: str) -> list[str]:
    """The words, numbers and brackets of ``name`` left to right as UAX #9 shows it alone
    (the paragraph's direction its first strong letter's): each as drawn (a bracket of a
    right-to-left name mirrored)."""
    shown = str(get_display(name, base_dir=None))
    rtl = next((_rtl(ch) for ch in name if unicodedata.bidirectional(ch) in ("L", "R", "AL")),
               False)
    placed: list[tuple[int, str]] = []
    for token in re.findall(r"[^\W_]+|[()]", name):
        # python-bidi reverses a right-to-left word's letters; a number or Latin word stays.
        at = shown.index(token[::-1] if _rtl(token[0]) else token)
        placed.append((at, MIRRORED.get(token, token) if rtl else token))
    return [token for _, token in sorted(placed)]


def _find(png: bytes, token: str, size: int = 26) -> list[tuple[int, int]]:
    text, which, direction = _part(token)
    return found(png, text, which, size, direction)


def ink_order(png: bytes, tokens: list[str], size: int) -> list[str] | None:
    """``tokens`` (each the beginning of a run: drawn from a whole pixel) as found in ``png``
    at ``size`` on one baseline, left to right (None if not every one is there on the same
    baseline)."""
    places = {t: _find(png, t, size) for t in tokens}
    baselines = set.intersection(*({b for _, b in places[t]} for t in tokens))
    if not baselines:
        return None
    base = min(baselines)
    x = {t: min(px for px, b in places[t] if b == base) for t in tokens}
    return sorted(tokens, key=lambda t: x[t])


@pytest.mark.parametrize("name", RTL_NAMES + LTR_NAMES)
def test_a_name_is_drawn_in_its_bidi_visual_order(name: str) -> None:
    tokens = visual(name)
    png = draw_table_png(VIEW, (name, "Ben"))  # at 26 pixels only in its band
    assert ink_order(png, tokens, 26) == tokens, (name, tokens)


@pytest.mark.parametrize("name", ["Ada Lovelace", "Ben 12", "Ελένη Νίκου"])
def test_a_left_to_right_name_is_drawn_as_typed(name: str) -> None:
    png = draw_table_png(VIEW, (name, "Ben"))
    which = PT_SANS if name.isascii() else NOTO_SANS
    assert found(png, name, which), name


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="אבגدهوab019٣٤ -()[].,%$#_:/+", max_size=12))
def test_the_order_is_the_bidi_algorithms(text: str) -> None:
    """``bidi_order`` (what names need of UAX #9) orders characters as python-bidi does:
    letters of both directions, European and Arabic digits, their separators and
    terminators, brackets, spaces."""
    order = visual_order(levels(list(text)))
    assert "".join(text[i] for i in order) == get_display(text, base_dir=None)


def test_the_expected_orders_are_the_readers() -> None:
    """The oracle itself, spelled out for the names of the review."""
    assert visual("בן-גוריון") == ["גוריון", "בן"]
    assert visual("محمد 12 علي") == ["علي", "12", "محمد"]
    assert visual("محمد (سعد)") == ["(", "سعد", ")", "محمد"]
    assert visual("דוד 2") == ["2", "דוד"]
    assert visual("דוד Ada כהן") == ["כהן", "Ada", "דוד"]
    assert visual("Ada Lovelace") == ["Ada", "Lovelace"]


@pytest.mark.parametrize("name", ["דוד Ada כהן", "דוד 2", "محمد 12 علي", "Ana محمد 12"])
def test_the_status_line_draws_the_name_as_one_stretch_before_what_they_must_do(
        name: str) -> None:
    """"NAME to draw": the name first in the left-to-right sentence, in its own visual order,
    what they must do to its right."""
    names = (name, "Ben") if VIEW.to_act == 0 else ("Ben", name)
    for lang in ("en", "ru"):
        tr = tr_for(lang)
        scene = table_scene(VIEW, names, tr)
        assert scene.status_name == name
        rest = scene.status.removeprefix(name).split()[0]
        png = draw_table_png(VIEW, names, tr=tr)
        tokens = [*visual(name), rest]
        assert any(ink_order(png, tokens, size) == tokens for size in STATUS_SIZES), \
            (lang, name, tokens)


def _drawn(text: str) -> bytes:
    canvas = Image.new("RGB", (700, 60), FELT)
    draw(ImageDraw.Draw(canvas), (10, 8), text, 26, TEXT)
    out = io.BytesIO()
    canvas.save(out, "PNG")
    return out.getvalue()


def _ellipsis(png: bytes) -> list[tuple[int, int]]:
    return found(png, "…", PT_SANS) + found(png, "…", HEEBO)


@pytest.mark.parametrize(("name", "width"), [("דוד Ada כהן", 110), ("שלמה בן דוד המלך", 150),
                                              ("محمد 12 علي", 110)])
def test_fit_cuts_a_right_to_left_name_at_its_left_keeping_its_beginning(
        name: str, width: int) -> None:
    cut = fit(name, 26, width)
    assert cut.endswith("…") and cut != name and name.startswith(cut[:-1].rstrip()), cut
    png = _drawn(cut)
    kept = cut.removesuffix("…").rstrip()
    # A run of one typeface and direction is found whole (its words are not drawn from whole
    # pixels); else word by word.
    words = [kept] if kept.replace(" ", "").isalpha() and all(
        _rtl(ch) for ch in kept.replace(" ", "")) else re.findall(r"[^\W_]+", kept)
    [(x_first, _)] = _find(png, words[0])
    [(x_cut, _)] = _ellipsis(png)
    # The ellipsis at the stretch's visual end (its left), the first word at its right end.
    assert x_cut < x_first, cut
    for word in words[1:]:
        [(x, _)] = _find(png, word)
        assert x_cut < x < x_first, (cut, word)


def test_fit_cuts_a_left_to_right_name_at_its_right() -> None:
    cut = fit("Ada Lovelace Byron", 26, 140)
    assert cut.endswith("…") and "Ada Lovelace Byron".startswith(cut[:-1]), cut
    assert found(_drawn(cut), cut, PT_SANS), cut  # as typed: the ellipsis last, at the right
