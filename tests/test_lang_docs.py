"""README.md's English and Russian halves say the same, and what the code does."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGLISH, RUSSIAN = (" ".join(part.split()) for part in
                    (ROOT / "README.md").read_text(encoding="utf-8").split("## Как играть", 1))


def test_both_halves_say_a_resign_confirmation_holds_for_the_hand_it_was_asked_in() -> None:
    """``resigning.confirm_resign``: moves within the hand leave the "Yes" standing
    (tests/test_flows_resign.py); once that hand ended it has expired
    (tests/test_resign_confirm.py)."""
    assert "действует до конца раздачи, в которой его спросили" in RUSSIAN
    resigning = re.search(r"\*\*Resigning\*\*(.*?)- \*\*", ENGLISH)
    assert resigning is not None
    said = resigning.group(1)
    assert "holds for the hand it was asked in" in said, said
    assert "after a move" not in said, said
