"""Numbers with a decimal, as the reader's language writes them (25.3; 25,3)."""

from __future__ import annotations

from umtali.i18n import Tr


def one_decimal(tr: Tr, value: float) -> str:
    """``value`` with one decimal, in ``tr``'s language."""
    units, tenths = f"{value:.1f}".split(".")
    return tr("{units}.{tenths}", units=units, tenths=tenths)
