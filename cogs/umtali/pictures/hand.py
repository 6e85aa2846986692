"""A player's hand as a picture, for that player's own panels only.

The cards in the order the player chose (by suit, by rank, melds first; a gap between its
groups), fanned; the cards a legal move would meld now raised and outlined in green;
the cards just taken from the discard pile outlined in gold, dashed (told from the green by
its shape too, with any colour vision); each card taken this turn (from the
stock or the pile) tagged "new". 640 pixels wide, for a phone.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from cogs.umtali.pictures.cards import MELDABLE, RGB, TAKEN, dash, face, strip
from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.scene import HandScene
from cogs.umtali.pictures.table import DIM, FELT, MARGIN, TEXT

WIDTH = 640
CARD_W, CARD_H = 84, 118
RAISE = 16
SUIT_GAP = 14
#: As narrow as the gap between suits gets in a crowded row (still a line of felt).
MIN_SUIT_GAP = 4
ROW = CARD_H + RAISE + 8
#: At most this many cards a row: more would squeeze the corners past reading.
PER_ROW = 12
#: The "new" tag: white on blue, unlike the outlines and the felt; its text size (Discord shows
#: the picture at about 400 pixels on a phone: 20 here is 12 there, and bold).
NEW: RGB = (30, 110, 235)
NEW_TEXT: RGB = (255, 255, 255)
NEW_SIZE = 20
NEW_H = 26


def _rows(cards: tuple[int, ...]) -> list[list[int]]:
    """Card positions (indexes into the hand) in rows of at most PER_ROW."""
    return [list(range(i, min(i + PER_ROW, len(cards)))) for i in range(0, len(cards), PER_ROW)]


def draw_hand(scene: HandScene) -> Image.Image:
    legend = any(scene.meldable) or bool(scene.taken)
    rows = _rows(tuple(scene.cards)) or [[]]
    height = 12 + len(rows) * ROW + (34 if legend else 0)
    img = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(img)
    if not scene.cards:
        d.text((MARGIN, 40), scene.words.no_cards, font=font(26, bold=False), fill=DIM)
    full = strip(CARD_W, CARD_H)
    tagged: list[tuple[int, int]] = []
    starts = set(scene.starts)
    for r, row in enumerate(rows):
        gaps = sum(1 for i in row[1:] if i in starts)
        room = WIDTH - 2 * MARGIN - CARD_W
        # The gaps between suits narrow before the fan squeezes a corner (a 10's "0" under
        # the next card, with twelve cards of four suits).
        gap = SUIT_GAP
        if gaps and room - gaps * gap < full * (len(row) - 1):
            gap = max(MIN_SUIT_GAP, (room - full * (len(row) - 1)) // gaps)
        step = min(full + 8, (room - gaps * gap) // max(1, len(row) - 1))
        x = MARGIN
        y = 12 + r * ROW
        for i in row:
            card = scene.cards[i]
            if i in starts and i != row[0]:
                x += gap
            taken = card in scene.taken
            outline = TAKEN if taken else MELDABLE if scene.meldable[i] else None
            sprite = face(card, CARD_W, CARD_H, scene.four_colour, outline, dashed=taken)
            top = y + (0 if scene.meldable[i] else RAISE)
            img.paste(sprite, (x, top), sprite)
            if scene.drawn and scene.drawn[i]:
                tagged.append((x, top))
            x += step
    # Over every card, so the next card in the fan does not hide it.
    _tags(d, tagged, scene.words.new, scene.words.new_two)
    if legend:
        y = height - 30
        x = MARGIN
        for shown, colour, text in ((any(scene.meldable), MELDABLE, scene.words.meldable),
                                    (bool(scene.taken), TAKEN, scene.words.taken)):
            if not shown:
                continue
            d.rounded_rectangle((x, y + 3, x + 18, y + 21), 4, outline=colour, width=3)
            if colour == TAKEN:
                dash(d, (x, y + 3, x + 18, y + 21), 3, FELT, 5, 4)
            d.text((x + 26, y), text, font=font(20, bold=False), fill=TEXT)
            x += 26 + round(font(20, bold=False).getlength(text)) + 24
    return img


def _tags(d: ImageDraw.ImageDraw, cards: list[tuple[int, int]], one: str, two: str) -> None:
    """A "new" tag low on each card's visible strip (``cards``: their top-left corners, in fan
    order). Cards side by side (two taken together) share one tag (``two``: its word, plural in
    some languages), long enough to reach under both, so that no tag hides another or a card's
    corner."""
    f = font(NEW_SIZE)
    width = round(f.getlength(one)) + 12
    runs: list[list[tuple[int, int]]] = []
    for x, top in cards:
        if runs and runs[-1][-1][0] < x <= runs[-1][-1][0] + width + 6 and \
                abs(runs[-1][-1][1] - top) <= RAISE:
            runs[-1].append((x, top))
        else:
            runs.append([(x, top)])
    for run in runs:
        left, right = run[0][0] + 4, run[-1][0] + 4 + width
        y = max(top for _, top in run) + CARD_H - NEW_H - 8
        d.rounded_rectangle((left, y, right, y + NEW_H), 7, fill=NEW)
        d.text((left + 6, y + 1), one if len(run) == 1 else two, font=f, fill=NEW_TEXT)
