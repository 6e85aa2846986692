"""How the pictures read with names at their longest: nothing drawn past the picture's edge."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.umtali.names import MAX_NAME
from cogs.umtali.pictures import draw_table_png
from cogs.umtali.pictures.cards import strip
from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.scene import table_scene
from cogs.umtali.pictures.table import (
    FELT,
    FELT_LIT,
    MARGIN,
    PILE_H,
    PILE_W,
    STATUS_LINES,
    WIDTH,
    status_lines,
)
from umtali.i18n import tr_for
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import SPECTATOR

#: Names as long as a name may be: one word, too wide for a line; and several words, more
#: lines than the status has room for.
LONG = ("W" * MAX_NAME, "Жжжжжжжжжжж Шшшшшшшшшш Щщщщщщщщщщ"[:MAX_NAME])
EDGE = 6
#: Where the status starts, right of the stock and the discard pile; it may run to the margin.
STATUS_LEFT = MARGIN + PILE_W + 30 + strip(PILE_W, PILE_H) + PILE_W + 26 + MARGIN


def _right_edge(png: bytes) -> set[tuple[int, int, int]]:
    """The colours in the picture's rightmost pixels (only felt where nothing overflows)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.width == WIDTH
    return {img.getpixel((x, y)) for x in range(WIDTH - EDGE, WIDTH)  # type: ignore[misc]
            for y in range(img.height)}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", LONG)
def test_a_long_name_in_the_status_stays_inside_the_table_picture(lang: str, name: str) -> None:
    view = Session(RuleSet.english(), 3).view(SPECTATOR)
    png = draw_table_png(view, (name, name), tr=tr_for(lang))
    assert _right_edge(png) <= {FELT, FELT_LIT}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_long_name_does_not_push_what_they_must_do_out_of_the_status(lang: str) -> None:
    tr = tr_for(lang)
    name = "WWWWWWWWWW WWWWWWWWWW WWWWWWWWWW"[:MAX_NAME]
    scene = table_scene(Session(RuleSet.english(), 3).view(SPECTATOR), (name, name), tr)
    size, lines = status_lines(scene.status, WIDTH - STATUS_LEFT)
    action = tr("{name} to meld and discard", name="").strip()
    assert scene.status.endswith(action)
    # Every word shown, the action's last: smaller text rather than a line lost.
    assert len(lines) <= STATUS_LINES and " ".join(lines) == scene.status, lines
    assert all(font(size).getlength(line) <= WIDTH - STATUS_LEFT for line in lines)
