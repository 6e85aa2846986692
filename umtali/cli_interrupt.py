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


#: The interpreter's one-letter options taking a value (``Python/getopt.c``): the rest of
#: the word, or else the next word. The others are flags, and combine in one word (``-Bm``).
_VALUED = "cmWX"
#: Its long options taking a value: the next word.
_LONG_VALUED = ("--check-hash-based-pycs",)


def run_as_umtali(orig_argv: list[str] | None = None) -> bool:
    """Whether this interpreter was started as ``python -m umtali`` (``sys.orig_argv``), read
    as the interpreter reads its options: ``-m`` and ``-c`` end them, as does the first word
    not an option (a script), ``-`` (standard input) and ``--`` (a script follows)."""
    argv = iter((sys.orig_argv if orig_argv is None else orig_argv)[1:])
    for word in argv:
        if word in ("-", "--") or not word.startswith("-"):
            return False  # a script or standard input: what follows is theirs
        if word.startswith("--"):
            if word in _LONG_VALUED:
                next(argv, None)
            continue
        for at, letter in enumerate(word[1:], 2):
            if letter in _VALUED:
                value = word[at:] or next(argv, None)
                if letter in "cm":
                    return letter == "m" and value == "umtali"
                break  # -W's or -X's value, not more flags
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
