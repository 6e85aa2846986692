"""Numbers with a decimal, scores, and lists of names, as the reader's language writes them
(25.3; 25,3; 2–1; 2:1; "A, B and C")."""

from __future__ import annotations

from umtali.i18n import Text, Tr

#: A score between the two players: English "24–0", Russian «24:0» (ru.po's header).
SCORE = Text.ctx("a score between the two players", "{a}–{b}")


def one_decimal(tr: Tr, value: float) -> str:
    """``value`` with one decimal, in ``tr``'s language."""
    # Adding 0.0 turns a -0.0 into 0.0: a change that rounds to nothing is shown as none.
    units, tenths = f"{round(value, 1) + 0.0:.1f}".split(".")
    # A true minus sign, as the stats' "μ − 3σ" beside it has, not a hyphen.
    return tr("{units}.{tenths}", units=units.replace("-", "\u2212"), tenths=tenths)


def score(tr: Tr, a: int, b: int) -> str:
    """A score between the two players (a session's games, a hand's points) outside a
    sentence, in ``tr``'s language."""
    return tr(SCORE, a=a, b=b)


def session_over(tr: Tr, name: str, a: int, b: int) -> str:
    """A finished session's result: its winner, and the games won (the winner's first); no
    "wins 0-0" or "wins 0-1" for a session ended before its winner led (a resignation)."""
    if a <= b:
        return tr("Session over: {name} wins", name=name)
    return tr("Session over: {name} wins {a}-{b}", name=name, a=a, b=b)


def listed(missing: list[str], tr: Tr) -> str:
    """Permissions' names in a sentence, bold: "**A**, **B** and **C**"."""
    shown = [f"**{tr(m)}**" for m in missing]
    # A comma between all but the last two, in both languages.
    return shown[0] if len(shown) == 1 else tr("{a} and {b}", a=", ".join(shown[:-1]),
                                                 b=shown[-1])
