"""The rules pages tell the truth about the clock and the table, in each language."""

from __future__ import annotations

import pytest

from cogs.umtali.rules_text import pages
from umtali.i18n import languages, tr_for


@pytest.mark.parametrize("language", languages())
def test_the_playing_page_tells_of_the_reserve_and_the_correspondence_question(
        language: str) -> None:
    tr = tr_for(language)
    playing = pages(tr)[-1][1]
    # Running out of time does not always forfeit: a reserve comes first, and by
    # correspondence the waiting player is asked, with these buttons.
    assert f"**{tr('Claim the win')}**" in playing
    assert f"**{tr('Keep waiting')}**" in playing
    assert ("reserve" if language == "en" else "запас") in playing


def test_the_table_is_said_to_change_when_a_turn_ends() -> None:
    playing = pages(tr_for("en"))[-1][1]
    assert "updated when each turn ends" in playing and "after every move" not in playing
