"""Finding a text's ink in a picture: the text drawn by one typeface directly (Pillow, not the
pictures' own code), on a background and in a colour the picture uses, and looked for pixel
for pixel. A name found so is drawn by that typeface, shaped and in that direction, whole, at
the place (left edge, baseline) returned."""

from __future__ import annotations

import io
from functools import lru_cache
from importlib.resources import files

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cogs.umtali.pictures.table import FELT, FELT_LIT, SEAT, TEXT

#: The typefaces: their package and file.
PT_SANS = ("fontpkg_pt_sans", "PT_Sans-Web-Bold.ttf")
NOTO_SANS = ("fontpkg_noto_sans", "NotoSans[wdth,wght].ttf")
HEEBO = ("fontpkg_heebo", "Heebo[wght].ttf")
NOTO_ARABIC = ("fontpkg_noto_sans_arabic", "NotoSansArabic[wdth,wght].ttf")


@lru_cache(maxsize=64)
def typeface(which: tuple[str, str], size: int = 26) -> ImageFont.FreeTypeFont:
    """The typeface at ``size``, bold (a variable one at its "Bold" instance); loaded once
    (the tests look for hundreds of texts)."""
    package, name = which
    f = ImageFont.truetype(io.BytesIO((files(package) / "files" / name).read_bytes()), size)
    if "[" in name:
        f.set_variation_by_name("Bold")
    return f


def _patch(text: str, f: ImageFont.FreeTypeFont, direction: str | None,
           fill: tuple[int, int, int], background: tuple[int, int, int]
           ) -> tuple[np.ndarray, int, int]:
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="ls",
                                                           direction=direction))
    canvas = Image.new("RGB", (right - left + 4, bottom - top + 4), background)
    ImageDraw.Draw(canvas).text((2 - left, 2 - top), text, font=f, fill=fill, anchor="ls",
                                direction=direction)
    return np.asarray(canvas)[2:2 + bottom - top, 2:2 + right - left], left, top


def _packed(pixels: np.ndarray) -> np.ndarray:
    """Each RGB pixel as one number: a pixel compared in one operation."""
    rgb = pixels.astype(np.uint32)
    packed: np.ndarray = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    return packed


@lru_cache(maxsize=4)
def _pixels(png: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``png`` decoded (read-only) and packed, once for the few texts a test looks for."""
    picture = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    picture.flags.writeable = False
    packed = _packed(picture)
    packed.flags.writeable = False
    return picture, packed


def _row_places(packed: np.ndarray, row: np.ndarray, background: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each (y, x) where the packed picture's ``[y, x:x + len(row)]`` is the packed ``row``.
    Found from the places of one inked pixel of it, narrowed a column at a time: comparing
    every window whole took hundreds of megabytes a text (slow, and slower still beside other
    test workers)."""
    w = len(row)
    n = packed.shape[1] - w + 1
    if n <= 0:
        return np.empty(0, np.intp), np.empty(0, np.intp)
    inked = np.flatnonzero(row != background)
    first = int(inked[0]) if len(inked) else 0
    ys, xs = np.nonzero(packed[:, first:first + n] == row[first])
    for j in range(w):
        if not len(ys):
            break
        keep = packed[ys, xs + j] == row[j]
        ys, xs = ys[keep], xs[keep]
    return ys, xs


def found(png: bytes, text: str, which: tuple[str, str], size: int = 26,
          direction: str | None = "ltr") -> list[tuple[int, int]]:
    """Each (pen x, baseline) where ``text`` in ``which`` at ``size`` is drawn in ``png``, in
    a colour of the pictures' text on the felt or the lit band."""
    picture, packed = _pixels(png)
    f = typeface(which, size)
    places: set[tuple[int, int]] = set()
    for background in (FELT, FELT_LIT):
        for fill in (*SEAT, TEXT):
            patch, left, top = _patch(text, f, direction, fill, background)
            h, w = patch.shape[:2]
            # The row with the most ink first: a few candidates to compare whole.
            r = int(np.argmax((patch != np.array(background)).any(axis=2).sum(axis=1)))
            ys, xs = _row_places(packed, _packed(patch[r]),
                                 int(_packed(np.array([background], np.uint8))[0]))
            for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
                y0 = y - r
                if y0 >= 0 and np.array_equal(picture[y0:y0 + h, x:x + w], patch):
                    places.add((x - left, y0 - top))
    return sorted(places)


#: A part of a line: its text, typeface and direction.
Part = tuple[str, tuple[str, str], str]


def read_in_order(png: bytes, first: Part, second: Part, sizes: tuple[int, ...]) -> bool:
    """Whether ``first`` is drawn, at one of ``sizes``, with ``second`` after it at that size:
    to its right on its baseline, or on a line below (a line wrapped)."""
    for size in sizes:
        firsts = found(png, first[0], first[1], size, first[2])
        seconds = found(png, second[0], second[1], size, second[2])
        if any((b2 == b1 and x2 > x1) or b1 < b2 <= b1 + 3 * size
               for x1, b1 in firsts for x2, b2 in seconds):
            return True
    return False
