"""A line of text as the pictures draw it: in runs, each in the first typeface of
``fonts.CHAIN`` that has its letters (PT Sans for Latin and Cyrillic, Noto Sans Arabic for an
Arabic name...), side by side from left to right on one baseline.

Measuring (``length``), cutting (``fit``) and drawing (``draw``) all go through the same runs,
so a width measured is the width drawn. Each run is laid out on its own, a right-to-left one
(Hebrew, Arabic) right to left by raqm: nothing in a name can turn the line around it, nor
another run of it (bidi controls are not drawn at all).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageDraw

from cogs.umtali.pictures.fonts import (
    CHAIN,
    _clusters,
    _script,
    direction,
    face,
    font,
    has,
    typeface_of,
)

#: A run: its text and the typeface (an index into ``fonts.CHAIN``) drawing it.
Run = tuple[str, int]

#: Texts whose runs ``runs`` keeps: a picture's names and status lines (and ``fit``'s cuts of
#: them); bounded, as a member cycling through names could bring any number.
RUNS_KEPT = 1024

#: Bidi controls (embeddings, overrides, isolates, marks): each run has its own direction.
_BIDI_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
_BIDI_MARKS = frozenset({"\u200e", "\u200f", "\u061c"})


def _control(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in _BIDI_CONTROLS or ch in _BIDI_MARKS


@lru_cache(maxsize=RUNS_KEPT)
def runs(text: str, bold: bool = True) -> tuple[Run, ...]:
    """``text`` in runs of one typeface each, in order. A space between two runs of the same
    typeface is in that run ("محمد علي" is one run, its words in right-to-left order); between
    two typefaces, in PT Sans's (a right-to-left run's end is its left: a space there would
    part it from the wrong neighbour). An invisible format character (a joiner) stays in the run
    it is in."""
    clusters = _clusters("".join(ch for ch in text if not _control(ch)))
    faces = _typefaces(clusters, bold)
    if len(faces) > 1 and clusters[-1] == "…" and (t := faces[-2]) is not None \
            and CHAIN[t].rtl and has("…", t, bold):
        # ``fit``'s ellipsis after a right-to-left name: where it was cut is its left end.
        faces[-1] = t
    # The typeface of the next cluster that is not a space, from each cluster on.
    after: list[int] = [0] * (len(faces) + 1)
    for i in range(len(faces) - 1, -1, -1):
        after[i] = after[i + 1] if faces[i] is None else int(faces[i] or 0)
    texts: list[str] = []
    typefaces: list[int] = []
    before = 0
    for i, cluster in enumerate(clusters):
        t = faces[i]
        if t is None:
            t = before if before == after[i + 1] else 0
        else:
            before = t
        if typefaces and typefaces[-1] == t:
            texts[-1] += cluster
        else:
            texts.append(cluster)
            typefaces.append(t)
    return tuple(zip(texts, typefaces, strict=True))


def _typefaces(clusters: list[str], bold: bool) -> list[int | None]:
    """Each cluster's typeface (None: a space, decided by its neighbours). The letters of one
    script in a word are drawn by the first typeface that has them all, when one has: a word
    is not a patchwork ("Nguyễn" all in Noto Sans, not PT Sans with Noto's "ễ"; Greek not with
    PT Sans's π among Noto's letters)."""
    faces: list[int | None] = [None] * len(clusters)
    word: dict[str, list[int]] = {}
    joiners: list[int] = []
    for i, cluster in enumerate([*clusters, " "]):
        if cluster.isspace():
            for script, at in word.items():
                whole = typeface_of("".join(clusters[j] for j in at), bold) if script else None
                for j in at:
                    faces[j] = whole if whole is not None else typeface_of(clusters[j], bold)
            word = {}
        elif unicodedata.category(cluster[0]) == "Cf":
            joiners.append(i)
        else:
            word.setdefault(_script(cluster) if cluster[0].isalpha() else "", []).append(i)
    joining, last = set(joiners), 0
    for k, t in enumerate(faces):
        if k in joining:
            faces[k] = last
        elif t is not None:
            last = t
    # What no typeface has is drawn by PT Sans (as boxes: ``drawable`` left it as it was).
    return [0 if t is None and not c.isspace() else t
            for c, t in zip(clusters, faces, strict=True)]


def length(text: str, size: int, bold: bool = True) -> float:
    """``text``'s width in pixels at ``size``, as ``draw`` draws it."""
    return sum(face(t, size, bold).getlength(run, direction=direction(t))
               for run, t in runs(text, bold))


def fit(text: str, size: int, width: int, bold: bool = True) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels at ``size``: whole letters
    with their marks, the longest beginning that fits (found by halves: a line's worth of
    measures, not a measure a letter)."""
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
    for run, t in runs(text, bold):
        f = face(t, size, bold)
        d.text((round(x), baseline), run, font=f, fill=fill, anchor="ls",
               direction=direction(t))
        x += f.getlength(run, direction=direction(t))
    return x - xy[0]
