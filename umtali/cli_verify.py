"""``python -m umtali verify``: check a deals file against its commitment, and say the verdict
in the reader's language. ``umtali.fairness`` finds the first mismatch; this puts it into words.
"""

from __future__ import annotations

import argparse
import errno
import json
import sys
from dataclasses import replace
from typing import TextIO

from umtali.cli_screen import Screen
from umtali.errors import UmtaliError
from umtali.fairness import GIVEN_UP, NO_RESULT, Check, Mismatch, Verdict, verify
from umtali.i18n import Text, Tr
from umtali.replay import ReplayFile
from umtali.replay import from_json as replay_from_json
from umtali.seeds import clicked, cut_time


def said(tr: Tr, error: Exception) -> str:
    """An error in ``tr``'s words: the engine's own message, else Python's (a file not found)."""
    return tr(error.text) if isinstance(error, UmtaliError) else str(error)


def unread(tr: Tr, path: str, error: Exception) -> str:
    """Why the file could not be read, in ``tr``'s words where Python's would be its own
    ("'utf-8' codec can't decode byte 0x89", "[Errno 2] ..."); one line, printable."""
    name = plain(repr(path))
    if isinstance(error, UnicodeDecodeError):
        return tr("it is not text: a deals file is JSON text in UTF-8, as the bot sends it")
    if isinstance(error, (FileNotFoundError, NotADirectoryError)):
        # NotADirectoryError: a part of the path is a file, so nothing is under it.
        return tr("there is no file {path}", path=name)
    if isinstance(error, IsADirectoryError):
        return tr("{path} is a folder, not a file", path=name)
    if isinstance(error, PermissionError):
        return tr("you may not read {path}", path=name)
    if isinstance(error, OSError) and error.errno == errno.ENAMETOOLONG:
        return tr("the file name is too long: {path}", path=name)
    if isinstance(error, OSError):
        # Any other (a symbolic link loop, a device error): Python's words are English only.
        return tr("cannot open {path}", path=name)
    if isinstance(error, json.JSONDecodeError) and not error.doc.strip():
        return tr("the file is empty")
    if isinstance(error, json.JSONDecodeError) and error.doc.lstrip().startswith("#"):
        # The replay file, which comes with it and opens with "# Umtali session #42".
        return tr("this looks like the replay file (the moves); verify reads the deals file, "
                  "umtali-N-deals.json")
    if isinstance(error, json.JSONDecodeError):
        return tr("it is not JSON: the first mistake is on line {line}, column {column}",
                  line=error.lineno, column=error.colno)
    if isinstance(error, RecursionError):
        return tr("it is nested too deep for a deals file")
    if isinstance(error, ValueError) and not isinstance(error, UmtaliError):
        # The rest of json.load's: a number past Python's 4,300 digits (the deals file's own
        # checks are UmtaliErrors).
        return tr("it holds a number too long for a deals file")
    return plain(said(tr, error))


def run_verify(args: argparse.Namespace, stdout: TextIO, tr: Tr) -> int:
    """Exit status: 0 fair, 1 a mismatch, 2 no verdict (the file unread, a value missing)."""
    try:
        # utf-8-sig: a file saved as Notepad's "UTF-8 with BOM" is the same JSON.
        with open(args.replay, encoding="utf-8-sig") as f:
            replay = replay_from_json(json.load(f))
    # ValueError: besides bad JSON, a number past Python's 4,300 digits; RecursionError:
    # arrays nested thousands deep. A hostile file is bad input, not a traceback.
    except (OSError, ValueError, RecursionError, UmtaliError) as e:
        print(tr("cannot read the deals file: {error}", error=unread(tr, args.replay, e)),
              file=sys.stderr)
        return 2
    reveal = replay.reveal
    commitment = args.commitment or replay.commitment
    seed = args.seed if args.seed is not None else reveal.seed if reveal else None
    salt = args.salt if args.salt is not None else reveal.salt if reveal else None
    missing = [name for name, value in
               (("--commitment", commitment), ("--seed", seed), ("--salt", salt))
               if value is None]
    if commitment is None or seed is None or salt is None:
        print(tr("the deals file does not hold them: give {options}",
                 options=", ".join(missing)), file=sys.stderr)
        return 2
    try:
        verdict = verify(commitment, seed, salt, replay)
    except ValueError as e:
        print(tr("cannot verify: {error}", error=plain(said(tr, e))), file=sys.stderr)
        return 2
    screen = Screen(stdout)  # wrapped to a terminal's width
    for line in verdict_lines(verdict, replay, seed, salt, args.commitment is None, tr):
        screen.write(line + "\n")
    return 0 if verdict.fair else 1


