"""The public table as a picture: each side with its melds, the stock, the discard pile.

Drawn from a ``TableScene`` (made from the spectator's view) and nothing else. 720 pixels
wide: Discord shows it at about 400 on a phone, so text is at least 20 pixels here.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from cogs.umtali.pictures.cards import RGB, back, face, strip
from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.runs import draw, fit, length
from cogs.umtali.pictures.scene import MeldScene, SeatScene, TableScene

WIDTH = 720
MARGIN = 14
FELT: RGB = (14, 92, 58)
#: The band of the seat to act: darker than the felt, not lighter, so that what is written on
#: it (the acting player's name above all) reads better there, not worse: every text colour
#: keeps 4.5:1 on both (a lighter band left the blue name at 2.95:1). It draws the
#: lines around the stock and the pile too.
FELT_LIT: RGB = (8, 66, 42)
TEXT: RGB = (244, 246, 242)
DIM: RGB = (186, 214, 198)
#: Each seat's colour: its name, and the mark under every card it laid (yellow and blue: told
#: apart with any colour vision).
SEAT: tuple[RGB, RGB] = ((250, 196, 60), (140, 210, 255))
GOLD: RGB = (250, 196, 60)

MELD_W, MELD_H = 56, 78
PILE_W, PILE_H = 70, 98
SMALL_W, SMALL_H = 26, 36
BAND = 50
MELD_ROW = MELD_H + 20
MELD_GAP = 16
CENTRE = PILE_H + 36


def _meld_width(meld: MeldScene) -> int:
    return MELD_W + (len(meld.cards) - 1) * strip(MELD_W, MELD_H)


def _rows(melds: tuple[MeldScene, ...]) -> list[list[MeldScene]]:
    """The melds in rows that fit the width, in the order they were laid."""
    rows: list[list[MeldScene]] = [[]]
    x = MARGIN
    for meld in melds:
        w = _meld_width(meld)
        if rows[-1] and x + w > WIDTH - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append(meld)
        x += w + MELD_GAP
    return rows


def _draw_meld(img: Image.Image, d: ImageDraw.ImageDraw, meld: MeldScene, x: int, y: int,
               four: bool) -> int:
    step = strip(MELD_W, MELD_H)
    for i, (card, seat) in enumerate(meld.cards):
        sprite = face(card, MELD_W, MELD_H, four)
        cx = x + i * step
        img.paste(sprite, (cx, y), sprite)
        # Who laid it: a bar in that seat's colour under the card's corner.
        last = i == len(meld.cards) - 1
        d.rectangle((cx + 2, y + MELD_H + 4, cx + (MELD_W if last else step) - 3,
                     y + MELD_H + 9), fill=SEAT[seat])
    w = _meld_width(meld)
    if meld.marriage:
        # A marriage scores double: a gold "x2" on its corner.
        label = "×2"
        f = font(18)
        lw = round(f.getlength(label)) + 10
        d.rounded_rectangle((x + w - lw + 4, y - 8, x + w + 4, y + 14), 8, fill=GOLD)
        d.text((x + w - lw + 9, y - 8), label, font=f, fill=(40, 30, 0))
    return w


#: The most card backs a seat's fan shows: all of a hand's, or fewer where the count is
#: written on them (``_layout``).
FAN_MOST, FAN_SHORT = 16, 8
#: The room a name keeps beside its tags and the score line: some 8 letters, however many
#: cards, tags and points (review165: 16 cards, dealer, 3-digit scores left one pixel).
NAME_ROOM = 120


def _fan_width(shown: int) -> int:
    return (SMALL_W + (shown - 1) * 7) if shown else 0


def _backs(img: Image.Image, shown: int, x: int, y: int) -> int:
    """``shown`` card backs fanned tightly; the width used."""
    sprite = back(SMALL_W, SMALL_H)
    for i in range(shown):
        img.paste(sprite, (x + i * 7, y), sprite)
    return _fan_width(shown)


def _layout(info: SeatScene) -> tuple[int, str, bool, int]:
    """A seat band's backs shown, its tags, whether the count is written on the backs, and
    the room left for the name (from the backs' end to the tags' start)."""
    rf = font(20, bold=False)
    end = WIDTH - MARGIN - round(rf.getlength(info.score_line)) - 16 - MARGIN - 22

    def room(shown: int, tags: str) -> int:
        used = _fan_width(shown)
        return end - used - (12 if used else 0) - round(rf.getlength(tags))

    shown = min(info.hand_size, FAN_MOST)
    if room(shown, info.tags) >= NAME_ROOM or not info.hand_size:
        return shown, info.tags, False, room(shown, info.tags)
    # Short of room (a big hand, dealer, big scores): the count goes on the backs, as the
    # stock's does, and the fan closes up; the name keeps its room.
    shown = min(info.hand_size, FAN_SHORT)
    return shown, info.marks, True, room(shown, info.marks)


def _triangle(d: ImageDraw.ImageDraw, x: int, y: int, colour: RGB) -> None:
    d.polygon([(x, y), (x + 14, y + 9), (x, y + 18)], fill=colour)


def _band(img: Image.Image, d: ImageDraw.ImageDraw, seat: int, info: SeatScene, y: int,
          acting: bool) -> None:
    if acting:
        d.rectangle((0, y, WIDTH, y + BAND - 1), fill=FELT_LIT)
        _triangle(d, MARGIN, y + 16, TEXT)
    x = MARGIN + 22
    shown, tags, counted, room = _layout(info)
    used = _backs(img, shown, x, y + 7)
    if counted:
        _count(d, str(info.hand_size), x + used // 2, y + 7 + SMALL_H // 2)
    # Else the count is said in words after the name (``SeatScene.tags``), not as a bare
    # number before it, which read as a score (review164).
    x += used + (12 if used else 0)
    right = info.score_line
    rf = font(20, bold=False)
    rw = round(rf.getlength(right))
    name = fit(info.name, 26, room)
    w = draw(d, (x, y + 8), name, 26, SEAT[seat])
    if tags:
        d.text((x + round(w) + 2, y + 14), tags, font=rf, fill=DIM)
    d.text((WIDTH - MARGIN - rw, y + 14), right, font=rf, fill=TEXT)


def _count(d: ImageDraw.ImageDraw, count: str, cx: int, cy: int) -> None:
    """A hand's size on its backs, centred at ``cx, cy``: as the stock's count on its back."""
    f = font(20)
    cw = round(f.getlength(count))
    d.rounded_rectangle((cx - cw // 2 - 5, cy - 13, cx + cw // 2 + 5, cy + 13), 7,
                        fill=(252, 252, 250))
    d.text((cx - cw // 2, cy - 12), count, font=f, fill=(30, 30, 30))


def _side(img: Image.Image, d: ImageDraw.ImageDraw, info: SeatScene, y: int,
          four: bool, no_melds: str) -> int:
    """A seat's melds from ``y``; the height used."""
    if not info.melds:
        d.text((MARGIN, y + 8), no_melds, font=font(20, bold=False), fill=DIM)
        return 44
    rows = _rows(info.melds)
    for r, row in enumerate(rows):
        x = MARGIN
        for meld in row:
            x += _draw_meld(img, d, meld, x, y + 12 + r * MELD_ROW, four) + MELD_GAP
    return 12 + len(rows) * MELD_ROW


