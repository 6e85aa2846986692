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
    # Each score after its name and a colon: "Player 1 0 – 0 Player 2" ran the seat's number
    # into its score (review164).
    won = ("Games won: {first}: 0 – {second}: 0." if lang == "en"
           else "Выиграно партий: {first} — 0, {second} — 0.")
    assert won.format(first=first, second=second) in said, said
    # Named, the first seat is as named.
    out = io.StringIO()
    assert main(["play", "--seed", "9", "--hotseat", "--no-handover", "--name", "Аня",
                 "--lang", "en"],
                io.StringIO("quit\n"), out) == 0
    assert "Games won: Аня: 0 – Player 2: 0." in out.getvalue()


@pytest.mark.parametrize(("options", "won"), [
    (["--name", "Computer"], "Games won: Computer: 0 – Opponent: 0."),
    (["--name", " computer "], "Games won: computer: 0 – Opponent: 0."),
    (["--name", "Компьютер", "--lang", "ru"], "Выиграно партий: Компьютер — 0, Соперник — 0."),
    (["--name", "Player 2", "--hotseat", "--no-handover"], "Games won: Player 2: 0 – Player 1: 0."),
    (["--name", "   "], "Games won: Player: 0 – Computer: 0."),
])
def test_the_two_seats_never_share_a_name(options: list[str], won: str) -> None:
    # "--name Computer" gave both seats one name: every move, score and the winner read as
    # one player's (review46).
    out = io.StringIO()
    assert main(["play", "--seed", "9", *options], io.StringIO("quit\n"), out) == 0
    assert won in out.getvalue(), out.getvalue()