def verdict_lines(v: Verdict, replay: ReplayFile, seed: object, salt: str, from_file: bool,
                  tr: Tr) -> list[str]:
    lines = [tr("Commitment: {commitment}", commitment=v.commitment)]
    if from_file:
        lines.append("  " + tr("(read from the file: check it is the one the bot posted before "
                               "the first deal)"))
    # The cut came after the commitment: the cards come from the seed and the cut together.
    cut: list[str] = []
    by_click = replay.cut is not None and clicked(replay.cut)
    if replay.cut is not None and by_click:
        played = f"{seed}/{replay.cut}"  # not within tr(): Babel cannot extract an f-string
        cut.append(tr("The deck was cut at {cut} (a player's click): the cards come from "
                      "{played}.", cut=replay.cut, played=played))
    if replay.cut is not None and by_click and (when := cut_time(replay.cut)) is not None:
        # The one part of the cut a player can hold against what they saw (docs/FAIR_DEALS.md).
        cut.append("  " + tr("(a Discord id: it says the click was made at {when} UTC; check "
                             "that is when the deck was cut)", when=when))
    if replay.cut is not None and not by_click:
        # Typed by the player who cut: theirs to recognise, and no id, so no time to check.
        cut.append(tr("The deck was cut with the text a player typed, {cut}: the cards come "
                      "from {played}.", cut=plain(repr(replay.cut)),
                      played=plain(f"{seed}/{replay.cut}")))
        cut.append("  " + tr("(check it is what you typed, and what the bot posted when the "
                             "deck was cut)"))
        if not replay.cut.isascii():
            # A letter that only looks like one typed (a Cyrillic "о" for a Latin "o") would
            # give a bot changed to cheat a choice of cuts: written in ASCII, it shows.
            cut.append("  " + tr("(in ASCII: {escaped}; each \\u escape is a character other "
                                 "than a Latin letter, digit or sign: check each is one you "
                                 "typed)", escaped=ascii(replay.cut)))
    if replay.cut is None:
        # A version 1 file, from before players cut: said, so that a cut a player made and a
        # file that leaves it out cannot pass unnoticed.
        cut.append(tr("The deck was not cut: the cards come from the seed alone (a file from "
                      "before players cut the deck; if you cut this session's deck, this file "
                      "is not the session you played)."))
    # The seats are the file's word: swapped, the cards still verify (each seat's its own),
    # so the player holds them against the challenge's (docs/FAIR_DEALS.md, step 4).
    # Worded as the challenge words them, to be read side by side; a file from before players
    # cut had no seats announced, so none to check against.
    first, second = plain(replay.players[0]), plain(replay.players[1])
    if replay.cut is None:
        cut.append(tr("Seats: {first} seat 0 (draws first for dealer), {second} seat 1.",
                      first=first, second=second))
    else:
        cut.append(tr("Seats: {first} seat 0 (draws first for dealer), {second} seat 1: check "
                      "they match the seats announced before the deck was cut.",
                      first=first, second=second))
    if v.mismatch is None:
        unfinished = [] if replay.result is None or replay.result.how not in NO_RESULT else [
            # Stopped part-way: fair all the same, as far as the hands went.
            tr("The match ended with no result ({how}): nobody won it, and its last hand "
               "stops where play stopped.", how=_how(tr, replay.result.how))]
        if replay.result is not None and replay.result.how in GIVEN_UP:
            # The winner of a match given up is the file's alone: the moves say nobody gave up.
            loser = 1 - replay.result.winner
            unfinished.append(tr(
                "The match ended early ({how}): the file has {name} (seat {seat}) giving it "
                "up. The moves cannot show who gave up: that is the file's word, so check it "
                "is how your match ended.", how=_how(tr, replay.result.how),
                name=plain(replay.players[loser]), seat=loser))
        return [
            *lines,
            tr("Seed {seed} and salt {salt} open it.", seed=seed, salt=salt),
            *cut,
            _dealt_line(v, tr),
            *unfinished,
            tr("FAIR: the cards came from the seed committed to before play."),
        ]
    cards = v.mismatch.check in (Check.COMMITMENT, Check.FIXED_DEAL, Check.DEALER_DRAW,
                                 Check.DEAL, Check.REBUILD)
    last = (tr("NOT VERIFIED: these cards did not come from the committed seed.") if cards
            else tr("NOT VERIFIED: the file's moves do not lead to what it records."))
    return [*lines, *cut, *mismatch_lines(v.mismatch, replay.players, tr), last]


