"""Two people at one terminal were "Player" and "Player 2": the scores read "Games won: Player
0, Player 2 0" and at the end "Games: Player 2, Player 2 1", as if both lines were Player 2's.
Unnamed, the first seat is "Player 1" at a hotseat, as in ``script``."""

from __future__ import annotations

import io

import pytest

from umtali.cli import main


@pytest.mark.parametrize(("lang", "first", "second"), [("en", "Player 1", "Player 2"),
                                                      ("ru", "Игрок 1", "Игрок 2")])
def test_the_two_seats_of_a_hotseat_are_numbered_alike(lang: str, first: str,
                                                        second: str) -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "9", "--hotseat", "--no-handover", "--lang", lang],
                io.StringIO("quit\n"), out) == 0
    said = out.getvalue()
    won = "Games won" if lang == "en" else "Выиграно партий"
    assert f"{won}: {first} 0, {second} 0." in said, said
    # Named, the first seat is as named.
    out = io.StringIO()
    assert main(["play", "--seed", "9", "--hotseat", "--no-handover", "--name", "Аня",
                 "--lang", "en"],
                io.StringIO("quit\n"), out) == 0
    assert "Games won: Аня 0, Player 2 0." in out.getvalue()
