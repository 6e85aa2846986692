"""The command line of ``python -m umtali`` (``umtali.cli``), read in the language the command
will speak: its help, argparse's own words and errors, and which language that is (``--lang``,
else the terminal's locale when the bot speaks it, else English)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from umtali.cli_play import LEVELS, QUIT_WORDS
from umtali.i18n import ENGLISH, N_, Tr, language_of, languages, tr_for
from umtali.seeds import seed_value


def terminal_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the terminal's locale: the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set (``ru_RU.UTF-8`` is Russian), when the bot speaks it; else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language_of(environ[name])
    return ENGLISH


def spoken_tr(args: argparse.Namespace) -> Tr:
    """The language the command speaks: ``--lang``, else the terminal's. Every one is read
    without the project's .venv too (``umtali/po.py``): a replay file's command and the deals'
    check run on bare python3 (docs/FAIR_DEALS.md)."""
    return tr_for(args.lang or terminal_language())


def help_tr(argv: Sequence[str]) -> Tr:
    """The language of ``--help``, which argparse writes as it reads the command line, before
    ``--lang`` is known: that of a ``--lang`` it holds, else the terminal's."""
    lang = None
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif word.startswith("--lang="):
            lang = word.removeprefix("--lang=")
    return tr_for(lang if lang in languages() else terminal_language())


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
def argparse_speaks(tr: Tr) -> Iterator[None]:
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


def _add_lang_option(p: argparse.ArgumentParser, tr: Tr, default: Any = None,
                     said: str | None = None) -> None:
    p.add_argument("--lang", choices=languages(), default=default,
                   help=said or tr("the language to speak (default: the terminal's, if spoken, "
                                   "else en)"))


def name_of(tr: Tr) -> Callable[[str], str]:
    """The --name read: never a quit word (fix179's rule, as at the name's question): "quit"
    at the table would read as a player named so, and at a prompt its owner's name stops."""
    def name(text: str) -> str:
        if text.strip().casefold() in QUIT_WORDS:
            raise argparse.ArgumentTypeError(tr(
                "{name} is a word that stops the game, not a name: choose another",
                name=repr(text.strip())))
        return text
    return name


#: The longest seed read: the bot's own (a seed and a typed cut, "SEED/CUT") are under a
#: hundred characters; a longer one is refused without being said back.
SEED_LIMIT = 256


def _seed_text(text: str, tr: Tr) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(tr("the seed is empty: give a number or some text"))
    if len(text) > SEED_LIMIT:
        raise argparse.ArgumentTypeError(tr.plural(
            "the seed is too long: at most {count} character",
            "the seed is too long: at most {count} characters", SEED_LIMIT))
    return text


def seed_of(tr: Tr) -> Callable[[str], int | str]:
    """``--seed`` of play and script: any text (a number is one seed with its digits)."""
    return lambda text: seed_value(_seed_text(text, tr))


def number_seed_of(tr: Tr) -> Callable[[str], int]:
    """``simulate --seed``: a whole number, each session after the first played from the
    next one."""
    def number(text: str) -> int:
        try:
            return int(_seed_text(text, tr))
        except ValueError:
            raise argparse.ArgumentTypeError(tr("the seed of simulate is a whole number, "
                                                "such as 7")) from None
    return number


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


def parsed(argv: list[str] | None, tr: Tr) -> argparse.Namespace:
    """The command line read, its help in ``tr``'s language."""
    parser = _parser(tr, prog="python -m umtali", description=tr("Umtali, two-player rummy."))
    # ``--lang`` before the command too ("--lang ru play"); a command's own leaves unset what
    # it was not given (argparse would else write its default over the one given before).
    _add_lang_option(parser, tr)
    sub = parser.add_subparsers(dest="command", required=True)

    play = _command(sub, "play", tr, help=tr("play in the terminal against the computer"))
    _add_rule_options(play, tr)
    _add_lang_option(play, tr, argparse.SUPPRESS)
    play.add_argument("--seed", type=seed_of(tr), default=None,
                      help=tr("fix the shuffles: any text or number, the same one deals the "
                              "same hands again (default: random)"))
    play.add_argument("--hotseat", action="store_true", help=tr("two people at one keyboard"))
    play.add_argument("--level", choices=sorted(LEVELS), default="normal",
                      help=tr("the computer's level: easy, normal (default) or hard; random "
                              "plays random legal moves"))
    play.add_argument("--name", type=name_of(tr), default=None,
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
    _add_lang_option(script, tr, argparse.SUPPRESS)
    script.add_argument("--seed", type=seed_of(tr), default=0,
                        help=tr("seed of the shuffles, a number or a text (default 0)"))
    script.add_argument("--deal", default=None, metavar="FILE",
                        help=tr("a fixed deal: a JSON file of the first hand's cards (see "
                                "docs/DEAL_FORMAT.md)"))
    script.add_argument(
        "--json", action="store_true", help=tr("print events, state and scores as JSON")
    )

    sim = _command(sub, "simulate", tr, help=tr("self-play statistics"))
    _add_rule_options(sim, tr)
    sim.add_argument("--hands", type=count, default=1000,
                     help=tr("how many hands (default 1000)"))
    sim.add_argument("--seed", type=number_seed_of(tr), default=0,
                     help=tr("the first session's seed, a whole number; each next session's "
                             "is one more (default 0)"))
    sim.add_argument("--players", choices=["random", "greedy"], default="random",
                     help=tr("random (default): both play random legal moves; greedy: both "
                             "play as the easy computer"))
    # Taken as by the other commands (and before the command): the statistics stay English.
    _add_lang_option(sim, tr, argparse.SUPPRESS,
                     tr("the language of this help; the statistics are in English"))

    check = _command(
        sub, "verify", tr, help=tr("check that a session's deals came from its committed seed"),
        description=tr("Check a session's deals file (umtali-N-deals.json): the seed and salt "
                       "must open the commitment posted before the first deal, and every deal "
                       "and stock rebuild must be the one the seed gives. Without options, the "
                       "commitment, seed and salt are read from the file. Exit status: 0 fair, "
                       "1 mismatch, 2 no verdict (bad input, or the verdict could not be "
                       "written)."))
    check.add_argument("replay", metavar="DEALS.json",
                       help=tr("the session's deals file, from the Session files button or "
                               "/umtali history"))
    check.add_argument("--commitment", help=tr("the commitment posted before the first deal "
                                               "(64 hex digits)"))
    check.add_argument("--seed", help=tr("the seed revealed when the session ended"))
    check.add_argument("--salt", help=tr("the salt revealed when the session ended"))
    _add_lang_option(check, tr, argparse.SUPPRESS)

    return parser.parse_args(argv)

