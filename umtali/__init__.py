"""Umtali: the rules engine. Pure: no I/O, no Discord, no database, no asyncio."""

from umtali.cards import Card
from umtali.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, UmtaliError
from umtali.hand import HandState, Phase
from umtali.melds import PlayKind
from umtali.moves import Move, MoveKind
from umtali.rules import DealStyle, RuleSet
from umtali.session import Deal, Session
from umtali.view import PlayerView

__all__ = [
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
