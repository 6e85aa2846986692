"""The typefaces of the pictures: PT Sans first, then the fonts for what it lacks.

ParaType made PT Sans for Russian as well as Latin text, so a Cyrillic name shows as written;
every Latin and Cyrillic name looks as it always did. What it lacks the next typeface of
``CHAIN`` that has it draws: Noto Sans (Greek, Vietnamese, African Latin, Devanagari), Heebo
(Hebrew), Noto Sans Arabic, Thai, Tamil, Telugu, Khmer. Each is a ``fontpkg-*`` package
under the SIL Open Font License 1.1 (the licence is in the installed package). CJK has no
well-kept package (the one there is: 2019, 28 MB a weight, licence unstated): CJK and emoji
are left out (see ``drawable``). A text is drawn in runs, one typeface each (``runs.py``).
Fonts are loaded once per typeface, size and weight: FreeType's loading costs more than
drawing a line of text.
"""

from __future__ import annotations

import io
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path

from PIL import ImageFont, features

#: Whether Pillow lays text out with raqm (bidi and shaping): Arabic letters join, and Hebrew
#: and Arabic read right to left, only with it.
RAQM = features.check_feature("raqm")

#: Every line of the pictures is laid out left to right (their languages are), whatever the
#: first letter of a name in it: a Hebrew or Arabic name is a right-to-left stretch inside it
#: (``runs``), not a reason to turn the sentence around. A direction may be given only with
#: raqm.
DIRECTION = "ltr" if RAQM else None


@dataclass(frozen=True, slots=True)
class Typeface:
    package: str
    #: The regular and bold files; one variable file (its "Bold" instance for bold) when equal.
    regular: str
    bold: str
    #: Right to left: left out without raqm, which draws its runs in that direction.
    rtl: bool = False
    #: Letters that must be shaped (joined, reordered, stacked): left out without raqm.
    shaped: bool = False

    @property
    def variable(self) -> bool:
        return self.regular == self.bold


def _noto(script: str) -> Typeface:
    name = f"NotoSans{script}[wdth,wght].ttf"
    return Typeface(f"fontpkg_noto_sans_{script.lower()}", name, name, shaped=True)


#: The typefaces, in the order they are asked for a character. PT Sans first: the look of
#: Latin and Cyrillic names stays as it was.
TYPEFACES = (
    Typeface("fontpkg_pt_sans", "PT_Sans-Web-Regular.ttf", "PT_Sans-Web-Bold.ttf"),
    Typeface("fontpkg_noto_sans", "NotoSans[wdth,wght].ttf", "NotoSans[wdth,wght].ttf"),
    Typeface("fontpkg_heebo", "Heebo[wght].ttf", "Heebo[wght].ttf", rtl=True),
    Typeface("fontpkg_noto_sans_arabic", "NotoSansArabic[wdth,wght].ttf",
             "NotoSansArabic[wdth,wght].ttf", rtl=True, shaped=True),
    # Noto Sans has Devanagari itself.
    *(_noto(script) for script in ("Thai", "Tamil", "Telugu", "Khmer")),
)

#: Scripts whose letters must be shaped, or read right to left: drawn only with raqm (Noto
#: Sans has Devanagari: it draws it only then, as the others).
_SHAPED_SCRIPTS = frozenset({"ARABIC", "HEBREW", "DEVANAGARI", "THAI", "TAMIL", "TELUGU",
                             "KHMER"})

#: The typefaces this machine draws with: those installed (a venv not yet reinstalled after a
#: new one was added still draws), and without raqm those that need it.
CHAIN = tuple(t for t in TYPEFACES
              if find_spec(t.package) and (RAQM or not (t.rtl or t.shaped)))


def _data(typeface: int, bold: bool) -> str | io.BytesIO:
    """The font file: its path (FreeType reads it, once for every size: Noto Sans is 2 MB),
    or its bytes when the package is not in files (a zip)."""
    t = CHAIN[typeface]
    resource = files(t.package) / "files" / (t.bold if bold else t.regular)
    return str(resource) if isinstance(resource, Path) else io.BytesIO(resource.read_bytes())


