"""A player's hand as a picture, for that player's own panels only.

The cards in the order the player chose (by suit, by rank, melds first; felt between its
groups), fanned; the cards a legal move would meld now raised and outlined in green;
the cards just taken from the discard pile outlined in gold, dashed (told from the green by
its shape too, with any colour vision); each card taken this turn (from the
stock or the pile) tagged "new". 640 pixels wide, for a phone.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from cogs.umtali.pictures.cards import MELDABLE, RGB, TAKEN, cut_face, dash, face, strip
from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.scene import HandScene
from cogs.umtali.pictures.table import DIM, FELT, MARGIN, TEXT
from umtali.cards import Card

WIDTH = 640
CARD_W, CARD_H = 84, 118
RAISE = 16
#: The felt between the player's groups (suits, ranks, melds): about 12 pixels on a phone;
#: narrower only when a row has more groups than that leaves room for (by rank, twelve cards
#: of twelve ranks are twelve groups: 6 pixels then, each card's corner whole).
SUIT_GAP = 20
#: How much of each card a fan shows with room to spare.
OPEN = 56
ROW = CARD_H + RAISE + 8
#: The width of the thickest outline (``cards.face``'s).
EDGE = max(2, CARD_W // 18)
#: At most this many cards a row: more would squeeze the corners past reading.
PER_ROW = 12
#: The "new" tag: white on blue, unlike the outlines and the felt; its text size (Discord shows
#: the picture at about 400 pixels on a phone: 20 here is 12 there, and bold).
NEW: RGB = (30, 110, 235)
NEW_TEXT: RGB = (255, 255, 255)
NEW_SIZE = 20
NEW_H = 26


def _rows(cards: tuple[Card, ...]) -> list[list[int]]:
    """Card positions (indexes into the hand) in rows of at most PER_ROW."""
    return [list(range(i, min(i + PER_ROW, len(cards)))) for i in range(0, len(cards), PER_ROW)]


def fan(cards: tuple[Card, ...], starts: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """Each row's cards as where each begins and how much of it shows (the last card whole).

    The cards overlap, so a gap in the fan would only show more of the card before it: a
    group's last card is cut where the next would cover it, and felt follows. The felt comes
    first, narrowed only in a crowded row; then the cards share the rest evenly, each showing
    at least its corner (a 10's is widest)."""
    rows: list[list[tuple[int, int]]] = []
    room = WIDTH - 2 * MARGIN - CARD_W
    for row in _rows(cards):
        ends = [k for k in range(len(row) - 1) if row[k + 1] in starts]
        # A cut card's edge is drawn inside it: as thick as an outline, right of its corner.
        needs = [strip(CARD_W, CARD_H, cards[i]) + (EDGE if k in ends else 0)
                 for k, i in enumerate(row[:-1])]
        gap = SUIT_GAP
        if ends:
            gap = max(0, min(SUIT_GAP, (room - sum(needs)) // len(ends)))
        spare = room - gap * len(ends)
        even = OPEN
        while even > 0 and sum(max(n, even) for n in needs) > spare:
            even -= 1
        steps = [max(n, even) for n in needs]
        if sum(steps) > spare:
            # Never with twelve cards of one deck; kept so that no card is drawn past the edge.
            steps = [s * spare // sum(steps) for s in steps]
        x = MARGIN
        laid: list[tuple[int, int]] = []
        for k, step in enumerate(steps):
            laid.append((x, step))
            x += step + (gap if k in ends else 0)
        rows.append([*laid, (x, CARD_W)] if row else [])
    return rows


def draw_hand(scene: HandScene) -> Image.Image:
    legend = any(scene.meldable) or bool(scene.taken)
    rows = fan(scene.cards, scene.starts) or [[]]
    height = 12 + len(rows) * ROW + (34 if legend else 0)
    img = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(img)
    if not scene.cards:
        d.text((MARGIN, 40), scene.words.no_cards, font=font(26, bold=False), fill=DIM)
    tagged: list[tuple[int, int]] = []
    starts = set(scene.starts)
    i = 0
    for r, row in enumerate(rows):
        y = 12 + r * ROW
        for x, visible in row:
            card = scene.cards[i]
            taken = card in scene.taken
            outline = TAKEN if taken else MELDABLE if scene.meldable[i] else None
            sprite = face(card, CARD_W, CARD_H, scene.four_colour, outline, dashed=taken)
            if i + 1 in starts and visible < CARD_W:
                sprite = cut_face(card, CARD_W, CARD_H, visible, scene.four_colour, outline,
                                  dashed=taken)
            top = y + (0 if scene.meldable[i] else RAISE)
            img.paste(sprite, (x, top), sprite)
            if scene.drawn and scene.drawn[i]:
                tagged.append((x, top))
            i += 1
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
