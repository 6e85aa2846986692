"""The table picture's score line in Russian is no wider than in English: «выиграно партий N»
took some 45 px more, cut from the names beside it; «партии N» under the picture's «Партия 1»
title read as a game's number (review162), so the games won are «побед: N»."""

from __future__ import annotations

from cogs.umtali.pictures.fonts import font
from cogs.umtali.pictures.scene import table_scene
from tests.test_review96_pictures import RU, _ended_with_cards_left
from umtali.i18n import EN

NAMES = ("Александра Константинопольская", "Bartholomew Featherstonehaugh")


def test_the_russian_score_line_leaves_a_name_as_much_room_as_the_english() -> None:
    view, _ = _ended_with_cards_left()
    width = font(20, bold=False).getlength
    english, russian = table_scene(view, NAMES, EN), table_scene(view, NAMES, RU)
    for s in (0, 1):
        ru, en = russian.seats[s].score_line, english.seats[s].score_line
        assert width(ru) <= width(en), (ru, en)
        # The glossary's terms (docs/RULES.ru.md): счёт of the game; wins, of the games.
        assert ru == f"+{view.hand_scores[-1][s]} · счёт {view.game_scores[s]} · побед: " \
                     f"{view.games_won[s]}", ru
