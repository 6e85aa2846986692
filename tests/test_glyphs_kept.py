"""What the pictures remember of the typefaces' letters is bounded: one answer per character
(and typeface) ever seen in a name, unbounded, let a member cycling through hostile names grow
the bot's memory without end (review134); so are the runs kept of the texts drawn."""

from __future__ import annotations

from cogs.umtali.pictures import fonts, runs


def test_the_glyph_answers_kept_are_bounded() -> None:
    fonts.has.cache_clear()
    for code in range(0x4E00, 0x4E00 + fonts.GLYPHS_KEPT + 500):  # CJK: none drawn
        assert not fonts.has_glyph(chr(code))
    assert fonts.has.cache_info().currsize <= fonts.GLYPHS_KEPT * len(fonts.TYPEFACES)
    assert fonts.has_glyph("A") and fonts.has_glyph("Ж") and fonts.has_glyph("λ")


def test_the_runs_kept_are_bounded() -> None:
    runs.runs.cache_clear()
    for n in range(runs.RUNS_KEPT + 300):
        assert runs.runs(f"Ana {n} محمد")[0] == ("Ana " + str(n) + " ", 0, fonts.DIRECTION)
    assert runs.runs.cache_info().currsize <= runs.RUNS_KEPT
