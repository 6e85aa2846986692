"""``fonts.has`` tells a letter a typeface has from its "missing" box by comparing their
glyphs; it measured the box again on every call: a name of 32 letters no typeface has measured
it some 300 times (a picture's draw held up for it). The box is measured once a typeface and
weight."""

from __future__ import annotations

import pytest

from cogs.umtali.pictures import fonts


def test_the_missing_box_is_measured_once_a_typeface(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[str] = []
    mask = fonts._mask

    def counted(ch: str, typeface: int, bold: bool) -> tuple[tuple[int, int], bytes]:
        measured.append(ch)
        return mask(ch, typeface, bold)

    monkeypatch.setattr(fonts, "_mask", counted)
    missing = getattr(fonts, "_missing", None)
    for clear in (fonts.has.cache_clear, getattr(missing, "cache_clear", lambda: None)):
        clear()
    try:
        unseen = [chr(c) for c in range(0x4E00, 0x4E20)]  # CJK: no typeface has them
        for ch in unseen:
            assert not fonts.has_glyph(ch)
        boxes = measured.count("\U0010fffd")
        assert boxes <= len(fonts.CHAIN), boxes
        assert len(measured) - boxes == len(unseen) * len(fonts.CHAIN)
    finally:
        fonts.has.cache_clear()
