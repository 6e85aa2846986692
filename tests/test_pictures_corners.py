"""A card's corner reads: the rank's ink and the suit under it never touch, at every size the
pictures use (a suit pasted over the tail of the Q made it read as an O)."""

from __future__ import annotations

import pytest
from PIL import Image

from cogs.umtali.pictures.cards import FACE, face
from cogs.umtali.pictures.hand import CARD_H, CARD_W
from cogs.umtali.pictures.table import MELD_H, MELD_W, PILE_H, PILE_W
from umtali.cards import CARDS, Card


def ink_rows(img: Image.Image, x0: int, x1: int) -> list[bool]:
    """For each row of the corner's columns, whether anything but the card's face is there."""
    rgb = img.convert("RGB")
    rows = []
    for y in range(img.height):
        pixels = [rgb.getpixel((x, y)) for x in range(x0, x1)]
        rows.append(any(
            isinstance(p, tuple) and max(abs(a - b) for a, b in zip(p, FACE, strict=True)) > 60
            for p in pixels))
    return rows


@pytest.mark.parametrize("size", [(CARD_W, CARD_H), (MELD_W, MELD_H), (PILE_W, PILE_H)])
@pytest.mark.parametrize("card", [c for c in CARDS if c.suit in (0, 1)],
                         ids=lambda c: c.code)
def test_rank_and_suit_apart(card: Card, size: tuple[int, int]) -> None:
    w, h = size
    img = face(card, w, h)
    pad = max(3, w // 14)
    # The corner's columns left of the large suit, inside the border; from the top until the
    # large suit begins.
    big = round(min(w, h) * 0.5)
    rows = ink_rows(img, pad, min(w - big - pad, w // 2))[pad: h - big - pad]
    runs: list[int] = []
    for y, inked in enumerate(rows):
        if inked and (not runs or not rows[y - 1]):
            runs.append(y)
    # The rank's ink (a Q's tail may stand apart from its bowl), then clear face, then the
    # suit's: the suit starts a run of its own.
    assert len(runs) >= 2, (card, size, runs)
