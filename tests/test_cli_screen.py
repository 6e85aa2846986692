"""The terminal's wrapping (``umtali.cli_screen``) keeps a prompt's trailing space: a long
player's name wrapped, typing starts one column after ``>``, as it does unwrapped. And the
columns counted are those a terminal gives (a wide sign two, 🂠 one)."""

from __future__ import annotations

import io

import pytest

from umtali.cli_screen import Screen, columns, wrapped


def test_a_wrapped_prompt_keeps_its_trailing_space() -> None:
    assert wrapped("Anna Maria Lopez Garcia> ", 20) == ["Anna Maria Lopez", "  Garcia> "]
    assert wrapped("Anna> ", 20) == ["Anna> "]  # (not wrapped: as it was)
    # The prompt fills the row but for its space: its last word goes down with the space,
    # rather than the space alone on a row of its own (or lost).
    assert wrapped("aaaa bbbbbbbbbbbbbb> ", 20) == ["aaaa", "  bbbbbbbbbbbbbb> "]


def test_only_the_last_rows_space_is_kept() -> None:
    # Spaces where a row breaks are not written: they would only push the cursor on.
    rows = wrapped("one two three four five six seven eight nine ten> ", 20)
    assert [r for r in rows[:-1] if r.endswith(" ")] == [], rows
    assert rows[-1].endswith("> ") and " ".join(r.strip() for r in rows) == (
        "one two three four five six seven eight nine ten>")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_cursor_after_a_wrapped_prompt_is_past_its_space(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    out = _Terminal()
    screen = Screen(out)
    screen.write("Anna Maria Lopez Garcia> ")
    assert out.getvalue() == "Anna Maria Lopez\n  Garcia> "
    assert screen.column == len("  Garcia> ")


def test_columns_are_a_terminals() -> None:
    assert columns("🂠") == 1  # a card back: not a wide sign (East Asian width N)
    assert columns("🃏") == 2 and columns("漢") == 2  # wide (W)
    assert columns("10♠") == 3 and columns("e\u0301") == 1  # a combining accent takes none
