"""``python -m umtali``: play in the terminal, replay a script of moves, simulate self-play, or
verify that a session's deals came from its committed seed (``umtali.cli_verify``); the command
line is read in ``umtali.cli_args``, the game played in ``umtali.cli_play``, ``script`` and
``simulate`` are in ``umtali.cli_script``.

The ``cli`` modules are the only places in the package that read input and write output; the
engine itself never does. ``play``, ``script`` and ``verify`` speak the language of ``--lang``,
else of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, then ``LANG``) when the bot speaks
it, else English. ``simulate`` is a developer's statistics and stays in English.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TextIO

from umtali.cli_args import argparse_speaks, help_tr, parsed, spoken_tr, terminal_language
from umtali.cli_interrupt import release
from umtali.cli_moves import plain_signs
from umtali.cli_play import CLEAR_SCREEN, LEVELS, play
from umtali.cli_script import run_script, run_simulate
from umtali.cli_verify import run_verify
from umtali.i18n import EN, Tr

#: What the tests and the tools import from here; the parts live in ``cli_args`` (the command
#: line) and ``cli_play`` (the game).
__all__ = ["CLEAR_SCREEN", "LEVELS", "main", "terminal_language"]


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    # None when the shell closed them (``<&-``, ``>&-``): said below, once the language is known.
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    # The help, and argparse's errors, in the language the command will speak.
    tr = help_tr(sys.argv[1:] if argv is None else argv)
    with argparse_speaks(tr):
        args = parsed(argv, tr)
    tr = EN if args.command == "simulate" else spoken_tr(args)
    # No stream to play on: status 2, verify's "no verdict", for every command.
    if stdin is None and args.command in ("play", "script"):
        _say(tr("standard input is closed: '{command}' reads the moves there.",
                command=args.command))
        return 2
    if stdout is None:
        _say(tr("standard output is closed: '{command}' writes there.", command=args.command))
        return 2
    if args.command in ("play", "script"):
        plain_signs(stdout)
    try:
        status = _run(args, stdin, stdout, tr)
        stdout.flush()
        return status
    except BrokenPipeError:
        raise  # the reader went away: ``umtali.__main__`` ends as SIGPIPE would
    except OSError as e:
        # A full disk (``> /dev/full``), a terminal gone: no verdict was written.
        _say(tr("cannot write to standard output: {error}.", error=e.strerror or e))
        _drop(stdout)
        return 2


def _run(args: argparse.Namespace, stdin: TextIO | None, stdout: TextIO, tr: Tr) -> int:
    try:
        release()  # a Ctrl-C pressed while the game loaded, answered as one in play
        if args.command == "play":
            assert stdin is not None
            return play(args, stdin, stdout, tr)
        if args.command == "script":
            assert stdin is not None
            return run_script(args, stdin, stdout, tr)
        if args.command == "verify":
            return run_verify(args, stdout, tr)
        return run_simulate(args, stdout)
    except (KeyboardInterrupt, EOFError):
        if args.command == "verify":
            # No verdict: 0 would say FAIR to ``verify FILE && ...``; a shell's status for SIGINT.
            return 128 + 2
        print("\n" + tr("Bye."), file=stdout)
        return 0


def _say(line: str) -> None:
    """``line`` on stderr, if there is one (``2>&-`` closes it: then nothing is said)."""
    if sys.stderr is not None:
        print(line, file=sys.stderr)


def _drop(stdout: TextIO) -> None:
    """What ``stdout`` still holds is dropped, not written again as Python exits (it would
    fail again, as "Exception ignored")."""
    # Not a file (a test's StringIO): nothing is flushed at exit.
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
