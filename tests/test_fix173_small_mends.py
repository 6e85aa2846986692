"""Three small mends from review161. A practice review's "…and 2 more" is its own message: it
shared the meld list's, which Russian says «…и ещё 2 варианта» (options), not mistakes. A
practice asked for too soon says its wait rounded up, as the challenge's does: 4.2 s said "4
seconds", and asked again then, it was refused again. The secrecy scans' ``without_accounts``
drops only a hand's accounts under its hand-ended line: since "- " is the ordinary list
marker, dropping every "- " line hid a card leaked on any list line. SimCord, a real SQLite
file, where the bot answers; the helper on texts the bot makes."""

from __future__ import annotations

from cogs.umtali.coach_review import whole_lessons
from umtali.i18n import EN, tr_for

RU = tr_for("ru")


def test_a_review_counts_the_mistakes_left_out_as_mistakes() -> None:
    lessons = ["- " + "x" * 1500, "- " + "y" * 600, "- z"]
    said = whole_lessons("**Разбор**", lessons, RU).split("\n")
    assert said[-1] == "…и ещё 2 дорогие ошибки", said[-1]
    assert whole_lessons("**Review**", lessons, EN).endswith("\n…and 2 more costly moves")
    # The meld list keeps its own words.
    assert RU.plural("…and {count} more", "…and {count} more", 2) == "…и ещё 2 варианта"
