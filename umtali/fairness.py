"""Verifiable deals: a commitment to a session's seed published before the first deal, and the
check, once seed and salt are revealed, that every deal and stock rebuild came from that seed.

Every shuffle of a session is derived from its seed (``umtali.session.Shuffler``), so one
commitment covers them all; a session cut by a player after the commitment is played from the
seed and the cut (``umtali.seeds``), and the commitment still fixes the seed alone. The salt
keeps the commitment from giving the seed away: without it, a seed could be found by hashing
every candidate. Randomness comes from the caller (the bot
draws seed and salt with ``secrets``); this module only hashes and compares.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from umtali.cards import CARDS
from umtali.errors import InvalidStateError
from umtali.i18n import Text
from umtali.replay import HandRecord, ReplayFile, play
from umtali.seeds import cut_seed, seed_value
from umtali.session import Session

#: Names the scheme inside the hashed text, so that a later scheme never matches an older one.
SCHEME = "umtali-deals-v1"
_SALT = re.compile(r"[0-9a-f]{32,}")
_COMMITMENT = re.compile(r"[0-9a-f]{64}")
#: How a match ends with no result, part-way through: its seed is revealed all the same, and
#: its file stops where play stopped, with no winner.
NO_RESULT = ("abandoned", "cancelled")
#: How a match ends early with a winner: the other player gave it up. Who did is not in the
#: moves: the file's word (``verify`` checks only that it names a winner).
GIVEN_UP = ("resigned", "timed out", "forfeited")


def commitment_text(seed: int | str, salt: str) -> str:
    """The text whose SHA-256 is the commitment: ``umtali-deals-v1:<salt>:<seed>``.

    The salt is hex and comes first, so the text splits one way only whatever the seed holds."""
    text = str(seed_value(seed))
    if not _SALT.fullmatch(salt):
        raise InvalidStateError(Text.of("the salt must be at least 32 lowercase hex digits"))
    if not text or any(c.isspace() or not c.isprintable() for c in text):
        raise InvalidStateError(Text.of("the seed must be printable text without spaces"))
    return f"{SCHEME}:{salt}:{text}"


def commit(seed: int | str, salt: str) -> str:
    """The commitment to a session's seed: SHA-256 of ``commitment_text``, 64 hex digits."""
    return hashlib.sha256(commitment_text(seed, salt).encode("utf-8")).hexdigest()


def hand_check(seed: int | str, salt: str) -> str:
    """A shell line that prints ``commit(seed, salt)`` with standard tools alone, for anyone
    without this project: ``printf`` writes ``commitment_text`` (its format the scheme, salt
    and seed its arguments, each quoted for the shell), ``sha256sum`` hashes it."""
    _, salt, text = commitment_text(seed, salt).split(":", 2)
    return f"printf '{SCHEME}:%s:%s' {shlex.quote(salt)} {shlex.quote(text)} | sha256sum"


def is_commitment(text: str) -> bool:
    return _COMMITMENT.fullmatch(text) is not None


