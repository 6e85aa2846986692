"""Two leftovers in match texts (fix187). The challenge's clock says what running out does
between two members, as the practice offer says its own (fix176): blitz, normal and a bare
turn timer forfeit the session; by correspondence the opponent may claim it; no clock, nothing
to run out. And the note of who laid cards on a meld is in no brackets: a computer's name
carries its level in its own, and "(10♣: Computer (easy))" nested them. English and Russian."""

from __future__ import annotations

import pytest

from cogs.umtali.render import table_embed
from tests.test_fix156_text_table import NB, _table
from umtali.i18n import tr_for
from umtali.text import render_view
from umtali.view import SPECTATOR


@pytest.mark.parametrize(("lang", "computer", "mark"), [
    ("en", "Computer (easy)", "9♠ 10♠ laid by Computer (easy)"),
    ("ru", "Компьютер (лёгкий)", "9♠ 10♠ — от игрока Компьютер (лёгкий)"),
])
def test_a_computers_mark_on_a_meld_nests_no_brackets(lang: str, computer: str,
                                                      mark: str) -> None:
    tr = tr_for(lang)
    names = ("ada", computer)
    field = (table_embed(_table().view(SPECTATOR), names, 1, tr=tr).fields[0].value or "")
    spades = NB.join(["7♠", "8♠", "9♠", "10♠", "J♠"])
    assert field == f"[{spades}] {mark.replace(' ', NB)}", field
    # The terminal's table shares the words (the picture marks cards in colour, no words).
    text = render_view(_table().view(0), names, tr)
    assert f"[{spades}] {mark.replace(' ', NB)}\n" in text, text
