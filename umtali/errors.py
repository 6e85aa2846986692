"""Errors by cause: text that does not parse, and moves the rules forbid."""

from __future__ import annotations


class UmtaliError(Exception):
    """Base of every error the engine raises."""


class InvalidMoveError(UmtaliError, ValueError):
    """The text is not a card or a move in the notation."""


class IllegalMoveError(UmtaliError, ValueError):
    """The move parses, but the rules forbid it in this position."""


class InvalidStateError(UmtaliError, ValueError):
    """A saved state or deal file is malformed or inconsistent."""
