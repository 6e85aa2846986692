"""Pictures of a match, drawn by the project with Pillow: the public table and a hand.

``table_png`` takes the spectator's view, ``hand_png`` a seat's own; each makes a scene (what
is shown, and nothing more), and the same scene is drawn once (``CACHE``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from cogs.umtali.arrange import HandOrder
from cogs.umtali.pictures.cache import PictureCache
from cogs.umtali.pictures.cards import all_faces, back
from cogs.umtali.pictures.hand import CARD_H, CARD_W, draw_hand
from cogs.umtali.pictures.scene import HandScene, TableScene, hand_scene, table_scene
from cogs.umtali.pictures.table import (
    MELD_H,
    MELD_W,
    PILE_H,
    PILE_W,
    SMALL_H,
    SMALL_W,
    draw_table,
)
from umtali.i18n import EN, Tr
from umtali.view import PlayerView

__all__ = ["CACHE", "HAND_FILE", "TABLE_FILE", "draw_hand_png", "draw_table_png", "hand_png",
           "table_png", "warm"]

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
CACHE = PictureCache()


def encode(img: Image.Image) -> bytes:
    """PNG bytes. Flat colours compress well at a low level, which costs a fraction of the
    time of the default."""
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=1)
    return out.getvalue()


def _table(scene: TableScene) -> bytes:
    return encode(draw_table(scene))


def _hand(scene: HandScene) -> bytes:
    return encode(draw_hand(scene))


def table_png(view: PlayerView, names: Sequence[str], *, tr: Tr = EN,
              four_colour: bool = False, ended: str = "") -> bytes:
    """The public table; ``view`` must be the spectator's (anything else raises). ``ended``:
    how a match with no result ended, in words (``table_scene``)."""
    scene = table_scene(view, (names[0], names[1]), tr, four_colour, ended)
    return CACHE.get(scene, lambda: _table(scene))


def hand_png(view: PlayerView, *, tr: Tr = EN, four_colour: bool = False,
             order: HandOrder = HandOrder.SUIT) -> bytes:
    """The seat's own hand, for that seat's private panels only, in the player's ``order``."""
    scene = hand_scene(view, tr, four_colour, order)
    return CACHE.get(scene, lambda: _hand(scene))


def draw_table_png(view: PlayerView, names: Sequence[str], *, tr: Tr = EN,
                   four_colour: bool = False, ended: str = "") -> bytes:
    """``table_png`` drawn afresh, past the cache (tests, benches)."""
    return _table(table_scene(view, (names[0], names[1]), tr, four_colour, ended))


def draw_hand_png(view: PlayerView, *, tr: Tr = EN, four_colour: bool = False,
                  order: HandOrder = HandOrder.SUIT) -> bytes:
    """``hand_png`` drawn afresh, past the cache (tests, benches)."""
    return _hand(hand_scene(view, tr, four_colour, order))


def warm() -> None:
    """Make every card sprite now (about 0.1 s), so that no player's first picture waits."""
    for four in (False, True):
        for w, h in ((MELD_W, MELD_H), (PILE_W, PILE_H), (CARD_W, CARD_H)):
            all_faces(w, h, four)
    for w, h in ((SMALL_W, SMALL_H), (PILE_W, PILE_H)):
        back(w, h)
