"""Umtali: the rules engine. Pure: no I/O, no Discord, no database, no asyncio. (Only at
import, ``umtali.compiled`` reads which of its modules run compiled: first, before any of
them is imported.)"""

# First: it decides whether the modules below run compiled, before any of them is imported.
from umtali.compiled import ENGINE  # isort: skip
from umtali.cards import Card
from umtali.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, UmtaliError
from umtali.hand import HandState, Phase
from umtali.melds import PlayKind
from umtali.moves import Move, MoveKind
from umtali.rules import DealStyle, RuleSet
from umtali.session import Deal, Session
from umtali.view import PlayerView

__all__ = [
    "ENGINE",
    "Card",
    "Deal",
    "DealStyle",
    "HandState",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidStateError",
    "Move",
    "MoveKind",
    "Phase",
    "PlayKind",
    "PlayerView",
    "RuleSet",
    "Session",
    "UmtaliError",
]