def _centre(img: Image.Image, d: ImageDraw.ImageDraw, scene: TableScene, y: int) -> None:
    d.line((0, y, WIDTH, y), fill=FELT_LIT, width=2)
    d.line((0, y + CENTRE, WIDTH, y + CENTRE), fill=FELT_LIT, width=2)
    top = y + 10
    label = font(18, bold=False)
    # The stock: a back with its count on it.
    x = MARGIN
    if scene.stock:
        sprite = back(PILE_W, PILE_H)
        img.paste(sprite, (x, top), sprite)
        count = str(scene.stock)
        f = font(28)
        cw = round(f.getlength(count))
        d.rounded_rectangle((x + PILE_W // 2 - cw // 2 - 6, top + PILE_H // 2 - 18,
                             x + PILE_W // 2 + cw // 2 + 6, top + PILE_H // 2 + 18), 8,
                            fill=(252, 252, 250))
        d.text((x + PILE_W // 2 - cw // 2, top + PILE_H // 2 - 17), count, font=f,
               fill=(30, 30, 30))
    else:
        d.rounded_rectangle((x, top, x + PILE_W, top + PILE_H), 6, outline=DIM, width=2)
    d.text((x, top + PILE_H + 3), scene.words.stock, font=label, fill=DIM)
    # The discard pile: the card under the top peeking out to its left (a back when it lies
    # face down), whether the top is face up or down.
    x = MARGIN + PILE_W + 30
    step = strip(PILE_W, PILE_H)
    if scene.pile > 1:
        sprite = (back(PILE_W, PILE_H) if scene.below is None else
                  face(scene.below, PILE_W, PILE_H, scene.four_colour))
        img.paste(sprite, (x, top), sprite)
    tx = x + step
    if scene.face_down:
        sprite = back(PILE_W, PILE_H)
        img.paste(sprite, (tx, top), sprite)
    elif scene.top is not None:
        sprite = face(scene.top, PILE_W, PILE_H, scene.four_colour)
        img.paste(sprite, (tx, top), sprite)
    else:
        d.rounded_rectangle((tx, top, tx + PILE_W, top + PILE_H), 6, outline=DIM, width=2)
    word = scene.words.face_down if scene.face_down else scene.words.discard_pile
    d.text((x, top + PILE_H + 3), f"{word} · {scene.pile}", font=label, fill=DIM)
    # Whose turn, in words, to the right.
    sx = tx + PILE_W + 26
    # In the colour of the seat it is about (to act, or the session's winner); in neither
    # seat's when it is about nobody (a hand over, a match cancelled).
    about = scene.to_act if scene.to_act >= 0 else scene.winner
    colour = SEAT[about] if about >= 0 else TEXT
    size, lines = status_runs(scene.status, scene.status_name, WIDTH - MARGIN - sx)
    for i, line in enumerate(lines):
        x = sx
        for text, named in line:
            draw(d, (x, top + STATUS_TOP + i * (size + STATUS_GAP)), text, size,
                 colour if named else TEXT)
            x += round(length(text + " ", size))


#: The status's sizes, largest first, and the lines it has room for (20 is the smallest text
#: the pictures use: about 12 on a phone).
STATUS_SIZES = (28, 24, 20)
STATUS_LINES = 3
#: Where the status begins below the piles' top, and the space between its lines.
STATUS_TOP = 8
STATUS_GAP = 6


def status_room(size: int) -> int:
    """The status's lines at ``size`` that end beside the piles, above their labels (the
    discard pile's label may reach under the status): two at the largest size."""
    return min(STATUS_LINES, (PILE_H - STATUS_TOP + STATUS_GAP) // (size + STATUS_GAP))


def status_lines(text: str, width: int) -> tuple[int, list[str]]:
    """Whose turn and what they must do, wrapped to ``width`` pixels: smaller rather than cut,
    so that a long name does not push what they must do out of sight; a word wider than a line
    (a long name with no space) is cut with an ellipsis, never drawn past the edge."""
    for size in STATUS_SIZES:
        lines = _wrap(text, size, width)
        if len(lines) <= status_room(size):
            return size, [fit(line, size, width) for line in lines]
    # Still too long at the smallest size: its last line ends with an ellipsis.
    kept = [*lines[:STATUS_LINES - 1], " ".join(lines[STATUS_LINES - 1:])]
    return size, [fit(line, size, width) for line in kept]


def status_runs(text: str, name: str, width: int) -> tuple[int, list[list[tuple[str, bool]]]]:
    """``status_lines``, each line in runs of words: the name the status begins with (``name``,
    in its seat's colour, on as many lines as it takes) and the rest (what they must do)."""
    size, lines = status_lines(text, width)
    left = len(name.split()) if name and text.startswith(name) else 0
    runs: list[list[tuple[str, bool]]] = []
    for line in lines:
        words = line.split(" ")
        n = min(left, len(words))
        left -= n
        runs.append([(run, named) for run, named in ((" ".join(words[:n]), True),
                                                     (" ".join(words[n:]), False)) if run])
    return size, runs


def _wrap(text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and length(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def draw_table(scene: TableScene) -> Image.Image:
    sides = [_side_height(s) for s in scene.seats]
    height = 44 + 2 * BAND + sum(sides) + CENTRE + 8
    img = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(img)
    d.text((MARGIN, 8), scene.title, font=font(22, bold=False), fill=DIM)
    y = 44
    _band(img, d, 0, scene.seats[0], y, scene.to_act == 0)
    y += BAND
    _side(img, d, scene.seats[0], y, scene.four_colour, scene.words.no_melds)
    y += sides[0]
    _centre(img, d, scene, y)
    y += CENTRE
    _band(img, d, 1, scene.seats[1], y, scene.to_act == 1)
    y += BAND
    _side(img, d, scene.seats[1], y, scene.four_colour, scene.words.no_melds)
    return img


def _side_height(info: SeatScene) -> int:
    return 12 + len(_rows(info.melds)) * MELD_ROW if info.melds else 44
