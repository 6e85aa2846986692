"""``python -m umtali``: play in the terminal, replay a script of moves, simulate self-play, or
verify that a session's deals came from its committed seed (``umtali.cli_verify``); ``script``
and ``simulate`` are in ``umtali.cli_script``.

The ``cli`` modules are the only places in the package that read input and write output; the
engine itself never does. ``play``, ``script`` and ``verify`` speak the language of ``--lang``,
else of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, then ``LANG``) when the bot speaks
it, else English. ``simulate`` is a developer's statistics and stays in English.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from umtali.ai import LEVELS as AI_LEVELS
from umtali.ai.resume import dealt_view, player_seed
from umtali.cli_coach import COACH_HELP, hint_line, review_lines
from umtali.cli_moves import (
    chosen,
    face_up_choice,
    listed,
    move_text,
    plain_signs,
    typed_line,
)
from umtali.cli_script import rules_of, run_script, run_simulate
from umtali.cli_verify import run_verify
from umtali.errors import UmtaliError
from umtali.events import Event, HandEnded, HandStarted
from umtali.i18n import EN, ENGLISH, N_, Tr, language_of, languages, sentence, tr_for
from umtali.moves import Move
from umtali.players import Player, RandomPlayer
from umtali.seeds import seed_value
from umtali.session import Session
from umtali.text import describe, render_view
from umtali.view import PlayerView

LEVELS: dict[str, Callable[[int | str], Player]] = {
    **AI_LEVELS,
    "random": lambda seed: RandomPlayer(seed),
}

#: The in-game help. The moves and commands are typed as they are in every language.
PLAY_HELP = N_("""\
Type a move, or the number of a move from the list.
  draw               draw the top card of the stock
  take               take the top card of the discard pile
  take 2             take the top two (only if you meld both this turn)
  meld 8D 9D 10D     lay a new meld: sequence, group, marriage (K Q), a lone jack,
                     or a pair as your last meld when going out
  extend 7D 8D       lay 7D on the meld that holds 8D
  discard KS         end your turn; going out, your last card is laid face down:
                     'discard KS up' lays it face up