@cache
def face(typeface: int, size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """``CHAIN[typeface]`` at ``size`` pixels (a handful of sizes: kept for good)."""
    f = ImageFont.truetype(_data(typeface, bold), size)
    if bold and CHAIN[typeface].variable:
        f.set_variation_by_name("Bold")
    return f


def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """PT Sans, for what is only ever Latin or Cyrillic (numbers, labels)."""
    return face(0, size, bold)


@cache
def _plain(typeface: int, bold: bool) -> ImageFont.FreeTypeFont:
    """A typeface laid out a character at a glyph, as it has them (raqm would draw a mark
    it lacks over a dotted circle, and hide the joiners)."""
    return ImageFont.truetype(_data(typeface, bold), 20,
                              layout_engine=ImageFont.Layout.BASIC)


def _mask(ch: str, typeface: int, bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = _plain(typeface, bold).getmask(ch)
    return mask.size, bytes(mask)


@cache
def _missing(typeface: int, bold: bool) -> tuple[tuple[int, int], bytes]:
    """The typeface's "missing" box, measured once: ``has`` compares every new letter with it
    (a name of letters never seen asks each typeface of the chain for each)."""
    return _mask("\U0010fffd", typeface, bold)  # a private character: no typeface has it


#: Characters whose answers ``has`` keeps (one a typeface): names bring a few hundred; a
#: member cycling through hostile names could bring every character there is (some 550 MB
#: unbounded).
GLYPHS_KEPT = 4096


@lru_cache(maxsize=GLYPHS_KEPT * len(TYPEFACES))
def has(ch: str, typeface: int, bold: bool = True) -> bool:
    """Whether ``CHAIN[typeface]`` has a letter for ``ch`` (else it draws its "missing" box),
    one this machine can draw right (without raqm: no right-to-left or shaped letter)."""
    if not RAQM and (unicodedata.bidirectional(ch) in ("R", "AL", "AN")
                     or _script(ch) in _SHAPED_SCRIPTS):
        return False
    return _mask(ch, typeface, bold) != _missing(typeface, bold)


def has_glyph(ch: str, bold: bool = True) -> bool:
    """Whether a typeface of the chain has a letter for ``ch``."""
    return any(has(ch, t, bold) for t in range(len(CHAIN)))


def typeface_of(text: str, bold: bool = True) -> int | None:
    """The first typeface that has every character of ``text`` (None when none has)."""
    for t in range(len(CHAIN)):
        if all(ch.isspace() or has(ch, t, bold) for ch in text):
            return t
    return None


def drawable(text: str, bold: bool = True) -> str:
    """``text`` without what no typeface would draw but as boxes (emoji, symbols, CJK; Hebrew
    and Arabic without raqm; zalgo's stacks of marks over the words after them; a "fancy font"
    letter drawn as its plain one; a letter no typeface has as its base letter with the accents
    one has), composed first so that a letter and its accent typed apart are the one letter a
    typeface has; as it is when nothing would be left (boxes rather than no name: the text
    beside the picture shows it whole)."""
    text = unicodedata.normalize("NFC", text)
    kept = " ".join(" ".join(_word(word, bold) for word in text.split()).split())
    return kept or text


def _word(word: str, bold: bool) -> str:
    """A word as the typefaces draw it, without the few letters they have of a script they
    mostly lack: the mathematicians' Δ Ω μ π are in most fonts, and a script's word drawn as
    those few is not the word (a Δ or μ among Latin letters stays). No invisible format
    character is kept (a joiner, a bidi control): a typeface draws them as boxes or nothing,
    and a stored name has none (``clean_name`` takes them out, the zero-width non-joiner of a
    Persian word too: names.py promises no shown name holds one, tests/test_hostile_names.py)."""
    drawn = [(letter, _cluster(letter, bold)) for letter in _clusters(word)
             if unicodedata.category(letter[0]) != "Cf"]
    lost: Counter[str] = Counter(_script(a) for a, b in drawn if not b and a[0].isalpha())
    kept: Counter[str] = Counter(_script(a) for a, b in drawn if b and a[0].isalpha())
    return "".join(b if lost[_script(a)] <= kept[_script(a)] else "" for a, b in drawn)


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
    """A character and its marks as the typefaces draw them: by the first that has the
    character (or its plain form), with the marks it has: a mark it lacks on a letter it has is
    zalgo's, or an accent another typeface would draw over a letter unlike its own, and goes.
    Else (no typeface has the character) as the first that draws something of it does."""
    first = ""
    for t in range(len(CHAIN)):
        if _drawn(letter[0], t, bold):
            return _cluster_in(letter, t, bold)
        first = first or _cluster_in(letter, t, bold)
    return first


def _cluster_in(letter: str, t: int, bold: bool) -> str:
    """A character and its marks as ``CHAIN[t]`` draws them: as they are where it has the
    character; else, where it has the letter under it (NFD), that letter with each mark
    that composes with it into a letter the typeface has, in order ("ễ" is e, ê, not ễ: ê;
    "ọ̀" is o, not ọ, ò: ò). A name loses accents, not letters."""
    ch, marks = letter[0], letter[1:]
    drawn = _drawn(ch, t, bold)
    if not drawn:
        parts = unicodedata.normalize("NFD", letter)
        if _mark(parts[0]) or not has(parts[0], t, bold):
            return "".join(_drawn(m, t, bold) for m in marks)
        drawn, marks = parts[0], ""
        for mark in parts[1:]:
            composed = unicodedata.normalize("NFC", drawn + mark)
            if len(composed) == 1 and has(composed, t, bold):
                drawn = composed
            else:
                marks += mark
    return drawn + "".join(_drawn(m, t, bold) for m in marks)


def _drawn(ch: str, t: int, bold: bool) -> str:
    """``ch`` as ``CHAIN[t]`` draws it: itself; else its compatibility form, when the typeface
    has that ("fancy font" names: 𝓐, Ⓑ, Ｗ, 𝐁 are A, B, W, B); else nothing."""
    if ch.isspace() or has(ch, t, bold):
        return ch
    plain = unicodedata.normalize("NFKC", ch)
    if plain != ch and all(c.isspace() or has(c, t, bold) for c in plain):
        return plain
    return ""
