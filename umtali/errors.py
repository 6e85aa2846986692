"""Errors by cause: text that does not parse, and moves the rules forbid."""

from __future__ import annotations

from typing import Any

from umtali.i18n import Text


class UmtaliError(Exception):
    """Base of every error the engine raises. ``text`` is its message for a player, put into
    their words where it is shown (``str(error)`` is the English)."""

    def __init__(self, message: str | Text = "", /, **params: Any) -> None:
        self.text = message if isinstance(message, Text) else Text(message, params)
        super().__init__(str(self.text))


class InvalidMoveError(UmtaliError, ValueError):
    """The text is not a card or a move in the notation."""


class IllegalMoveError(UmtaliError, ValueError):
    """The move parses, but the rules forbid it in this position."""


class InvalidStateError(UmtaliError, ValueError):
    """A saved state, deals file or fixed deal is malformed or inconsistent."""