Cards: rank A 2-10 (or T) J Q K, suit S H D C or ♠ ♥ ♦ ♣, either order, any case.
Other commands: moves, table, help, quit.""")


#: Why a language other than English cannot be spoken; said in English, the one language read
#: without Babel.
NO_BABEL = ("needs the project's .venv, which the first 'make play' creates; then "
            "'.venv/bin/python -m umtali ...'")


def terminal_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the terminal's locale: the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set (``ru_RU.UTF-8`` is Russian), when the bot speaks it; else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language_of(environ[name])
    return ENGLISH


def _tr(args: argparse.Namespace) -> Tr:
    """The language to speak. Any but English is read with Babel, which only the project's
    .venv has: a terminal's own language falls back to English without it (the English check
    needs nothing installed, docs/FAIR_DEALS.md), and ``--lang`` asked for is ``ImportError``."""
    try:
        return tr_for(args.lang or terminal_language())
    except ImportError:
        if args.lang is not None:
            raise
        print(f"(In English: the terminal's language {NO_BABEL}.)", file=sys.stderr)
        return EN


def help_tr(argv: Sequence[str]) -> Tr:
    """The language of ``--help``, which argparse writes as it reads the command line, before
    ``--lang`` is known: that of a ``--lang`` it holds, else the terminal's; English without
    Babel (``_tr`` says why, when the command runs)."""
    lang = None
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif word.startswith("--lang="):
            lang = word.removeprefix("--lang=")
    try:
        return tr_for(lang if lang in languages() else terminal_language())
    except ImportError:
        return EN


#: argparse's own messages that our command lines can bring (read wrong), named here for the
#: catalogue: argparse says them through ``gettext`` (its module's ``_``), ``%``-formatted after.
ARGPARSE_WORDS = (
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("ignored explicit argument %r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


@contextmanager
def _argparse_speaks(tr: Tr) -> Iterator[None]:
    """argparse's own messages (its errors: "error: argument --level: invalid choice...")
    in ``tr``'s language while the command line is read; its ``gettext`` again after. A
    message with no translation stays argparse's English (another Python's new ones)."""
    said = argparse._  # type: ignore[attr-defined]
    argparse._ = lambda message: message if message is None else tr(message)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = said  # type: ignore[attr-defined]


class _Words(argparse.HelpFormatter):
    """argparse's own words in ``tr``'s language: its "usage: " before the command line."""

    def __init__(self, prog: str, tr: Tr) -> None:
        super().__init__(prog)
        self.tr = tr

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup],
                  prefix: str | None = None) -> None:
        tr = self.tr
        super().add_usage(usage, actions, groups, tr("usage: ") if prefix is None else prefix)


def _parser(tr: Tr, **options: Any) -> argparse.ArgumentParser:
    """A parser whose help speaks ``tr``'s language: argparse's headings and its own -h."""
    parser = argparse.ArgumentParser(
        formatter_class=lambda prog: _Words(prog, tr), add_help=False, **options)
    _words(parser, tr)
    return parser


def _words(parser: argparse.ArgumentParser, tr: Tr) -> None:
    parser._positionals.title = tr("positional arguments")
    parser._optionals.title = tr("options")
    parser.add_argument("-h", "--help", action="help", help=tr("show this help message and exit"))


def _command(sub: Any, name: str, tr: Tr, **options: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name, formatter_class=lambda prog: _Words(prog, tr), add_help=False, **options)
    _words(parser, tr)
    return parser


def _add_lang_option(p: argparse.ArgumentParser, tr: Tr) -> None:
    p.add_argument("--lang", choices=languages(), default=None,
                   help=tr("the language to speak (default: the terminal's, if spoken, else en)"))


def count(text: str) -> int:
    """``simulate --hands``: a count of at least one (the statistics divide by it)."""
    count = int(text)
    if count < 1:
        raise argparse.ArgumentTypeError("at least 1 hand")
    return count


def _add_rule_options(p: argparse.ArgumentParser, tr: Tr) -> None:
    p.add_argument("--variant", choices=["english", "russian"], default="english",
                   help=tr("english (default): 11-card deal; russian: upcard deal, low card "
                           "deals"))
    p.add_argument("--optional-melding", action="store_true",
                   help=tr("house rule: melding is not compulsory"))


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    # The help, and argparse's errors, in the language the command will speak.
    tr = help_tr(sys.argv[1:] if argv is None else argv)
    with _argparse_speaks(tr):
        args = _parsed(argv, tr)
    try:
        tr = EN if args.command == "simulate" else _tr(args)
    except ImportError:
        # Bad input, not a verdict: status 1 would say the deals do not match.
        print(f"--lang {args.lang} {NO_BABEL}.", file=sys.stderr)
        return 2
    if args.command in ("play", "script"):
        plain_signs(stdout)
    try:
        if args.command == "play":
            return _play(args, stdin, stdout, tr)
        if args.command == "script":
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


def _parsed(argv: list[str] | None, tr: Tr) -> argparse.Namespace:
    """The command line read, its help in ``tr``'s language."""
    parser = _parser(tr, prog="python -m umtali", description=tr("Umtali, two-player rummy."))
    sub = parser.add_subparsers(dest="command", required=True)

    play = _command(sub, "play", tr, help=tr("play in the terminal against the computer"))
    _add_rule_options(play, tr)
    _add_lang_option(play, tr)
    play.add_argument("--seed", type=seed_value, default=None,
                      help=tr("fix the shuffles (default: random)"))
    play.add_argument("--hotseat", action="store_true", help=tr("two people at one keyboard"))
    play.add_argument("--level", choices=sorted(LEVELS), default="normal",
                      help=tr("the computer's level: easy, normal (default) or hard; random "
                              "plays random legal moves"))
    play.add_argument("--name", default=None,
                      help=tr("your name at the table (default: Player; with --hotseat, the "
                              "first player's, default Player 1)"))
    play.add_argument("--handover", action=argparse.BooleanOptionalAction, default=None,
                      help=tr("with --hotseat, between turns: clear the screen and wait for the "
                              "next player to press Enter, so that neither sees the other's "
                              "hand (default: when typing at a terminal)"))
    play.add_argument("--review", action=argparse.BooleanOptionalAction, default=None,
                      help=tr("after each hand against the computer, the coach's review of "
                              "your moves (some seconds of thinking; default: when typing at a "
                              "terminal)"))

    script = _command(sub, "script", tr, help=tr("apply moves read from standard input"))
    _add_rule_options(script, tr)
    _add_lang_option(script, tr)
    script.add_argument("--seed", type=seed_value, default=0,
                        help=tr("seed of the shuffles, a number or a text (default 0)"))
    script.add_argument("--deal", default=None, metavar="FILE",
                        help=tr("a JSON deal file fixing the first hand (see "
                                "docs/DEAL_FORMAT.md)"))
    script.add_argument(
        "--json", action="store_true", help=tr("print events, state and scores as JSON")
    )

    sim = _command(sub, "simulate", tr, help=tr("self-play statistics"))
    _add_rule_options(sim, tr)
    sim.add_argument("--hands", type=count, default=1000,
                     help=tr("how many hands (default 1000)"))
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", choices=["random", "greedy"], default="random")

    check = _command(
        sub, "verify", tr, help=tr("check that a session's deals came from its committed seed"),
        description=tr("Check a replay file: the seed and salt must open the commitment posted "
                       "before the first deal, and every deal and stock rebuild must be the "
                       "one the seed gives. Without options, the commitment, seed and salt are "
                       "read from the file. Exit status: 0 fair, 1 mismatch, 2 bad input."))
    check.add_argument("replay", metavar="REPLAY.json", help=tr("the session's replay file"))
    check.add_argument("--commitment", help=tr("the commitment posted before the first deal "
                                               "(64 hex digits)"))
    check.add_argument("--seed", help=tr("the seed revealed when the session ended"))
    check.add_argument("--salt", help=tr("the salt revealed when the session ended"))
    _add_lang_option(check, tr)

    return parser.parse_args(argv)


