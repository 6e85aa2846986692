"""Computer opponents by level. Each sees only its seat's ``PlayerView`` and, given the same
seed and the same views, makes the same moves, so a game against it replays.

``LEVELS`` maps a level name to a factory ``(seed) -> Player``.
"""

from __future__ import annotations

from collections.abc import Callable

from umtali.ai.hard import HardPlayer
from umtali.ai.normal import NormalPlayer
from umtali.players import GreedyPlayer, Player


def _easy(seed: int | str) -> Player:
    return GreedyPlayer()


def _normal(seed: int | str) -> Player:
    return NormalPlayer(seed)


def _hard(seed: int | str) -> Player:
    return HardPlayer(seed)


LEVELS: dict[str, Callable[[int | str], Player]] = {
    "easy": _easy,
    "normal": _normal,
    "hard": _hard,
}

__all__ = ["LEVELS", "HardPlayer", "NormalPlayer"]
