"""The one typeface of the pictures: PT Sans, installed with the project (``fontpkg-pt-sans``).

ParaType made PT Sans for Russian as well as Latin text, so a Cyrillic name shows as written;
it is under the SIL Open Font License 1.1 (the licence is in the installed package). Fonts
are loaded once per size: FreeType's loading costs more than drawing a line of text.
"""

from __future__ import annotations

import io
from functools import cache
from importlib.resources import files

from PIL import ImageFont, features

#: Every line of the pictures is laid out left to right (their languages are), whatever the
#: first letter of a name in it: a Hebrew or Arabic name is one right-to-left run inside it,
#: not a reason to turn the sentence around. Bidi needs raqm, without which nothing is
#: reordered anyway (and a direction may not be given).
DIRECTION = "ltr" if features.check_feature("raqm") else None

_FILES = {False: "PT_Sans-Web-Regular.ttf", True: "PT_Sans-Web-Bold.ttf"}


@cache
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    data = (files("fontpkg_pt_sans") / "files" / _FILES[bold]).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def fit(text: str, size: int, width: int, bold: bool = True) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels in the font of ``size``."""
    f = font(size, bold)
    if f.getlength(text, direction=DIRECTION) <= width:
        return text
    while text and f.getlength(text + "…", direction=DIRECTION) > width:
        text = text[:-1]
    return text.rstrip() + "…"
