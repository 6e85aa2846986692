"""``python -m umtali play``: a game at the terminal, against the computer or two people at one
keyboard (``--hotseat``), in the language ``umtali.cli`` chose."""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable
from typing import TextIO

from umtali.ai import LEVELS as AI_LEVELS
from umtali.ai.resume import dealt_view, player_seed
from umtali.cli_coach import COACH_HELP, hint_line, review_lines
from umtali.cli_moves import (
    chosen,
    face_up_choice,
    listed,
    move_text,
    needless_up,
    typed_line,
)
from umtali.cli_screen import GLUE, Screen
from umtali.cli_script import rules_of
from umtali.errors import UmtaliError
from umtali.events import Event, HandEnded, HandStarted
from umtali.i18n import N_, Tr, sentence
from umtali.moves import Move
from umtali.plain_names import plain_name
from umtali.players import Player, RandomPlayer
from umtali.rules_words import GAME_PAGES, game_titles, plain_page
from umtali.session import Session
from umtali.text import describe, hand_lines, render_view
from umtali.view import PlayerView

LEVELS: dict[str, Callable[[int | str], Player]] = {
    **AI_LEVELS,
    "random": lambda seed: RandomPlayer(seed),
}

#: The in-game help. The notation's words read in every language; a translation may show the
#: language's own move words instead (``move_words``: Russian), which read too.
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
A Cyrillic letter may stand for the Latin one it looks like (С for C), but a capital
Cyrillic Т is refused: it could be a ten (T) or an ace (the Russian туз); type 10 or A.
Other commands: moves (the list again), table, rules (the rules in short), help,
resign (give up the session), quit or exit (stop here).""")


def play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, tr: Tr) -> int:
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
    screen = Screen(stdout)  # lines wrapped to a terminal's width
    out = screen.write
    # Hotseat, a seed drawn here is said only once play stops: either player could replay it
    # elsewhere and read the other's hand.
    secret = args.hotseat and args.seed is None
    if secret:
        out(tr("Umtali. Type 'help' for the notation.") + "\n")
    else:
        out(tr("Umtali, seed {seed}. Type 'help' for the notation.", seed=seed) + "\n")
    if args.name is None and stdin.isatty():
        named = _asked_names(names, args.hotseat, stdin, screen, tr)
        if named is None:
            out(tr("Bye.") + "\n")
            return 0
        names = named
    pending: list[Event] = list(session.opening)
    #: The seat whose turn goes on after its own move (a draw, a meld): the table is not
    #: shown whole again, only the hand (the move's line says what changed).
    going_on = -1
    try:
        while True:
            seat = session.to_act if args.hotseat else 0
            fresh = pending
            if handover and not session.over and seat != shown_to:
                # Before the events: what the last move tells the next player is for their eyes.
                if not _hand_over(names[seat], stdin, screen, tr):
                    out(tr("Bye.") + "\n")
                    return 0
                shown_to = seat
                pending = [*unseen[seat], *pending]
                unseen[seat] = []
            if handover and not session.over:
                # (Without the handover, one screen for both: each event is said once.)
                unseen[1 - seat] += fresh
            if (pending and isinstance(pending[-1], HandStarted) and not session.over
                    and (computer is None or session.to_act == 0)):
                # The table that follows at once says the hand, and its dealer: said once.
                pending = pending[:-1]
            ended = [e for e in pending if isinstance(e, HandEnded)]
            # A hand's review comes right after its result: before the game's or the session's
            # (the last hand's would else come after "Computer wins the session 2-0."), and
            # before the next hand is announced.
            split = pending.index(ended[0]) + 1 if ended else len(pending)
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
                going_on = -1
                continue
            view = session.view(actor)
            if going_on == actor:
                out(hand_lines(view, names, tr) + "\n")
            else:
                out("\n" + render_view(view, names, tr) + "\n")
            legal = listed(view.legal_moves)
            out(_moves_lines(legal, view, tr))
            while True:
                out(f"{names[actor]}> ")
                stdout.flush()
                typed = typed_line(stdin)
                screen.typed(stdin)
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
                    if _stops(stdin, screen, tr):
                        out(tr("Bye.") + "\n")
                        return 0
                    continue
                if word in HELP_WORDS:
                    out(tr(PLAY_HELP) + "\n" + tr(COACH_HELP) + "\n")
                    continue
                if word in RULES_WORDS:
                    out(_rules(tr))
                    continue
                if word in RESIGN_WORDS:
                    if _resigns(names[1 - actor], stdin, screen, tr):
                        pending = session.resign(actor)
                        break
                    continue
                if word in TABLE_WORDS:
                    out(render_view(view, names, tr) + "\n")
                if word in MOVES_WORDS | TABLE_WORDS:
                    out(_moves_lines(legal, view, tr))
                    continue
                if word in HINT_WORDS:
                    out(hint_line(session, actor, tr) + "\n")
                    continue
                try:
                    move = chosen(text, legal, tr.lang)
                    pending = session.apply(move)
                    if actor == 0:
                        record.append((view, move))
                    if needless_up(text, move, legal, tr.lang):
                        out(tr("(Every discard but a going-out one is laid face up: no need "
                               "to say 'up'.)") + "\n")
                    going_on = actor if session.to_act == actor and not any(
                        isinstance(e, HandEnded) for e in pending) else -1
                    break
                except IndexError:
                    out(tr("There is no move {number}: choose 1 to {count}.", number=text,
                           count=len(legal)) + "\n")
                except UmtaliError as e:
                    # Said alone, as the bot says it (the engine's text suits "line 2: ...").
                    out(sentence(tr(e.text)) + "\n")
                    if e.text.message == NOT_A_MOVE:
                        # Perhaps a newcomer's word for a command: the commands are in help.
                        out(tr("Type 'help' for the commands, 'quit' to stop.") + "\n")
    except (KeyboardInterrupt, EOFError):
        # As quit says it, before a drawn seed; on a line of its own, not after the "^C".
        out("\n" + tr("Bye.") + "\n")
        return 0
    finally:
        if secret:
            out(tr("The seed was {seed}: '--seed {seed}' deals these hands again.", seed=seed)
                + "\n")


#: Clears the screen and the scrollback of a terminal (ANSI; ``3J``: the scrollback).
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"


#: The commands, in English in every language, and in Russian too (a Russian player's
#: "помощь" is no move). What ends the game is read wherever a line is read.
QUIT_WORDS = frozenset({"quit", "exit", "выход", "выйти"})
HELP_WORDS = frozenset({"help", "?", "помощь", "справка"})
RULES_WORDS = frozenset({"rules", "правила"})
RESIGN_WORDS = frozenset({"resign", "сдаться", "сдаюсь"})
MOVES_WORDS = frozenset({"moves", "ходы"})
TABLE_WORDS = frozenset({"table", "стол"})
HINT_WORDS = frozenset({"hint", "подсказка"})
#: The answers that confirm a resignation.
YES_WORDS = frozenset({"yes", "y", "да", "д"})
#: The engine's message for a line that is no move ("'xyzzy' is not a move. Moves: ...").
NOT_A_MOVE = "{text} is not a move. Moves: {moves}"


def _rules(tr: Tr) -> str:
    """The rules in short, as ``/umtali rules`` gives them on Discord, and where they are in
    full."""
    pages = [f"{n}. {title}\n{plain_page(tr(text))}"
             for n, (title, text) in enumerate(zip(game_titles(tr), GAME_PAGES, strict=True), 1)]
    return "\n\n".join([*pages, tr("The rules in full: docs/RULES.md in the project's folder.")]) \
        + "\n"


def _stops(stdin: TextIO, screen: Screen, tr: Tr) -> bool:
    """Whether the player confirms stopping the game here, as a resignation is confirmed (a
    mistyped 'quit' would else end it unasked)."""
    return _confirmed(tr("Stop the game here? Type 'yes' to stop, anything else to play on:"),
                      stdin, screen, tr)


def _resigns(winner: str, stdin: TextIO, screen: Screen, tr: Tr) -> bool:
    """Whether the player to act confirms giving the session up to ``winner``."""
    return _confirmed(tr("Resign the session? {name} wins it. Type 'yes' to resign, anything "
                         "else to play on:", name=winner), stdin, screen, tr)


def _confirmed(question: str, stdin: TextIO, screen: Screen, tr: Tr) -> bool:
    """Whether the player answers ``question`` yes (else play goes on; the end of input ends
    the game, as anywhere)."""
    if _answer(question, stdin, screen).strip().lower() in YES_WORDS:
        return True
    screen.write(tr("Play goes on.") + "\n")
    return False


def _answer(question: str, stdin: TextIO, screen: Screen) -> str:
    """The line typed after ``question`` (the end of input ends the game, as anywhere)."""
    screen.write(question + " ")
    screen.stdout.flush()
    typed = typed_line(stdin)
    screen.typed(stdin)
    if typed is None:
        raise EOFError
    return typed[0]


def _names(chosen: str | None, hotseat: bool, tr: Tr) -> tuple[str, str]:
    """The two seats' names: ``chosen`` for the first, made plain as the bot's names are (no
    line break or escape sequence to forge a line or colour the terminal, at most 32
    characters). Never one name for both: "--name Computer" would read as the computer's
    every move and score twice."""
    name = plain_name(chosen or "") or (tr.ctx("a name at the table", "Player 1") if hotseat
                                       else tr.ctx("a name at the table", "Player"))
    other = (tr.ctx("a name at the table", "Player 2") if hotseat
             else tr.ctx("a name at the table", "Computer"))
    if other.casefold() == name.casefold():
        other = (tr.ctx("a name at the table", "Player 1") if hotseat
                 else tr.ctx("a name at the table", "Opponent"))
    return name, other


def _asked_names(names: tuple[str, str], hotseat: bool, stdin: TextIO, screen: Screen,
                 tr: Tr) -> tuple[str, str] | None:
    """At a terminal, unnamed: the players' names, asked (Enter keeps ``names``): the game's
    lines then tell of a person ("Аня melds..."), not of "Player" in the third person. None:
    a quit typed there, and stopping confirmed (a quit word is never a name: "quit melds")."""
    asked = list(names)
    seat = 0
    while seat < (2 if hotseat else 1):
        question = (tr("Name of the player in seat {seat} (Enter for '{name}'):", seat=seat + 1,
                       name=names[seat]) if hotseat
                    else tr("Your name (Enter for '{name}'):", name=names[seat]))
        typed = _answer(question, stdin, screen)
        if typed.strip().lower() in QUIT_WORDS:
            if _stops(stdin, screen, tr):
                return None
            continue  # asked again
        asked[seat] = plain_name(typed) or names[seat]
        seat += 1
    if hotseat and asked[1].casefold() == asked[0].casefold():
        asked[1] = names[1] if names[1].casefold() != asked[0].casefold() else names[0]
    return asked[0], asked[1] if hotseat else _names(asked[0], False, tr)[1]


def _hand_over(name: str, stdin: TextIO, screen: Screen, tr: Tr) -> bool:
    """Hotseat, as the turn passes: the hand just played is cleared off a terminal, and the
    next player shows theirs only once the other has looked away. False: they typed quit and
    said yes to stopping (asked as at a move: a 'quit' mistyped for Enter ends nothing)."""
    stdout = screen.stdout
    while True:
        if stdout.isatty():
            stdout.write(CLEAR_SCREEN)
        screen.write("\n" + tr("{name} to play: the other player looks away, and {name} "
                               "presses Enter.", name=name) + " ")
        stdout.flush()
        typed = typed_line(stdin)
        screen.typed(stdin)
        if typed is None:
            raise EOFError
        if typed[0].strip().lower() not in QUIT_WORDS:
            return True
        if _stops(stdin, screen, tr):
            return False


def _moves_lines(legal: list[Move], view: PlayerView, tr: Tr) -> str:
    """The numbered moves, and how to lay a last card face up when it may go either way."""
    # Each move glued whole: a narrow terminal's rows break between moves, not inside one.
    shown = ", ".join(f"{i}) {move_text(m, legal, view, tr)}".replace(" ", GLUE)
                      for i, m in enumerate(legal, 1))
    lines = tr("Moves: {moves}", moves=shown) + "\n"
    up = face_up_choice(legal)
    if up is not None:
        # The rules' default, as the bot's: face down unless the player says otherwise.
        lines += tr("Going out: your last card is laid face down; type '{move}' to lay it "
                    "face up.", move=move_text(up, legal, view, tr)) + "\n"
    return lines
