"""No invisible joiner reaches a picture.

A stored name has no zero-width joiner or non-joiner (``clean_name``; tests/test_names.py and
test_hostile_names.py promise no shown name holds one): a Persian name typed "می\u200cخواهم" is
stored and drawn "میخواهم", joined. ``fonts.drawable`` kept a joiner between two letters of
a shaped script, which no name could bring: gone, and ``runs`` draws none either (a run of
them in a name drawn directly is nothing, not boxes)."""

from __future__ import annotations

import pytest

from cogs.umtali.pictures import fonts
from cogs.umtali.pictures.runs import runs
from cogs.umtali.pictures.scene import table_scene
from umtali import RuleSet, Session
from umtali.i18n import tr_for
from umtali.view import SPECTATOR

ZWNJ, ZWJ = "\u200c", "\u200d"


@pytest.mark.parametrize(("name", "drawn"), [
    (f"می{ZWNJ}خواهم", "میخواهم"),
    (f"क्{ZWJ}ष", "क्ष"),
    ("Ana" + ZWNJ * 40 + ZWJ * 40 + "محمد", "Anaمحمد"),
])
def test_no_joiner_reaches_a_picture(name: str, drawn: str) -> None:
    assert fonts.drawable(name) == drawn
    assert not any(ch in run for run, _, _ in runs(name) for ch in (ZWNJ, ZWJ))
    view = Session(RuleSet.english(), 5).view(SPECTATOR)
    scene = table_scene(view, (name, "Ben"), tr_for("en"))
    assert scene.seats[0].name == drawn