def _play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, tr: Tr) -> int:
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    session = Session(rules_of(args), seed)
    # Two people at one terminal are numbered alike ("Player" beside "Player 2" read as if
    # "Games: Player 2, Player 2 1" were one player's twice).
    names = _names(args.name, args.hotseat, tr)
    # As the bot's: the computer's own seed is one-way from the session's, which would tell
    # it every card it does not see.
    computer = None if args.hotseat else LEVELS[args.level](player_seed(session, 1))
    reviews = computer is not None and (stdin.isatty() if args.review is None else args.review)
    handover = args.hotseat and (stdin.isatty() if args.handover is None else args.handover)
    shown_to = -1  # hotseat: the seat whose hand is on the screen
    # Hotseat with the handover: what each seat has not seen of the other's turns (its draw or
    # take, its melds, a hand's result), told it as it may see them once it has the keyboard.
    unseen: list[list[Event]] = [[], []]
    #: The views the player acted on in the hand in play, with their moves (for its review).
    record: list[tuple[PlayerView, Move]] = []
    out = stdout.write
    # Hotseat, a seed drawn here is said only once play stops: either player could replay it
    # elsewhere and read the other's hand.
    secret = args.hotseat and args.seed is None
    if secret:
        out(tr("Umtali. Type 'help' for the notation.") + "\n")
    else:
        out(tr("Umtali, seed {seed}. Type 'help' for the notation.", seed=seed) + "\n")
    pending: list[Event] = list(session.opening)
    try:
        while True:
            seat = session.to_act if args.hotseat else 0
            fresh = pending
            if handover and not session.over and seat != shown_to:
                # Before the events: what the last move tells the next player is for their eyes.
                if not _hand_over(names[seat], stdin, stdout, tr):
                    out(tr("Bye.") + "\n")
                    return 0
                shown_to = seat
                pending = [*unseen[seat], *pending]
                unseen[seat] = []
            if handover and not session.over:
                # (Without the handover, one screen for both: each event is said once.)
                unseen[1 - seat] += fresh
            ended = [e for e in pending if isinstance(e, HandEnded)]
            # A hand's review comes before the next hand is announced: it is of the hand ended.
            end = pending.index(ended[0]) if ended else len(pending)
            split = next((i for i in range(end, len(pending))
                          if isinstance(pending[i], HandStarted)), len(pending))
            for e in pending[:split]:
                out(describe(e.for_seat(seat), names, tr) + "\n")
            pending = pending[split:]
            if ended and reviews and record:
                out(tr("The coach reviews the hand…") + "\n")
                stdout.flush()
                where = (ended[0].game, ended[0].hand)
                lines = review_lines(record, *where, player_seed(session, 0), tr,
                                     dealt=dealt_view(session, 0, where))
                out("\n".join(lines) + "\n")
            for e in pending:
                out(describe(e.for_seat(seat), names, tr) + "\n")
            pending = []
            if ended:
                record = []
            if session.over:
                return 0
            actor = session.to_act
            if computer is not None and actor == 1:
                pending = session.apply(computer.choose(session.view(1)))
                continue
            view = session.view(actor)
            out("\n" + render_view(view, names, tr) + "\n")
            legal = listed(view.legal_moves)
            out(_moves_lines(legal, tr))
            while True:
                out(f"{names[actor]}> ")
                stdout.flush()
                typed = typed_line(stdin)
                if typed is None:
                    raise EOFError
                text = typed[0].strip()
                if typed[1]:
                    out(tr("That line is too long to be a move: a move is a few words, like "
                           "'meld 8D 9D 10D'.") + "\n")
                    continue
                if not text:
                    continue
                word = text.lower()
                if word in QUIT_WORDS:
                    out(tr("Bye.") + "\n")
                    return 0
                if word in ("help", "?"):
                    out(tr(PLAY_HELP) + "\n" + tr(COACH_HELP) + "\n")
                    continue
                if word == "table":
                    out(render_view(view, names, tr) + "\n")
                if word in ("moves", "table"):
                    out(_moves_lines(legal, tr))
                    continue
                if word == "hint":
                    out(hint_line(session, actor, tr) + "\n")
                    continue
                try:
                    move = chosen(text, legal)
                    pending = session.apply(move)
                    if actor == 0:
                        record.append((view, move))
                    break
                except IndexError:
                    out(tr("There is no move {number}: choose 1 to {count}.", number=text,
                           count=len(legal)) + "\n")
                except UmtaliError as e:
                    # Said alone, as the bot says it (the engine's text suits "line 2: ...").
                    out(sentence(tr(e.text)) + "\n")
    finally:
        if secret:
            out(tr("The seed was {seed}: '--seed {seed}' deals these hands again.", seed=seed)
                + "\n")


