"""Ratings with a decimal, as the reader's language writes them: 25.3 in English, 25,3 in
Russian (boards, a player's record, a season's summary)."""

from __future__ import annotations

from cogs.umtali.records import board_embed
from cogs.umtali.season_summaries import summary_embed
from cogs.umtali.stats import record_text
from data.models import BoardPage, BoardRow, PlayerRecord, PlayerStats, Rating
from umtali.i18n import tr_for

RECORD = PlayerRecord("ada", PlayerStats(), PlayerStats(), Rating(27.34, 2.61, 19.51, 1, 4))
BOARD = BoardPage(1, 1, 2, (BoardRow(1, 11, "ada", 19.51, 3, 4),
                            BoardRow(2, 12, "ben", -1.26, 1, 4)))


def test_a_record_writes_its_decimals_in_the_readers_language() -> None:
    english, russian = record_text(RECORD, tr_for("en")), record_text(RECORD, tr_for("ru"))
    assert "**19.5**" in english and "μ 27.3, σ 2.6" in english
    assert "**19,5**" in russian and "μ 27,3; σ 2,6" in russian


def test_boards_and_season_summaries_write_decimals_in_the_readers_language() -> None:
    for tr, first, second in ((tr_for("en"), "19.5", "\u22121.3"),
                              (tr_for("ru"), "19,5", "\u22121,3")):
        board = board_embed(BOARD, "server", "Railway Club", tr).description or ""
        summary = summary_embed("2026-12", BOARD, tr).description or ""
        for text in (board, summary):
            assert f"· {first} ·" in text and f"· {second} ·" in text, text
