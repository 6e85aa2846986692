"""Card sprites drawn by the project: faces, backs and suit symbols as shapes, no artwork.

Every sprite is made once per size and kept (52 faces a size, a few kilobytes each), so a
picture is mostly pastes. Suit symbols are drawn at four times their size and scaled down,
which smooths their edges without an anti-aliasing library.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw

from cogs.umtali.pictures.fonts import font
from umtali.cards import CARDS, RANK_TEXT, Card

RGB = tuple[int, int, int]

BLACK: RGB = (28, 28, 30)
RED: RGB = (205, 28, 44)
BLUE: RGB = (28, 84, 205)
#: A blue-leaning green: a plain green has the lightness of the red, and a deuteranope saw
#: hearts and clubs as one colour.
GREEN: RGB = (0, 128, 110)
FACE: RGB = (252, 252, 250)
EDGE: RGB = (120, 124, 130)
BACK: RGB = (150, 30, 45)
BACK_LINE: RGB = (196, 74, 88)
#: Outlines: a card that can be melded now, and a card just taken from the pile (dashed).
MELDABLE: RGB = (40, 200, 90)
TAKEN: RGB = (250, 190, 40)

_SS = 4  # supersampling factor for shapes


def suit_colour(suit: int, four_colour: bool) -> RGB:
    """♠ black, ♥ red; ♦ red and ♣ black, or with four colours ♦ blue and ♣ green."""
    if four_colour:
        return (BLACK, RED, BLUE, GREEN)[suit]
    return (BLACK, RED, RED, BLACK)[suit]


def _circle(d: ImageDraw.ImageDraw, s: int, cx: float, cy: float, r: float) -> None:
    d.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=255)


def _poly(d: ImageDraw.ImageDraw, s: int, *points: tuple[float, float]) -> None:
    d.polygon([(x * s, y * s) for x, y in points], fill=255)


@cache
def suit_mask(suit: int, size: int) -> Image.Image:
    """The suit's symbol as an ``L`` mask of ``size`` x ``size`` pixels."""
    s = size * _SS
    mask = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(mask)
    if suit == 1:  # hearts: two lobes and a point
        _circle(d, s, 0.28, 0.33, 0.245)
        _circle(d, s, 0.72, 0.33, 0.245)
        _poly(d, s, (0.05, 0.42), (0.95, 0.42), (0.5, 0.95))
    elif suit == 2:  # diamonds
        _poly(d, s, (0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5))
    elif suit == 0:  # spades: a heart upside down on a stem
        _circle(d, s, 0.28, 0.58, 0.23)
        _circle(d, s, 0.72, 0.58, 0.23)
        _poly(d, s, (0.06, 0.5), (0.94, 0.5), (0.5, 0.03))
        _poly(d, s, (0.5, 0.6), (0.3, 0.98), (0.7, 0.98))
    else:  # clubs: three leaves on a stem
        _circle(d, s, 0.5, 0.27, 0.215)
        _circle(d, s, 0.26, 0.58, 0.215)
        _circle(d, s, 0.74, 0.58, 0.215)
        _circle(d, s, 0.5, 0.5, 0.12)
        _poly(d, s, (0.5, 0.5), (0.3, 0.98), (0.7, 0.98))
    return mask.resize((size, size), Image.Resampling.LANCZOS)


def paint_suit(img: Image.Image, suit: int, size: int, xy: tuple[int, int], colour: RGB) -> None:
    img.paste(colour, (xy[0], xy[1], xy[0] + size, xy[1] + size), suit_mask(suit, size))


def _blank(w: int, h: int, fill: RGB, edge: RGB, border: int = 1) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    r = max(3, w // 10)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, w - 1, h - 1), r, fill=fill, outline=edge,
                                          width=border)
    return img


def rank_size(h: int) -> int:
    """The corner's rank text size for cards ``h`` pixels high."""
    return max(10, round(h * 0.29))


