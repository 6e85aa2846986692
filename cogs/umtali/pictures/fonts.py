"""The one typeface of the pictures: PT Sans, installed with the project (``fontpkg-pt-sans``).

ParaType made PT Sans for Russian as well as Latin text, so a Cyrillic name shows as written;
it is under the SIL Open Font License 1.1 (the licence is in the installed package). It has
no Greek, and of Vietnamese and Yoruba only the letters other languages share (see
``drawable``). Fonts
are loaded once per size: FreeType's loading costs more than drawing a line of text.
"""

from __future__ import annotations

import io
import unicodedata
from collections import Counter
from functools import cache, lru_cache
from importlib.resources import files

from PIL import ImageFont, features

#: Every line of the pictures is laid out left to right (their languages are), whatever the
#: first letter of a name in it: a Hebrew or Arabic name is one right-to-left run inside it,
#: not a reason to turn the sentence around. Bidi needs raqm, without which nothing is
#: reordered anyway (and a direction may not be given).
DIRECTION = "ltr" if features.check_feature("raqm") else None

_FILES = {False: "PT_Sans-Web-Regular.ttf", True: "PT_Sans-Web-Bold.ttf"}


def _data(bold: bool) -> bytes:
    return (files("fontpkg_pt_sans") / "files" / _FILES[bold]).read_bytes()


@cache
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_data(bold)), size)


@cache
def _plain(bold: bool) -> ImageFont.FreeTypeFont:
    """The typeface laid out a character at a glyph, as it has them (raqm would draw a mark
    it lacks over a dotted circle, and hide the joiners)."""
    return ImageFont.truetype(io.BytesIO(_data(bold)), 20,
                              layout_engine=ImageFont.Layout.BASIC)


def _mask(ch: str, bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = _plain(bold).getmask(ch)
    return mask.size, bytes(mask)


#: Characters whose answer ``has_glyph`` keeps: names bring a few hundred; a member cycling
#: through hostile names could bring every character there is (some 550 MB unbounded).
GLYPHS_KEPT = 4096


@lru_cache(maxsize=GLYPHS_KEPT)
def has_glyph(ch: str, bold: bool = True) -> bool:
    """Whether the typeface has a letter for ``ch`` (else it draws its "missing" box)."""
    return _mask(ch, bold) != _mask("\U0010fffd", bold)  # a private character: none has it


def drawable(text: str, bold: bool = True) -> str:
    """``text`` without what the typeface would draw as boxes (emoji, symbols, CJK, Hebrew,
    Arabic, Greek; zalgo's stacks of marks over the words after them; a "fancy font" letter
    drawn as its plain one; a Vietnamese letter as its base letter with the accents the
    typeface has), composed first so that a letter and its accent typed apart are the one
    letter it has; as it is when nothing would be left (boxes rather than no name: the text
    beside the picture shows it whole)."""
    text = unicodedata.normalize("NFC", text)
    kept = " ".join(" ".join(_word(word, bold) for word in text.split()).split())
    return kept or text


def _word(word: str, bold: bool) -> str:
    """A word as the typeface draws it, without the few letters it has of a script it mostly
    lacks: PT Sans has the mathematicians' Δ Ω μ π but no other Greek, and "Παπαδόπουλος"
    drawn "ππ" is not the name (a Δ or μ among Latin letters stays)."""
    drawn = [(letter, _cluster(letter, bold)) for letter in _clusters(word)]
    lost: Counter[str] = Counter(_script(a) for a, b in drawn if not b and a[0].isalpha())
    kept: Counter[str] = Counter(_script(a) for a, b in drawn if b and a[0].isalpha())
    return "".join(b for a, b in drawn if lost[_script(a)] <= kept[_script(a)])


def _script(letter: str) -> str:
    """The script of a letter, near enough: the first word of its name (LATIN, GREEK...)."""
    return unicodedata.name(letter[0], "").split(" ")[0]


def _clusters(text: str) -> list[str]:
    """Each character of ``text`` with the nonspacing marks after it."""
    clusters: list[str] = []
    for ch in text:
        if clusters and _mark(ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    return clusters


def _mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


def _cluster(letter: str, bold: bool) -> str:
    """A character and its marks as the typeface draws them: as they are where it has the
    character; else, where it has the letter under it (NFD), that letter with each mark
    that composes with it into a letter the typeface has, in order ("ễ" is e, ê, not ễ: ê;
    "ọ̀" is o, not ọ, ò: ò). A Vietnamese name loses accents, not letters."""
    ch, marks = letter[0], letter[1:]
    drawn = _drawn(ch, bold)
    if not drawn:
        parts = unicodedata.normalize("NFD", letter)
        if _mark(parts[0]) or not has_glyph(parts[0], bold):
            return "".join(_drawn(m, bold) for m in marks)
        drawn, marks = parts[0], ""
        for mark in parts[1:]:
            composed = unicodedata.normalize("NFC", drawn + mark)
            if len(composed) == 1 and has_glyph(composed, bold):
                drawn = composed
            else:
                marks += mark
    return drawn + "".join(_drawn(m, bold) for m in marks)


def _drawn(ch: str, bold: bool) -> str:
    """``ch`` as the typeface draws it: itself; else its compatibility form, when the typeface
    has that ("fancy font" names: 𝓐, Ⓑ, Ｗ, 𝐁 are A, B, W, B); else nothing."""
    if ch.isspace() or has_glyph(ch, bold):
        return ch
    plain = unicodedata.normalize("NFKC", ch)
    if plain != ch and all(c.isspace() or has_glyph(c, bold) for c in plain):
        return plain
    return ""


def fit(text: str, size: int, width: int, bold: bool = True) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels in the font of ``size``."""
    f = font(size, bold)
    if f.getlength(text, direction=DIRECTION) <= width:
        return text
    while text and f.getlength(text + "…", direction=DIRECTION) > width:
        text = text[:-1]
    return text.rstrip() + "…"
