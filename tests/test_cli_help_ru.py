"""The terminal's help in Russian says what the terminal reads: a ten may be typed T, as the
English help says, and that Latin T is not the Russian Т (туз, the ace), which looks the same."""

from __future__ import annotations

import io

from umtali.cards import Card
from umtali.cli import main


def test_the_russian_help_tells_the_latin_t_from_the_russian() -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "9", "--lang", "ru", "--no-review"],
                io.StringIO("help\nquit\n"), out) == 0
    said = " ".join(out.getvalue().split())
    assert "A 2-10 (или T) J Q K" in said, said
    assert "латинская T — десятка, русская Т — туз" in said, said
    # As the terminal reads them.
    assert Card.parse("TS").code == "10S" and Card.parse("ТS").code == "AS"
