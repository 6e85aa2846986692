"""A line of text as the pictures draw it: in runs, each in the first typeface of
``fonts.CHAIN`` that has its letters (PT Sans for Latin and Cyrillic, Noto Sans Arabic for an
Arabic name...) and at one bidi level, side by side from left to right on one baseline, in the
order Unicode's bidi algorithm shows them (``bidi_order``).

Measuring (``length``), cutting (``fit``) and drawing (``draw``) all go through the same runs,
so a width measured is the width drawn. A text is drawn alone (a name in its band, a name and
the rest of the status line apart), so it is an isolate: a right-to-left name ("בן-גוריון",
"محمد 12 علي") reads as Discord shows it, and nothing in it can turn the line around it (bidi
controls are not drawn at all). Each run is laid out on its own, one at a right-to-left level
right to left by raqm (Hebrew, Arabic; the brackets there mirrored).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageDraw

from cogs.umtali.pictures.bidi_order import levels, visual_order
from cogs.umtali.pictures.fonts import (
    DIRECTION,
    RAQM,
    _clusters,
    _script,
    face,
    font,
    typeface_of,
)

#: A run: its text, the typeface (an index into ``fonts.CHAIN``) drawing it, and the direction
#: it is laid out in.
Run = tuple[str, int, str | None]

#: Texts whose runs ``runs`` keeps: a picture's names and status lines (and ``fit``'s cuts of
#: them); bounded, as a member cycling through names could bring any number.
RUNS_KEPT = 1024



def _hidden(ch: str) -> bool:
    """An invisible format character: the bidi controls (each text is an isolate of its own),
    the joiners (``fonts.drawable`` keeps none: stored names have none)."""
    return unicodedata.category(ch) == "Cf"


@lru_cache(maxsize=RUNS_KEPT)
def runs(text: str, bold: bool = True) -> tuple[Run, ...]:
    """``text`` in runs of one typeface and one bidi level each, left to right as drawn. A
    space between two runs of the same typeface is in that run ("محمد علي" is one run, its
    words in right-to-left order); between two typefaces, in PT Sans's."""
    clusters = _clusters("".join(ch for ch in text if not _hidden(ch)))
    faces = _typefaces(clusters, bold)
    # Without raqm nothing right to left is drawn but as boxes: nothing to reorder.
    level = levels(clusters) if RAQM else [0] * len(clusters)
    # The typeface of the next cluster that is not a space, from each cluster on.
    after: list[int] = [0] * (len(faces) + 1)
    for i in range(len(faces) - 1, -1, -1):
        after[i] = after[i + 1] if faces[i] is None else int(faces[i] or 0)
    texts: list[str] = []
    parts: list[tuple[int, int]] = []  # each run's typeface and level
    before = 0
    for i, cluster in enumerate(clusters):
        t = faces[i]
        if t is None:
            t = before if before == after[i + 1] else 0
        else:
            before = t
        if parts and parts[-1] == (t, level[i]):
            texts[-1] += cluster
        else:
            texts.append(cluster)
            parts.append((t, level[i]))
    return tuple((texts[i], parts[i][0], "rtl" if parts[i][1] % 2 else DIRECTION)
                 for i in visual_order([lv for _, lv in parts]))


def _typefaces(clusters: list[str], bold: bool) -> list[int | None]:
    """Each cluster's typeface (None: a space, decided by its neighbours). The letters of one
    script in a word are drawn by the first typeface that has them all, when one has: a word
    is not a patchwork ("Nguyễn" all in Noto Sans, not PT Sans with Noto's "ễ"; Greek not with
    PT Sans's π among Noto's letters)."""
    faces: list[int | None] = [None] * len(clusters)
    word: dict[str, list[int]] = {}
    for i, cluster in enumerate([*clusters, " "]):
        if cluster.isspace():
            for script, at in word.items():
                whole = typeface_of("".join(clusters[j] for j in at), bold) if script else None
                for j in at:
                    faces[j] = whole if whole is not None else typeface_of(clusters[j], bold)
            word = {}
        else:
            word.setdefault(_script(cluster) if cluster[0].isalpha() else "", []).append(i)
    # What no typeface has is drawn by PT Sans (as boxes: ``drawable`` left it as it was).
    return [0 if t is None and not c.isspace() else t
            for c, t in zip(clusters, faces, strict=True)]


def length(text: str, size: int, bold: bool = True) -> float:
    """``text``'s width in pixels at ``size``, as ``draw`` draws it."""
    return sum(face(t, size, bold).getlength(run, direction=way)
               for run, t, way in runs(text, bold))


def fit(text: str, size: int, width: int, bold: bool = True) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels at ``size``: whole letters
    with their marks, the longest beginning that fits (found by halves: a line's worth of
    measures, not a measure a letter). The ellipsis is at the text's visual end: the right of
    a left-to-right one, the left of a right-to-left one (a neutral after it, at its level)."""
    if length(text, size, bold) <= width:
        return text
    clusters = _clusters(text)
    fits, over = 0, len(clusters)
    while over - fits > 1:
        mid = (fits + over) // 2
        if length("".join(clusters[:mid]) + "…", size, bold) <= width:
            fits = mid
        else:
            over = mid
    return "".join(clusters[:fits]).rstrip() + "…"


def draw(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
         fill: tuple[int, int, int], bold: bool = True) -> float:
    """``text`` drawn from ``xy`` (its top left, as PT Sans's line is: every run on PT Sans's
    baseline, from a whole pixel: a run looks the same wherever it is); the width drawn
    (``length``, to half a pixel)."""
    x, y = xy
    baseline = y + font(size, bold).getmetrics()[0]
    for run, t, way in runs(text, bold):
        f = face(t, size, bold)
        d.text((round(x), baseline), run, font=f, fill=fill, anchor="ls", direction=way)
        x += f.getlength(run, direction=way)
    return x - xy[0]
