"""The order a line's parts are drawn in, left to right: Unicode's bidi algorithm (UAX #9) as
far as the pictures' texts need it.

A text is one paragraph with no explicit embedding (``runs`` strips the bidi controls a member
typed), so this is rules P2-P3 (its direction: its first strong letter's), W1-W7, N0 (brackets),
N1-N2, I1-I2, L1 (its trailing spaces) and L2 (reordering). A name is drawn alone, so it is an
isolate of the left-to-right line it is in, as Discord's text isolates names
(``names.isolate``): "בן-גוריון" reads גוריון, then בן, right to left; "דוד 2" has its 2 on
the left. Mirroring (L4) is raqm's: a run at a right-to-left level is laid out right to left.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

#: The brackets paired by rule N0 (BD16): the ones a name has; the others are plain neutrals.
_OPENING = {"(": ")", "[": "]", "{": "}"}
_CLOSING = frozenset(_OPENING.values())
#: BD16 stops pairing past this depth (a hostile name of brackets stays linear).
_DEPTH = 63
_NEUTRAL = frozenset({"B", "S", "WS", "ON", "BN", "LRI", "RLI", "FSI", "PDI"})


def _class(cluster: str) -> str:
    # An unassigned character is L (UAX #9's default for most of the code space).
    return unicodedata.bidirectional(cluster[0]) or "L"


def base_level(clusters: Sequence[str]) -> int:
    """The paragraph's level (P2, P3): 1 when its first strong letter is right to left."""
    for cluster in clusters:
        kind = _class(cluster)
        if kind in ("L", "R", "AL"):
            return int(kind != "L")
    return 0


def _strong(kind: str) -> str:
    """A resolved type's direction for N0 and N1: numbers count as right to left."""
    return "L" if kind == "L" else "R" if kind in ("R", "AN", "EN") else ""


def levels(clusters: Sequence[str]) -> list[int]:
    """Each cluster's (a character with its marks) resolved level."""
    base = base_level(clusters)
    edge = "R" if base else "L"  # sos and eos: the paragraph's own direction
    classes = [_class(c) for c in clusters]
    kinds = _weak(classes, edge)
    _brackets(clusters, kinds, edge)
    _neutrals(kinds, edge)
    out = [_level(base, k) for k in kinds]
    # L1: spaces at the end are at the paragraph's level.
    for i in range(len(out) - 1, -1, -1):
        if classes[i] not in ("WS", "BN", "S"):
            break
        out[i] = base
    return out


def _level(base: int, kind: str) -> int:
    """Rules I1, I2: a resolved type's level in a paragraph at ``base``."""
    if base == 0:
        return 1 if kind == "R" else 2 if kind in ("AN", "EN") else 0
    return 2 if kind in ("L", "AN", "EN") else 1


def _weak(classes: list[str], edge: str) -> list[str]:
    """Rules W1-W7."""
    kinds: list[str] = []
    for kind in classes:  # W1: a mark takes its character's type
        kinds.append((kinds[-1] if kinds else edge) if kind == "NSM" else kind)
    last = edge
    for i, kind in enumerate(kinds):  # W2: European digits after Arabic letters are Arabic
        if kind in ("L", "R", "AL"):
            last = kind
        elif kind == "EN" and last == "AL":
            kinds[i] = "AN"
    kinds = ["R" if k == "AL" else k for k in kinds]  # W3
    for i in range(1, len(kinds) - 1):  # W4: one separator between two numbers
        before, after = kinds[i - 1], kinds[i + 1]
        if (kinds[i] == "ES" and before == after == "EN") or (
                kinds[i] == "CS" and before == after and before in ("EN", "AN")):
            kinds[i] = before
    i = 0
    while i < len(kinds):  # W5: terminators (%, $, #) beside European digits
        if kinds[i] != "ET":
            i += 1
            continue
        end = i
        while end < len(kinds) and kinds[end] == "ET":
            end += 1
        if (i and kinds[i - 1] == "EN") or (end < len(kinds) and kinds[end] == "EN"):
            kinds[i:end] = ["EN"] * (end - i)
        i = end
    kinds = ["ON" if k in ("ES", "ET", "CS") else k for k in kinds]  # W6
    last = edge
    for i, kind in enumerate(kinds):  # W7: European digits after a Latin letter are Latin
        if kind in ("L", "R"):
            last = kind
        elif kind == "EN" and last == "L":
            kinds[i] = "L"
    return kinds


def _brackets(clusters: Sequence[str], kinds: list[str], edge: str) -> None:
    """Rule N0: a pair of brackets takes the direction of what it holds."""
    pairs: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    for i, cluster in enumerate(clusters):
        ch = cluster[0]
        if kinds[i] != "ON":
            continue
        if ch in _OPENING:
            if len(stack) == _DEPTH:
                break
            stack.append((_OPENING[ch], i))
        elif ch in _CLOSING:
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == ch:
                    pairs.append((stack[depth][1], i))
                    del stack[depth:]
                    break
    opposite = "L" if edge == "R" else "R"
    for opening, closing in sorted(pairs):
        inside = {_strong(k) for k in kinds[opening + 1:closing]}
        if edge in inside:
            kinds[opening] = kinds[closing] = edge
        elif opposite in inside:
            before = next((d for k in reversed(kinds[:opening]) if (d := _strong(k))), edge)
            kinds[opening] = kinds[closing] = opposite if before == opposite else edge


def _neutrals(kinds: list[str], edge: str) -> None:
    """Rules N1, N2: neutrals between two of one direction take it, others the paragraph's."""
    i = 0
    while i < len(kinds):
        if kinds[i] not in _NEUTRAL:
            i += 1
            continue
        end = i
        while end < len(kinds) and kinds[end] in _NEUTRAL:
            end += 1
        before = _strong(kinds[i - 1]) if i else edge
        after = _strong(kinds[end]) if end < len(kinds) else edge
        kinds[i:end] = [before if before == after else edge] * (end - i)
        i = end


def visual_order(levels: Sequence[int]) -> list[int]:
    """Rule L2: the indices of parts at ``levels``, left to right (each part then laid out in
    its own direction: odd levels right to left)."""
    order = list(range(len(levels)))
    odd = [level for level in levels if level % 2]
    if not odd:
        return order
    for level in range(max(levels), min(odd) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            end = i
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[i:end] = order[i:end][::-1]
            i = end
    return order