class Check(Enum):
    """What a mismatch is about, in the order ``verify`` checks."""

    #: The seed and salt do not hash to the commitment, or the file names another commitment.
    COMMITMENT = "commitment"
    #: The first hand was a fixed deal, not shuffled from the seed.
    FIXED_DEAL = "fixed deal"
    DEALER_DRAW = "dealer draw"
    #: The file and the moves disagree on how many hands were played, or where one ended.
    HANDS = "hands"
    DEAL = "deal"
    REBUILD = "stock rebuild"
    #: A move the rules do not allow where the file plays it.
    MOVE = "move"
    SCORES = "scores"
    RESULT = "result"


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first place where the file and the seed disagree.

    ``part`` names what differs: for a deal ``dealer``, ``seat 0``, ``seat 1``, ``stock`` or
    ``discard``; for a rebuild ``stock``, ``after`` or ``count``; for the commitment ``seed``
    or ``file``. ``recorded`` is what the file says, ``expected`` what the seed and moves give
    (card codes, numbers or texts); ``position`` is the first index where they differ."""

    check: Check
    game: int = 0
    hand: int = 0
    part: str = ""
    recorded: tuple[str, ...] = ()
    expected: tuple[str, ...] = ()
    position: int = -1
    #: For a move: its index in the hand (0 = first move) and why it is not allowed.
    move: int = -1
    reason: Text | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    commitment: str
    #: Deals and stock rebuilds found equal to what the seed gives.
    deals: int
    rebuilds: int
    mismatch: Mismatch | None

    @property
    def fair(self) -> bool:
        return self.mismatch is None


def _first_difference(a: Sequence[object], b: Sequence[object]) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def _codes(cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(CARDS[c].code for c in cards)


def _differ(check: Check, where: HandRecord | None, part: str, recorded: Sequence[int],
            expected: Sequence[int], *, cards: bool = False) -> Mismatch | None:
    """A mismatch when the two differ: cards written as codes, anything else as numbers."""
    if tuple(recorded) == tuple(expected):
        return None
    text = _codes if cards else (lambda xs: tuple(map(str, xs)))
    return Mismatch(check, where.game if where else 0, where.hand if where else 0, part,
                    text(recorded), text(expected), _first_difference(recorded, expected))


def _deal_mismatch(rec: HandRecord, exp: HandRecord) -> Mismatch | None:
    r, e = rec.deal, exp.deal
    return (
        _differ(Check.DEAL, rec, "dealer", (r.dealer,), (e.dealer,))
        # A hand is a set of cards: compared in card order.
        or _differ(Check.DEAL, rec, "seat 0", sorted(r.hands[0]), e.hands[0], cards=True)
        or _differ(Check.DEAL, rec, "seat 1", sorted(r.hands[1]), e.hands[1], cards=True)
        or _differ(Check.DEAL, rec, "stock", r.stock, e.stock, cards=True)
        or _differ(Check.DEAL, rec, "discard", r.discard, e.discard, cards=True)
    )


@dataclass
class _Tally:
    deals: int = 0
    rebuilds: int = 0


def _hand_mismatch(rec: HandRecord, exp: HandRecord, stopped: bool, reason: Text | None,
                   tally: _Tally) -> Mismatch | None:
    """Compare one hand in the order a player would: its deal, its rebuilds, its moves (``stopped``:
    the engine refused the next one, for ``reason``), its scores."""
    found = (_differ(Check.HANDS, rec, "number", (rec.game, rec.hand), (exp.game, exp.hand))
             or _deal_mismatch(rec, exp))
    if found:
        return found
    tally.deals += 1
    for r, e in zip(rec.rebuilds, exp.rebuilds, strict=False):
        found = (_differ(Check.REBUILD, rec, "after", (r.after,), (e.after,))
                 or _differ(Check.REBUILD, rec, "stock", r.stock, e.stock, cards=True))
        if found:
            return found
        tally.rebuilds += 1
    if stopped:
        at = len(exp.moves)
        text = rec.moves[at] if at < len(rec.moves) else ""
        return Mismatch(Check.MOVE, rec.game, rec.hand, "", (text,), move=at, reason=reason)
    return (
        _differ(Check.REBUILD, rec, "count", (len(rec.rebuilds),), (len(exp.rebuilds),))
        or _differ(Check.HANDS, rec, "moves", (len(rec.moves),), (len(exp.moves),))
        or _differ(Check.SCORES, rec, "scores", rec.scores or (), exp.scores or ())
    )


def verify(commitment: str, seed: int | str, salt: str, replay: ReplayFile) -> Verdict:
    """Check that ``seed`` and ``salt`` open ``commitment`` and that every deal and stock
    rebuild in ``replay`` is the one the seed gives, playing the file's moves to reach each.
    A file with a cut is played from the seed and its cut (``cut_seed``): an edited cut gives
    other cards, and the first that differ are named.

    It cannot know that the moves are the ones played at the table: it checks that they are
    legal and lead to the hands, scores and result the file records. ``InvalidStateError`` (a
    ``ValueError``) when the commitment, seed or salt is not well formed."""
    commitment = commitment.strip().lower()
    if not is_commitment(commitment):
        raise InvalidStateError(Text.of("a commitment is 64 hex digits"))
    opened = commit(seed, salt)
    tally = _Tally()

    def verdict(m: Mismatch | None) -> Verdict:
        return Verdict(commitment, tally.deals, tally.rebuilds, m)

    if opened != commitment:
        return verdict(Mismatch(Check.COMMITMENT, part="seed", recorded=(commitment,),
                                expected=(opened,)))
    if replay.commitment is not None and replay.commitment.strip().lower() != commitment:
        return verdict(Mismatch(Check.COMMITMENT, part="file",
                                recorded=(replay.commitment,), expected=(commitment,)))
    if replay.first_deal is not None:
        return verdict(Mismatch(Check.FIXED_DEAL, 1, 1))
    seed = cut_seed(seed, replay.cut)
    start = Session(replay.rules, seed)
    recorded_draw = [c for pair in replay.dealer_draws for c in pair]
    expected_draw = [c for pair in start.dealer_draws for c in pair]
    found = (_differ(Check.DEALER_DRAW, None, "draws", recorded_draw, expected_draw, cards=True)
             or _differ(Check.DEALER_DRAW, None, "dealer", (replay.first_dealer,),
                        (start.first_dealer,)))
    if found:
        return verdict(found)
    played = play(replay.rules, seed, [m for h in replay.hands for m in h.moves])
    for i, (rec, exp) in enumerate(zip(replay.hands, played.hands, strict=False)):
        stopped = played.error_at >= 0 and i == len(played.hands) - 1
        found = _hand_mismatch(rec, exp, stopped, played.error, tally)
        if found:
            return verdict(found)
    if len(replay.hands) != len(played.hands):
        # The moves run out before the file's hands do, or play on past them.
        last = replay.hands[-1] if replay.hands else None
        return verdict(_differ(Check.HANDS, last, "count", (len(replay.hands),),
                               (len(played.hands),)))
    return verdict(_result_mismatch(replay, played.session))


def _result_mismatch(replay: ReplayFile, s: Session) -> Mismatch | None:
    last = replay.hands[-1] if replay.hands else None
    result = replay.result
    won = (s.games_won[0], s.games_won[1])
    if result is None:
        # No result: the session must still be in play.
        return _differ(Check.RESULT, last, "winner", (-1,), (s.winner,))
    # A session that ended early (resigned, timed out, or abandoned or cancelled with no
    # result) stops short of its end: who gave up is not the moves' to say, but the games
    # already won are, and that a match with no result has no winner.
    early = result.how != "played out"
    if s.over == early:
        return Mismatch(Check.RESULT, last.game if last else 0, last.hand if last else 0, "how",
                        (result.how,), (s.how if s.over else "",))
    if early and result.how not in (*GIVEN_UP, *NO_RESULT):
        # No match ends so: an ending the moves cannot lead to, passed as one they do.
        return Mismatch(Check.RESULT, last.game if last else 0, last.hand if last else 0, "how",
                        (result.how,), ("",))
    forfeit = early and result.how in GIVEN_UP
    if forfeit and result.winner not in (0, 1):
        # Given up, and nobody won: a match given up is won by the other player.
        return Mismatch(Check.RESULT, last.game if last else 0, last.hand if last else 0,
                        "given up", (result.how, str(result.winner)))
    winner = result.winner if forfeit else s.winner
    return _differ(Check.RESULT, last, "winner, games won", (result.winner, *result.games_won),
                   (winner, *won))
