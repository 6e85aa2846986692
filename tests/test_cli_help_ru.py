"""The terminal's help in Russian says what the terminal reads: the Russian Т is туз, the ace,
and the Latin T, which looks the same (a ten in the notation), is refused in the Russian game
rather than read as either (tests/test_terminal3_lookalikes.py)."""

from __future__ import annotations

import io

from umtali.cards import Card
from umtali.cli import main


def test_the_russian_help_tells_the_latin_t_from_the_russian() -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "9", "--lang", "ru", "--no-review"],
                io.StringIO("help\nquit\n"), out) == 0
    said = " ".join(out.getvalue().split())
    assert "A 2-10 J Q K или по-русски Т В Д К (Т — туз)" in said, said
    assert "латинская T не принимается: это может быть и десятка (T), и туз (Т)" in said, said
    # The notation itself (scripts, replays, the bot) reads both, each its own way.
    assert Card.parse("TS").code == "10S" and Card.parse("ТS").code == "AS"
