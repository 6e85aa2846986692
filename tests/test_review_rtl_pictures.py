"""A name in a right-to-left script (Hebrew, Arabic) in the pictures: the picture's sentences
are English or Russian, laid out left to right whatever the name, which is only one part of
them. Bidi reordering by the name's first letter set "{name} to meld and discard" as "to meld
and discard {name}" (Russian "выкладывает и {name} / сбрасывает").

The name is one isolated right-to-left stretch of the line (as Discord's text isolates it):
"שלום Ada" reads שלום then Ada, right to left, so Ada is drawn on the left of שלום (UAX #9;
tests/test_pictures_bidi_order.py), in its band and in the status line, where what they must
do comes after the whole name. The Hebrew is drawn by its typeface (Heebo), right to left,
and found in the picture as that typeface draws it (``picture_ink``)."""

from __future__ import annotations

import pytest
from PIL import features

from cogs.umtali.pictures import draw_table_png
from cogs.umtali.pictures.scene import table_scene
from cogs.umtali.pictures.table import STATUS_SIZES
from tests.picture_ink import HEEBO, PT_SANS, read_in_order
from umtali import RuleSet, Session
from umtali.i18n import tr_for
from umtali.players import GreedyPlayer
from umtali.view import SPECTATOR

HEBREW = "שלום Ada"


@pytest.mark.skipif(not features.check_feature("raqm"), reason="Hebrew is drawn with raqm")
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
        png = draw_table_png(view, names, tr=tr)
        hebrew, ada = ("שלום", HEEBO, "rtl"), ("Ada", PT_SANS, "ltr")
        assert read_in_order(png, ada, hebrew, (26,)), names  # in the band
        scene = table_scene(view, names, tr)
        if scene.status_name == HEBREW:
            rest = scene.status.removeprefix(HEBREW).split()[0]
            assert read_in_order(png, hebrew, (rest, PT_SANS, "ltr"), STATUS_SIZES), names
            assert read_in_order(png, ada, hebrew, STATUS_SIZES), names
