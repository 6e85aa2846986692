"""A seat's name keeps room beside its tags on the table picture (review165): fix176's
" · 16 cards · dealer" after the name, beside a score line of 3-digit numbers, left the name
some 70 px (English), and with " · went out" none. Short of room, the count is written on the
card backs (as the stock's is) and the fan closes up; with room, it stays in words."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cogs.umtali.pictures import runs, table
from cogs.umtali.pictures.scene import SeatScene, _tags, table_scene
from cogs.umtali.pictures.table import NAME_ROOM, draw_table
from tests.test_review96_pictures import RU, _ended_with_cards_left
from umtali.i18n import EN, Tr

NAMES = ("Александра Константинопольская", "Bartholomew Featherstonehaugh")


def _crowded(seat: SeatScene, tr: Tr, cards: int, went_out: bool) -> SeatScene:
    """``seat`` as crowded as a real band gets: the dealer, the biggest hand, going out,
    3-digit points and score, 2-digit games won."""
    return dataclasses.replace(
        seat, hand_size=cards, dealer=True, went_out=went_out,
        score_line=tr("+{points} · score {score} · games won {won}", points=185, score=495,
                      won=12),
        tags=_tags(cards, True, went_out, tr), marks=_tags(None, True, went_out, tr))


@pytest.mark.parametrize("tr", [EN, RU], ids=["en", "ru"])
@pytest.mark.parametrize(("cards", "went_out"), [(16, False), (16, True), (14, False)])
def test_the_longest_tags_leave_a_name_room(
        tr: Tr, cards: int, went_out: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    view, _ = _ended_with_cards_left()
    scene = table_scene(view, NAMES, tr)
    first, second = scene.seats
    scene = dataclasses.replace(scene, seats=(_crowded(first, tr, cards, went_out),
                                              _crowded(second, tr, cards, went_out)))
    rooms: list[int] = []
    fit = runs.fit

    def measured(text: str, size: int, width: int, bold: bool = True) -> str:
        rooms.append(width)  # the name's, in a seat's band
        return fit(text, size, width, bold)

    band = table._band

    def measuring(*args: Any) -> None:
        monkeypatch.setattr(table, "fit", measured)
        band(*args)
        monkeypatch.setattr(table, "fit", fit)

    monkeypatch.setattr(table, "_band", measuring)
    draw_table(scene)
    assert len(rooms) == 2 and min(rooms) >= NAME_ROOM >= 120, rooms


def test_with_room_the_count_stays_in_words() -> None:
    view, _ = _ended_with_cards_left()
    for tr in (EN, RU):
        seat = table_scene(view, NAMES, tr).seats[0]
        ten = dataclasses.replace(seat, hand_size=10, tags=_tags(10, False, False, tr),
                                  marks=_tags(None, False, False, tr))
        shown, tags, counted, room = table._layout(ten)
        assert (shown, counted) == (10, False) and tags.startswith(" · 10 ")
        assert room >= NAME_ROOM
        crowded = table._layout(_crowded(seat, tr, 16, True))
        assert crowded[2] and "16" not in crowded[1], crowded