#: Clears the screen and the scrollback of a terminal (ANSI; ``3J``: the scrollback).
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"


#: What ends the game wherever a line is read.
QUIT_WORDS = frozenset({"quit", "exit"})


def _names(chosen: str | None, hotseat: bool, tr: Tr) -> tuple[str, str]:
    """The two seats' names: ``chosen`` (stripped) for the first. Never one name for both:
    "--name Computer" would read as the computer's every move and score twice."""
    name = (chosen or "").strip() or (tr.ctx("a name at the table", "Player 1") if hotseat
                                       else tr.ctx("a name at the table", "Player"))
    other = (tr.ctx("a name at the table", "Player 2") if hotseat
             else tr.ctx("a name at the table", "Computer"))
    if other.casefold() == name.casefold():
        other = (tr.ctx("a name at the table", "Player 1") if hotseat
                 else tr.ctx("a name at the table", "Opponent"))
    return name, other


def _hand_over(name: str, stdin: TextIO, stdout: TextIO, tr: Tr) -> bool:
    """Hotseat, as the turn passes: the hand just played is cleared off a terminal, and the
    next player shows theirs only once the other has looked away. False: they typed quit."""
    if stdout.isatty():
        stdout.write(CLEAR_SCREEN)
    stdout.write("\n" + tr("{name} to play: the other player looks away, and {name} presses "
                           "Enter.", name=name) + " ")
    stdout.flush()
    typed = typed_line(stdin)
    if typed is None:
        raise EOFError
    return typed[0].strip().lower() not in QUIT_WORDS


def _moves_lines(legal: list[Move], tr: Tr) -> str:
    """The numbered moves, and how to lay a last card face up when it may go either way."""
    shown = ", ".join(f"{i}) {move_text(m, legal)}" for i, m in enumerate(legal, 1))
    lines = tr("Moves: {moves}", moves=shown) + "\n"
    up = face_up_choice(legal)
    if up is not None:
        # The rules' default, as the bot's: face down unless the player says otherwise.
        lines += tr("Going out: your last card is laid face down; type '{move}' to lay it "
                    "face up.", move=move_text(up, legal)) + "\n"
    return lines
