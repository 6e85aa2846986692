"""A name in a right-to-left script (Hebrew, Arabic) in the pictures: the picture's sentences
are English or Russian, laid out left to right whatever the name, which is only one part of
them. Bidi reordering by the name's first letter set "{name} to meld and discard" as "to meld
and discard {name}" (Russian "выкладывает и {name} / сбрасывает"), and a name of Hebrew and
Latin words read back to front in its band.

PT Sans has neither Hebrew nor CJK letters: each draws as the same missing-glyph box, so a
Hebrew name and a CJK one (left to right) of as many letters draw the same picture exactly when
nothing is reordered."""

from __future__ import annotations

import pytest

from cogs.umtali.pictures import draw_table_png
from umtali import RuleSet, Session
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer
from umtali.view import SPECTATOR

HEBREW, CJK = "שלום Ada", "山田太郎 Ada"


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("moves", [0, 1])
def test_a_right_to_left_name_does_not_turn_the_pictures_sentences_around(
        lang: str, moves: int) -> None:
    session = Session(RuleSet.english(), 5)
    for _ in range(moves):  # 0: to draw; 1: to meld and discard
        session.apply(GreedyPlayer().choose(session.view(session.to_act)), session.to_act)
    view = session.view(SPECTATOR)
    tr = tr_for(lang)
    for names in ((HEBREW, "Ben"), ("Ben", HEBREW)):
        same = tuple(CJK if n == HEBREW else n for n in names)
        assert draw_table_png(view, names, tr=tr) == draw_table_png(view, same, tr=tr), names
