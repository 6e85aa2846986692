"""Ctrl-C while ``python -m umtali`` is still loading (the engine, the terminal game, a
language's catalogue: a fraction of a second) is held, not raised: raised part-way through an
import it could only end as a traceback. ``release`` raises it once the game can answer it as
it answers one in play (``umtali.cli.main``: "Bye.", or ``verify``'s status for SIGINT).

Only for ``python -m umtali`` itself: imported by the package as it starts (``umtali/__init__``)
before any of the engine, so standard library alone here. ``python -m umtali.other`` and the
bot, which import the package too, keep Python's own Ctrl-C."""

from __future__ import annotations

import signal
import sys
from types import FrameType

#: The Ctrl-Cs pressed while held.
_pressed: list[int] = []


def _held(signum: int, frame: FrameType | None) -> None:
    _pressed.append(signum)


def run_as_umtali(orig_argv: list[str] | None = None) -> bool:
    """Whether this interpreter was started as ``python -m umtali`` (``sys.orig_argv``)."""
    argv = iter((sys.orig_argv if orig_argv is None else orig_argv)[1:])
    for word in argv:
        if word in ("-X", "-W"):
            next(argv, None)  # the option's value
        elif word.startswith("-m"):
            return (word[2:] or next(argv, None)) == "umtali"
        elif word == "-" or not word.startswith("-") or word.startswith("-c"):
            return False  # a script, standard input or -c: what follows is theirs
    return False


def hold() -> None:
    """Started as ``python -m umtali``: hold a Ctrl-C until ``release``."""
    if run_as_umtali() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _held)


def release() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` again; one held is raised now. Nothing held (the
    tests call ``main`` in their own process): nothing changes."""
    if signal.getsignal(signal.SIGINT) is not _held:
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if _pressed:
        _pressed.clear()
        raise KeyboardInterrupt