def _dealt_line(v: Verdict, tr: Tr) -> str:
    """What the seed was found to give; stock rebuilds named only when there were any."""
    deals = Text.plural("{count} deal", "{count} deals", v.deals)
    if not v.rebuilds:
        return tr("The draw for first dealer and {deals} are the ones this seed gives; the "
                  "moves are legal and lead to the recorded scores and result.", deals=deals)
    return tr("The draw for first dealer, {deals} and {rebuilds} are the ones this seed "
              "gives; the moves are legal and lead to the recorded scores and result.",
              deals=deals, rebuilds=Text.plural("{count} stock rebuild",
                                                "{count} stock rebuilds", v.rebuilds))


def plain(text: str) -> str:
    """Text from the file as it is shown: a character that is not printable (an escape
    sequence, a line break, a bidi control) written as its Python escape, so that a file
    cannot redraw the terminal over its verdict (erase it, conceal it, print FAIR instead)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def mismatch_lines(m: Mismatch, players: tuple[str, str], tr: Tr) -> list[str]:
    """Where the file and the seed first disagree, and how."""
    # What the file records (a move, a name, how the session ended) is the file's to write.
    m = replace(m, recorded=tuple(map(plain, m.recorded)))
    players = (plain(players[0]), plain(players[1]))
    rec, exp = " ".join(m.recorded), " ".join(m.expected)
    if m.check is Check.COMMITMENT:
        if m.part == "file":
            return [tr("The file names another commitment: {commitment}.", commitment=rec)]
        return [tr("The seed and salt do not open it: they give {commitment}.", commitment=exp)]
    if m.check is Check.FIXED_DEAL:
        return [tr("The first hand was a fixed deal, not shuffled from the seed.")]
    if m.check is Check.DEALER_DRAW and m.part == "dealer":
        # Seats, not cards: the draws matched, the first dealer named does not.
        return [tr("The draw for first dealer is not the one the seed gives."),
                "  " + tr("the file has seat {recorded} dealing first, the seed gives seat "
                          "{expected}", recorded=rec, expected=exp)]
    if m.check is Check.DEALER_DRAW:
        return [tr("The draw for first dealer is not the one the seed gives."),
                "  " + tr("the file: {cards}", cards=rec),
                "  " + tr("the seed: {cards}", cards=exp)]
    lines = _hand_lines(m, players, tr, rec, exp)
    if m.game == 0:
        # A file with no hand (games count from 1): none to name.
        lines[0] = lines[0][:1].upper() + lines[0][1:]
        return lines
    lines[0] = tr("Game {game}, hand {hand}: {problem}", game=m.game, hand=m.hand,
                  problem=lines[0])
    return lines


def _hand_lines(m: Mismatch, players: tuple[str, str], tr: Tr, rec: str,
                exp: str) -> list[str]:
    """The lines about one hand, the first without the hand's name."""
    if m.check is Check.MOVE:
        reason = tr(m.reason) if m.reason is not None else ""
        if not rec:
            return [tr("move {number} (missing) cannot be played: {reason}.",
                       number=m.move + 1, reason=reason)]
        return [tr("move {number} ({move}) cannot be played: {reason}.", number=m.move + 1,
                   move=rec, reason=reason)]
    if m.check is Check.HANDS:
        return [tr("the file's hands and the moves disagree ({part}: the file has {recorded}, "
                   "the moves give {expected}).", part=_hands_part(tr, m.part), recorded=rec,
                   expected=exp)]
    if m.check in (Check.SCORES, Check.RESULT):
        return [_result_line(tr, m, rec, exp)]
    if m.check is Check.REBUILD:
        if m.part == "after":
            return [tr("the file rebuilds the stock after move {recorded} of the hand, the "
                       "moves rebuild it after move {expected}.", recorded=rec, expected=exp)]
        if m.part == "count":
            return [tr("the file records {recorded}, the moves make {expected}.",
                       recorded=Text.plural("{count} stock rebuild", "{count} stock rebuilds",
                                            int(rec)), expected=exp)]
        return [tr("the stock in the stock rebuild is not the one the seed gives."),
                _card_line(m, tr, from_top=True)]
    if m.part == "dealer":
        return [tr("the file has seat {recorded} dealing, the seed gives seat {expected}.",
                   recorded=rec, expected=exp)]
    if m.part.startswith("seat"):
        seat = int(m.part.split()[-1])
        extra = sorted(set(m.recorded) - set(m.expected))
        lacking = sorted(set(m.expected) - set(m.recorded))
        same = tr("the same cards")
        return [tr("{name}'s hand (seat {seat}) in the deal is not the one the seed gives.",
                   name=players[seat], seat=seat),
                "  " + tr("the file has {recorded} where the seed gives {expected}",
                          recorded=" ".join(extra) or same, expected=" ".join(lacking) or same)]
    if m.part == "stock":
        return [tr("the stock in the deal is not the one the seed gives."),
                _card_line(m, tr, from_top=True)]
    return [tr("the discard pile in the deal is not the one the seed gives."),
            _card_line(m, tr, from_top=False)]