def suit_top(size: int, top: int) -> int:
    """Where the corner's suit goes, under rank text of ``size`` drawn at ``top``: below the
    lowest ink of any rank (the tail of the Q hangs under the line; a suit over it made the Q
    read as an O), the same for every card so the corners line up."""
    return top + round(font(size).getbbox("Q")[3]) + max(1, size // 16)


def strip(w: int, h: int, card: Card | None = None) -> int:
    """How much of a card must show in a fan for its corner (rank and suit) to be read: of
    any card (a 10's, the widest), or of ``card`` (a J's is narrower: its suit's width)."""
    size = rank_size(h)
    ink = font(size).getlength("10" if card is None else RANK_TEXT[card.rank])
    if card is not None:
        ink = max(ink, round(size * 0.8))
    return round(ink) + max(4, w // 9)


def dash(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], border: int, gap: RGB,
         radius: int, step: int) -> None:
    """Break the outline of ``box`` (``border`` wide, corners of ``radius``) into dashes:
    every other ``step`` pixels of its straight sides painted ``gap``."""
    left, top, right, bottom = box
    for x in range(left + radius + step, right - radius - step + 1, 2 * step):
        d.rectangle((x, top, x + step - 1, top + border - 1), fill=gap)
        d.rectangle((x, bottom - border + 1, x + step - 1, bottom), fill=gap)
    for y in range(top + radius + step, bottom - radius - step + 1, 2 * step):
        d.rectangle((left, y, left + border - 1, y + step - 1), fill=gap)
        d.rectangle((right - border + 1, y, right, y + step - 1), fill=gap)


def _border(w: int, outline: RGB | None) -> int:
    return max(2, w // 18) if outline else 1


def _dash(d: ImageDraw.ImageDraw, w: int, h: int, border: int, shown: int) -> None:
    """The dashed outline of a card ``w`` wide, ``shown`` pixels of it."""
    dash(d, (0, 0, shown - 1, h - 1), border, FACE, max(3, w // 10), max(6, w // 10))


@cache
def face(card: Card, w: int, h: int, four_colour: bool = False,
         outline: RGB | None = None, dashed: bool = False) -> Image.Image:
    """A card's face, ``w`` x ``h``: rank and suit in the top-left corner (what a fan shows),
    a large suit in the middle; ``outline`` marks it (meldable, just taken), ``dashed`` in
    dashes (the mark of a card just taken, told from a solid one by its shape)."""
    colour = suit_colour(card.suit, four_colour)
    border = _border(w, outline)
    img = _blank(w, h, FACE, outline or EDGE, border)
    d = ImageDraw.Draw(img)
    if outline and dashed:
        _dash(d, w, h, border, w)
    size = rank_size(h)
    pad = max(3, w // 14)
    rank = RANK_TEXT[card.rank]
    top = pad - size // 8
    d.text((pad, top), rank, font=font(size), fill=colour)
    small = round(size * 0.8)
    paint_suit(img, card.suit, small, (pad, suit_top(size, top)), colour)
    big = round(min(w, h) * 0.5)
    paint_suit(img, card.suit, big, (w - big - pad, h - big - pad), colour)
    return img


def cut(sprite: Image.Image, shown: int, outline: RGB | None = None,
        dashed: bool = False) -> Image.Image:
    """The left ``shown`` pixels of a face (drawn with this ``outline``, ``dashed``) with its
    edge and round corners drawn again at the cut: the last card of a group in a fan, felt
    after it where the next card would cover it."""
    w, h = sprite.size
    img = sprite.crop((0, 0, shown, h))
    radius = max(3, w // 10)
    mask = Image.new("L", (shown, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, shown - 1, h - 1), radius, fill=255)
    img.putalpha(ImageChops.multiply(img.getchannel("A"), mask))
    d = ImageDraw.Draw(img)
    border = _border(w, outline)
    d.rounded_rectangle((0, 0, shown - 1, h - 1), radius, outline=outline or EDGE, width=border)
    if outline and dashed:
        # Dashed from the same corner as the whole card: its left part is unchanged.
        _dash(d, w, h, border, shown)
    return img


@lru_cache(maxsize=512)
def cut_face(card: Card, w: int, h: int, shown: int, four_colour: bool = False,
             outline: RGB | None = None, dashed: bool = False) -> Image.Image:
    """``face`` cut ``shown`` pixels from its left (``cut``), kept: a hand redrawn each move
    cuts the same few."""
    return cut(face(card, w, h, four_colour, outline, dashed), shown, outline, dashed)


@cache
def back(w: int, h: int) -> Image.Image:
    """The back of a card: a red panel with a lattice, the same for every card."""
    img = _blank(w, h, FACE, EDGE)
    d = ImageDraw.Draw(img)
    inset = max(2, w // 12)
    d.rounded_rectangle((inset, inset, w - 1 - inset, h - 1 - inset), max(2, w // 14),
                        fill=BACK)
    step = max(5, w // 6)
    for x in range(-h, w + h, step):
        d.line((x, inset, x + h, inset + h), fill=BACK_LINE, width=1)
        d.line((x + h, inset, x, inset + h), fill=BACK_LINE, width=1)
    # The lattice is drawn over the frame: put the frame back.
    d.rectangle((0, 0, w - 1, inset - 1), fill=FACE)
    d.rectangle((0, h - inset, w - 1, h - 1), fill=FACE)
    d.rectangle((0, 0, inset - 1, h - 1), fill=FACE)
    d.rectangle((w - inset, 0, w - 1, h - 1), fill=FACE)
    frame = _blank(w, h, FACE, EDGE)
    frame.paste(img.crop((inset, inset, w - inset, h - inset)), (inset, inset))
    return frame


def all_faces(w: int, h: int, four_colour: bool) -> list[Image.Image]:
    """Every face at one size (to warm the cache before the first picture is needed)."""
    return [face(c, w, h, four_colour) for c in CARDS]
