"""Names with characters the pictures' typeface (PT Sans: Latin and Cyrillic) has no letter
for: emoji, symbols, CJK, zalgo's stacks of accents. Each drew as a box (a "missing glyph"),
and a stack of them over the words after the name. The picture leaves them out, the text
beside it shows the name whole; a letter and its accent typed apart (и + ◌̆) is still the one
letter (й); and a name with nothing the typeface can draw is drawn as it is, not dropped."""

from __future__ import annotations

import pytest

from cogs.umtali.pictures import draw_table_png
from umtali import RuleSet, Session
from umtali.view import SPECTATOR

VIEW = Session(RuleSet.english(), 5).view(SPECTATOR)


@pytest.mark.parametrize("name, shown", [
    ("\U0001f409 Dragon \U0001f468\u200d\U0001f469\u200d\U0001f467", "Dragon"),
    ("\u2660Ace\u2605", "Ace"),
    ("Z\u0337\u0322\u031b\u0316\u0317\u0318algo", "Zalgo"),
    ("Zo\u0308e", "Zöe"),
    ("Андреи\u0306 \u2764\ufe0f", "Андрей"),
])
def test_what_the_typeface_cannot_draw_is_left_out_of_the_picture(name: str,
                                                                  shown: str) -> None:
    assert draw_table_png(VIEW, (name, "Ben")) == draw_table_png(VIEW, (shown, "Ben"))
    assert draw_table_png(VIEW, ("Ben", name)) == draw_table_png(VIEW, ("Ben", shown))


def test_a_name_with_nothing_the_typeface_draws_is_drawn_as_it_is() -> None:
    from cogs.umtali.pictures.fonts import drawable

    assert drawable("山田太郎") == "山田太郎"
    assert draw_table_png(VIEW, ("山田太郎", "Ben")) != draw_table_png(VIEW, ("Player", "Ben"))