def _card_line(m: Mismatch, tr: Tr, *, from_top: bool) -> str:
    at = m.position
    nothing = tr.ctx("no card in a replay", "nothing")
    got = m.recorded[at] if at < len(m.recorded) else nothing
    want = m.expected[at] if at < len(m.expected) else nothing
    if from_top:
        return "  " + tr("card {number} from the top: the file has {recorded}, the seed gives "
                         "{expected}", number=at + 1, recorded=got, expected=want)
    return "  " + tr("card {number} from the bottom: the file has {recorded}, the seed gives "
                     "{expected}", number=at + 1, recorded=got, expected=want)


def _hands_part(tr: Tr, part: str) -> str:
    """What the file's hands and the moves disagree on (``Mismatch.part`` of a hands check)."""
    words = {
        "number": tr.ctx("replay check", "number"),
        "moves": tr.ctx("replay check", "moves"),
        "count": tr.ctx("replay check", "count"),
    }
    return words.get(part, part)


#: Two scores as every result says them: "13–41", in Russian «13:41».
SCORE = Text.ctx("a score between the two players", "{a}–{b}")


def _scores(tr: Tr, values: tuple[str, ...]) -> str:
    """Scores or games won, a pair, as a score; after a winner's seat ("0, 2–1")."""
    if len(values) == 3:
        return f"{values[0]}, {_scores(tr, values[1:])}"
    if len(values) == 2:
        return tr(SCORE, a=values[0], b=values[1])
    return " ".join(values)


def _result_line(tr: Tr, m: Mismatch, rec: str, exp: str) -> str:
    if m.part in ("scores", "winner, games won"):
        rec, exp = _scores(tr, m.recorded), _scores(tr, m.expected)
    if m.part == "scores" and not exp:
        # The file scores a hand whose moves stop before it is over.
        return tr("the file records the scores {recorded}, but its moves stop before the hand "
                  "is over.", recorded=rec)
    if m.part == "scores" and not rec:
        return tr("the file records no scores, but the moves end the hand with {expected}.",
                  expected=exp)
    if m.part == "scores":
        return tr("the moves do not lead to the recorded scores: the file says {recorded}, "
                  "the moves give {expected}.", recorded=rec, expected=exp)
    if m.part == "winner":
        return tr("the moves do not lead to the recorded winner: the file says {recorded}, "
                  "the moves give {expected}.", recorded=rec, expected=exp)
    if m.part == "given up":
        return tr("the file has the match {how} with no winner ({winner}): a match given up is "
                  "won by the other player.", how=_how(tr, m.recorded[0]),
                  winner=m.recorded[1])
    if m.part == "how":
        return tr("the moves do not lead to the recorded end of the session: the file says "
                  "{recorded}, the moves give {expected}.",
                  recorded=_how(tr, rec), expected=_how(tr, exp))
    return tr("the moves do not lead to the recorded winner, games won: the file says "
              "{recorded}, the moves give {expected}.", recorded=rec, expected=exp)


def _how(tr: Tr, how: str) -> str:
    """How a session ended, as a deals file records it."""
    words = {
        "played out": tr.ctx("how a session ended", "played out"),
        "resigned": tr.ctx("how a session ended", "resigned"),
        "timed out": tr.ctx("how a session ended", "timed out"),
        "forfeited": tr.ctx("how a session ended", "forfeited"),
        "abandoned": tr.ctx("how a session ended", "abandoned"),
        "cancelled": tr.ctx("how a session ended", "cancelled"),
        "": tr.ctx("how a session ended", "not over"),
    }
    return words.get(how, how)
