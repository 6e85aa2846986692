"""Two leftovers in match texts (fix187). The challenge's clock says what running out does
between two members, as the practice offer says its own (fix176): blitz, normal and a bare
turn timer forfeit the session; by correspondence the opponent may claim it; no clock, nothing
to run out. And the note of who laid cards on a meld is in no brackets: a computer's name
carries its level in its own, and "(10♣: Computer (easy))" nested them. English and Russian."""

from __future__ import annotations

import dataclasses

import pytest

from cogs.umtali.challenge_text import challenge_embed
from cogs.umtali.render import table_embed
from tests.test_fix156_text_table import NB, _table
from tests.test_fix156_words import CHALLENGE
from umtali.i18n import tr_for
from umtali.text import render_view
from umtali.view import SPECTATOR

FORFEIT = {"en": "; run out of time and you lose the session.",
           "ru": "; не успеете — матч проигран."}
CLAIM = {"en": "; run out of time and your opponent may claim the session.",
         "ru": "; не успеете — соперник может забрать победу в матче."}


def _said(lang: str, preset: str, seconds: int) -> str:
    ch = dataclasses.replace(CHALLENGE, time_control=preset, turn_timer=seconds)
    return challenge_embed(ch, tr_for(lang)).description or ""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_challenge_says_what_running_out_does(lang: str) -> None:
    for preset, seconds in (("blitz", 30), ("normal", 300), ("", 120)):
        said = _said(lang, preset, seconds)
        assert FORFEIT[lang] in said and CLAIM[lang] not in said, said
    said = _said(lang, "correspondence", 86400)
    assert CLAIM[lang] in said and FORFEIT[lang] not in said, said
    for preset, seconds in (("off", 0), ("", 0)):
        said = _said(lang, preset, seconds)
        assert FORFEIT[lang] not in said and CLAIM[lang] not in said, said


@pytest.mark.parametrize(("lang", "computer", "mark"), [
    ("en", "Computer (easy)", "9♠ 10♠ laid by Computer (easy)"),
    ("ru", "Компьютер (лёгкий)", "9♠ 10♠ — выложено: Компьютер (лёгкий)"),
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
