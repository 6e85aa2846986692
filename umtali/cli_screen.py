"""The terminal game's lines, wrapped to the terminal's width (``umtali.cli_play``).

A terminal breaks a long line wherever its width falls, inside a card name too ("1" at the end
of one row, "0♠" at the start of the next). Written to a terminal, each line is broken at
spaces only, its next rows hanging under it (the help's under its column of descriptions).
Words joined by ``GLUE`` (a move of the list) stay on one row. To a pipe or a file, where no
width holds, lines are written whole, as scripts and tests read them."""

from __future__ import annotations

import re
import shutil
import unicodedata
from typing import TextIO

#: Joins words that must not be parted by a wrap (written as a space).
GLUE = "\u00a0"
#: Narrower than this, the width is taken as this: a row must hold a few words.
NARROWEST = 20
#: The fewest columns a hanging row keeps for its words.
ROW = 15
#: The help's lines: a command, two spaces or more, then its description.
_COLUMNED = re.compile(r" +\S+(?: \S+)* {2,}(?=\S)")


def columns(text: str) -> int:
    """How many columns ``text`` takes on a terminal: a wide sign (East Asian width W or F,
    such as 🃏 or 漢) two, a combining accent none, any other one (🂠, a card back, too)."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _hang(line: str, width: int) -> str:
    """Where the rows after a line's first begin: under the help's descriptions, under the
    line's own indent, or two columns in; those leaving too narrow a row, two columns in."""
    columned = _COLUMNED.match(line)
    indent = len(columned.group()) if columned else len(line) - len(line.lstrip(" ")) or 2
    return " " * (indent if width - indent >= ROW else 2)


def wrapped(line: str, width: int, column: int = 0) -> list[str]:
    """``line`` (no line break in it) in rows of at most ``width`` columns, the first starting
    at ``column``, broken only at spaces; a word wider than a row is left whole. The line's
    last spaces (a prompt's, after which typing starts) stay, with its last word."""
    if column + columns(line) <= width:
        return [line]
    hang = _hang(line, width)
    body = line.rstrip(" ")
    trail = line[len(body):]
    lead = body[:len(body) - len(body.lstrip(" "))]
    words = body[len(lead):].split(" ")
    rows: list[str] = []
    row, fresh, used = lead, True, column
    for i, word in enumerate(words):
        if fresh:
            if word:
                row, fresh = row + word, False
            continue
        wide = columns(word) + (len(trail) if i == len(words) - 1 else 0)
        if used + columns(row) + 1 + wide <= width:
            row += " " + word
            continue
        rows.append(row)
        row, used = hang + word, 0
        fresh = not word
    rows.append(row)
    # A row broken at a space ends without it (it would only push the cursor on).
    rows = [r.rstrip(" ") for r in rows]
    rows[-1] += trail
    return rows


class Screen:
    """Writes to ``stdout``, wrapped to the terminal's width when it is a terminal."""

    def __init__(self, stdout: TextIO) -> None:
        self.stdout = stdout
        self.terminal = stdout.isatty()
        #: The column the next character lands in: after a prompt, not 0.
        self.column = 0

    def width(self) -> int | None:
        """The terminal's width now (it may have been resized); None when not a terminal."""
        if not self.terminal:
            return None
        return max(NARROWEST, shutil.get_terminal_size().columns)

    def write(self, text: str) -> None:
        width = self.width()
        parts = text.split("\n")
        if width is not None:
            parts = ["\n".join(wrapped(part, width, self.column if i == 0 else 0))
                     for i, part in enumerate(parts)]
        said = "\n".join(parts).replace(GLUE, " ")
        self.stdout.write(said)
        last = said.rsplit("\n", 1)
        self.column = columns(last[-1]) + (self.column if len(last) == 1 else 0)

    def typed(self, stdin: TextIO) -> None:
        """A line was read: typed at a terminal, its Enter brought the cursor back to the
        start of a row (read from a pipe, nothing was echoed)."""
        if stdin.isatty():
            self.column = 0
