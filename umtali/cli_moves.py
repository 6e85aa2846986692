"""Moves as the terminal game (``umtali.cli``, ``play``) reads and shows them.

The rules let a player going out lay the last card face down, and the bot asks, face down
being its default. The terminal asks nothing but keeps the same default: ``discard KS`` of the
last card lays it face down, ``discard KS up`` face up (``discard KS down`` still reads), as
``/umtali play`` reads a move typed (``moves.typed``). The notation of scripts, replays and the
bot's panels is the engine's: there ``discard KS`` is face up.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Sequence
from typing import TextIO

from umtali.i18n import EN, ENGLISH, Tr
from umtali.moves import Move, MoveKind, going_out, side_chosen, typed
from umtali.text import move_meaning
from umtali.view import PlayerView

#: The longest line read as a move or a command: the longest move is some fifty characters.
#: A longer line is read to its end and refused, not held whole nor echoed back whole.
LINE_LIMIT = 256


def _turned(move: Move) -> Move:
    """The same discard, the other side up."""
    return move._replace(face_down=not move.face_down)


def read_move(text: str, legal: Sequence[Move], language: str) -> Move:
    """The move typed, its cards read in ``language``'s alphabet: a discard of the last card
    lies face down unless 'up' ends it."""
    move, default_side = typed(text, language)
    return side_chosen(move, legal) if default_side else move


def listed(legal: Sequence[Move]) -> list[Move]:
    """The moves as the terminal numbers them: a last card's face-down discard first, as the
    default, then its face-up twin."""
    shown: list[Move] = []
    for move in legal:
        if move.kind is MoveKind.DISCARD and _turned(move) in legal:
            if move.face_down:
                continue  # shown before its twin
            shown.append(_turned(move))
        shown.append(move)
    return shown


def move_text(move: Move, legal: Sequence[Move], view: PlayerView | None = None,
              tr: Tr = EN) -> str:
    """``move`` as the player would type it at the terminal, with suit symbols: given the
    ``view``, in the words of ``tr``'s language, which read back as the move (``move_words``),
    as Discord's suggestions say it."""
    if view is not None and tr.lang != ENGLISH:
        return move_meaning(view, move, tr)
    if going_out(move, legal):
        card = str(move.card)
        return f"discard {card}" if move.face_down else f"discard {card} up"
    return move.text(symbols=True)


def needless_up(text: str, move: Move, legal: Sequence[Move], language: str) -> bool:
    """Whether ``text`` said ``up`` of a discard that goes face up anyway (not a last card)."""
    if move.kind is not MoveKind.DISCARD or going_out(move, legal) or text.isdigit():
        return False
    return not typed(text, language)[1]


def face_up_choice(legal: Sequence[Move]) -> Move | None:
    """The face-up discard of a last card that may lie either way (the prompt says how to type
    it), else None."""
    for move in legal:
        if move.kind is MoveKind.DISCARD and not move.face_down and _turned(move) in legal:
            return move
    return None


def typed_line(stdin: TextIO) -> tuple[str, bool] | None:
    """The next line typed and whether it was too long to be a move (then cut at
    ``LINE_LIMIT``), or None at the end of input."""
    line = stdin.readline(LINE_LIMIT)
    if not line:
        return None
    if len(line) < LINE_LIMIT or line.endswith("\n"):
        return line, False
    while (rest := stdin.readline(LINE_LIMIT)) and not rest.endswith("\n"):
        pass  # the rest of the line, read and dropped
    return line, True


def chosen(text: str, legal: Sequence[Move], language: str = ENGLISH) -> Move:
    """The move typed: its number in the list (``IndexError`` when there is none) or the move
    itself, its cards read in ``language``'s alphabet (``letters``). Only ASCII digits
    are a number: ``str.isdigit`` also holds for ``²``, which ``int`` refuses."""
    if text.isascii() and text.isdigit():
        number = int(text)
        if not 1 <= number <= len(legal):
            raise IndexError(number)
        return legal[number - 1]
    return read_move(text, legal, language)


#: What the game writes on a terminal whose encoding lacks them (Windows-1251, KOI8-R): a suit
#: as the notation types it (``2♠`` is ``2S``), a hidden card, and the texts' few signs (the
#: rules' bullets too).
PLAIN_SIGNS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "🂠": "??", "…": "...", "×": "x",
               "▸": ">", "–": "-", "→": "->", "•": "*", "·": "-"}
_PLAIN = "umtali-plain-signs"


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    # Anything else as its escape, as before (``backslashreplace``).
    return "".join(PLAIN_SIGNS.get(c) or c.encode("ascii", "backslashreplace").decode("ascii")
                   for c in text), error.end


def plain_signs(stdout: TextIO) -> None:
    """Let ``stdout`` write what its encoding lacks as ``PLAIN_SIGNS`` says: for the game's
    output only (``verify`` shows a typed cut as it is, escaped)."""
    if isinstance(stdout, io.TextIOWrapper):
        codecs.register_error(_PLAIN, _plain)
        stdout.reconfigure(errors=_PLAIN)
