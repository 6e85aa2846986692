"""Umtali: the rules engine. Pure: no I/O, no Discord, no database, no asyncio. (Only at
import, ``umtali.compiled`` reads which of its modules run compiled: first, before any of
them is imported.)"""

import sys

# Before any module of the engine is read: older ones fail on its syntax with a traceback,
# which ``python -m umtali verify`` would end with a mismatch's status. Run as ``-m`` (the
# first argument is "-m" while the package is found), the player is told; imported, it is an
# ImportError. Written for any python3: nothing newer than 3.6 here.
if sys.version_info < (3, 11):  # noqa: UP036
    _NEEDS = "umtali needs Python 3.11 or newer; this is " + sys.version.split()[0] + "."
    if sys.argv[:1] == ["-m"]:
        sys.stderr.write("python -m " + _NEEDS + "\n")
        raise SystemExit(2)
    raise ImportError(_NEEDS)

# Run as ``python -m umtali``, a Ctrl-C while the engine loads waits for the terminal game to
# answer it, as it answers one in play: raised mid-import, it would be a traceback.
if sys.argv[:1] == ["-m"]:
    from umtali.cli_interrupt import hold  # isort: skip

    hold()

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
