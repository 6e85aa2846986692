"""Numbers with a decimal, and lists of names, as the reader's language writes them (25.3;
25,3; "A, B and C")."""

from __future__ import annotations

from umtali.i18n import Tr


def one_decimal(tr: Tr, value: float) -> str:
    """``value`` with one decimal, in ``tr``'s language."""
    # Adding 0.0 turns a -0.0 into 0.0: a change that rounds to nothing is shown as none.
    units, tenths = f"{round(value, 1) + 0.0:.1f}".split(".")
    return tr("{units}.{tenths}", units=units, tenths=tenths)


def listed(missing: list[str], tr: Tr) -> str:
    """Permissions' names in a sentence, bold: "**A**, **B** and **C**"."""
    shown = [f"**{tr(m)}**" for m in missing]
    # A comma between all but the last two, in both languages.
    return shown[0] if len(shown) == 1 else tr("{a} and {b}", a=", ".join(shown[:-1]),
                                                 b=shown[-1])
