"""What the pictures remember of the typeface's letters is bounded: one answer per character
ever seen in a name, unbounded, let a member cycling through hostile names grow the bot's
memory without end (review134)."""

from __future__ import annotations

from cogs.umtali.pictures import fonts


def test_the_glyph_answers_kept_are_bounded() -> None:
    fonts.has_glyph.cache_clear()
    for code in range(0x4E00, 0x4E00 + fonts.GLYPHS_KEPT + 500):  # CJK: none drawn
        assert not fonts.has_glyph(chr(code))
    assert fonts.has_glyph.cache_info().currsize <= fonts.GLYPHS_KEPT
    assert fonts.has_glyph("A") and fonts.has_glyph("Ж")
