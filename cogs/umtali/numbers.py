"""Numbers with a decimal, as the reader's language writes them (25.3; 25,3)."""

from __future__ import annotations

from umtali.i18n import Tr


def one_decimal(tr: Tr, value: float) -> str:
    """``value`` with one decimal, in ``tr``'s language."""
    # Adding 0.0 turns a -0.0 into 0.0: a change that rounds to nothing is shown as none.
    units, tenths = f"{round(value, 1) + 0.0:.1f}".split(".")
    return tr("{units}.{tenths}", units=units, tenths=tenths)
