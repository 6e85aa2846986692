"""The deals file (``umtali-N-deals.json``; the "replay file" is the moves alone, as text): a
finished session with every deal and stock rebuild it claims, its moves, its commitment and
(once it is over) the seed and salt that prove the deals.

The deals are written out, not only implied by the seed, so that ``umtali.fairness.verify`` has
something to hold against the seed: the cards the players saw. docs/REPLAY_FORMAT.md describes
the JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import Any, TypeVar

from umtali.cards import CARDS, Card, iter_cards
from umtali.codec import cause, deal_from_json, deal_to_json
from umtali.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, UmtaliError
from umtali.events import HandEnded, HandStarted, StockReshuffled
from umtali.hand import HandState
from umtali.i18n import Text
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.seeds import MAX_TYPED, is_cut, uncut
from umtali.session import Deal, Session

FORMAT = "umtali-replay"
#: 2: the file has a ``cut`` (the session was played from its seed and the cut); a file
#: without one is written as version 1, as before cuts, and both are read.
VERSION = 2
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Rebuild:
    """The discard pile turned into a new stock: after how many moves of the hand, and the new
    stock, top card first."""

    after: int
    stock: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as dealt and played. ``deal`` holds each seat's cards in card order, the stock
    top first and the discard pile bottom first; ``scores`` is None while the hand is in play."""

    game: int
    hand: int
    deal: Deal
    rebuilds: tuple[Rebuild, ...]
    moves: tuple[str, ...]
    scores: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Result:
    winner: int
    games_won: tuple[int, int]
    #: "played out", or how it ended early ("resigned", "timed out").
    how: str


@dataclass(frozen=True, slots=True)
class Reveal:
    seed: int | str
    salt: str


@dataclass(frozen=True, slots=True)
class ReplayFile:
    rules: RuleSet
    players: tuple[str, str]
    commitment: str | None
    reveal: Reveal | None
    #: A fixed first deal not shuffled from the seed (practice positions, tests), or None.
    first_deal: Deal | None
    #: The draw for first dealer, (seat 0's card, seat 1's card) a round; empty with a fixed deal.
    dealer_draws: tuple[tuple[int, int], ...]
    first_dealer: int
    hands: tuple[HandRecord, ...]
    result: Result | None
    #: The player's cut, made after the commitment (``umtali.fairness.cut_seed``); None for a
    #: session never cut.
    cut: str | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """What the engine makes of a seed and a move list: every hand, and where it stopped."""

    session: Session
    hands: tuple[HandRecord, ...]
    #: Index (in the whole move list) and reason of the first move that could not be played.
    error_at: int = -1
    error: Text | None = None


def _dealt(h: HandState) -> Deal:
    return Deal(
        h.dealer,
        (tuple(iter_cards(h.hands[0])), tuple(iter_cards(h.hands[1]))),
        tuple(reversed(h.stock)),
        tuple(h.discard_pile),
    )


class _Open:
    """The hand being recorded."""

    def __init__(self, s: Session) -> None:
        self.game, self.hand, self.deal = s.game, s.hand_no, _dealt(s.hand)
        self.rebuilds: list[Rebuild] = []
        self.moves: list[str] = []

    def close(self, scores: tuple[int, int] | None) -> HandRecord:
        return HandRecord(self.game, self.hand, self.deal, tuple(self.rebuilds),
                          tuple(self.moves), scores)


def play(rules: RuleSet, seed: int | str, moves: Sequence[Move | str],
         first_deal: Deal | None = None) -> Played:
    """Play ``moves`` from ``seed`` and record each deal and stock rebuild as it happens.

    An unplayable move stops the replay; ``Played.error_at`` names it."""
    s = Session(rules, seed, first_deal)
    done: list[HandRecord] = []
    current = _Open(s)
    for i, m in enumerate(moves):
        try:
            move = Move.parse(m) if isinstance(m, str) else m
            events = s.apply(move)
        except (IllegalMoveError, InvalidMoveError) as error:
            done.append(current.close(None))
            return Played(s, tuple(done), i, error.text)
        current.moves.append(str(s.moves[-1]))  # as the session keeps it: canonical
        for event in events:
            if isinstance(event, StockReshuffled):
                # The engine rebuilds at the start of a turn of the same hand, never as it ends.
                current.rebuilds.append(Rebuild(len(current.moves), tuple(reversed(s.hand.stock))))
            elif isinstance(event, HandEnded):
                done.append(current.close(event.scores))
            elif isinstance(event, HandStarted):
                current = _Open(s)
    if not s.over:
        done.append(current.close(None))
    return Played(s, tuple(done))


def from_session(session: Session, players: tuple[str, str], commitment: str | None = None,
                 salt: str | None = None, cut: str | None = None) -> dict[str, Any]:
    """The deals file of ``session`` as JSON data. With ``salt`` it carries the reveal (the seed
    and salt), which is refused while the session is in play: the seed foretells its deals.
    With ``cut`` the session was played from its committed seed and that cut: the reveal
    shows the committed seed, and the file the cut."""
    if salt is not None and not session.over:
        raise ValueError("the seed of a session in play must stay secret")
    played = play(session.rules, session.seed, session.moves, session.first_deal)
    if played.error_at >= 0:
        raise InvalidStateError(Text.of("the session does not replay: {error}",
                                         error=played.error))
    result = Result(session.winner, (session.games_won[0], session.games_won[1]), session.how) \
        if session.over else None
    return to_json(ReplayFile(
        rules=session.rules,
        players=players,
        commitment=commitment,
        reveal=Reveal(uncut(session.seed, cut), salt) if salt is not None else None,
        first_deal=session.first_deal,
        dealer_draws=session.dealer_draws,
        first_dealer=session.first_dealer,
        hands=played.hands,
        result=result,
        cut=cut or None,
    ))


# -- JSON -----------------------------------------------------------------------------------


def _codes(cards: Sequence[int]) -> list[str]:
    return [CARDS[c].code for c in cards]


def _cards(data: Any) -> tuple[int, ...]:
    if not isinstance(data, list):
        raise InvalidStateError(Text.of("bad deals file: a list of cards was expected"))
    return tuple(int(Card.parse(str(c))) for c in data)


def to_json(r: ReplayFile) -> dict[str, Any]:
    # A file never cut keeps version 1's layout, so that it reads as it always did.
    cut = {} if r.cut is None else {"cut": r.cut}
    return {
        "format": FORMAT,
        "version": VERSION if r.cut is not None else 1,
        "players": list(r.players),
        "rules": r.rules.to_json(),
        "commitment": r.commitment,
        **cut,
        "reveal": {"seed": r.reveal.seed, "salt": r.reveal.salt} if r.reveal else None,
        "first_deal": deal_to_json(r.first_deal) if r.first_deal else None,
        "dealer_draw": {"draws": [_codes(d) for d in r.dealer_draws],
                        "dealer": r.first_dealer},
        "hands": [
            {
                "game": h.game,
                "hand": h.hand,
                "deal": deal_to_json(h.deal),
                "rebuilds": [{"after": b.after, "stock": _codes(b.stock)} for b in h.rebuilds],
                "moves": list(h.moves),
                "scores": list(h.scores) if h.scores is not None else None,
            }
            for h in r.hands
        ],
        "result": {"winner": r.result.winner, "games_won": list(r.result.games_won),
                   "how": r.result.how} if r.result else None,
    }


def _pair(data: Any) -> tuple[int, int]:
    a, b = data
    return int(a), int(b)


def _hand(d: dict[str, Any]) -> HandRecord:
    moves = d["moves"]
    if not isinstance(moves, list):
        raise InvalidStateError(Text.of("bad deals file: moves must be a list"))
    return HandRecord(
        game=int(d["game"]),
        hand=int(d["hand"]),
        deal=deal_from_json(d["deal"]),
        rebuilds=tuple(Rebuild(int(b["after"]), _cards(b["stock"])) for b in d["rebuilds"]),
        moves=tuple(str(m) for m in moves),
        scores=_pair(d["scores"]) if d["scores"] is not None else None,
    )


def _rules(data: Any) -> RuleSet:
    """The file's rule set, each field of the type the engine expects: it takes them unchecked
    (a text for a number fails deep in play, as Python's TypeError)."""
    rules = RuleSet.from_json(data)
    default = RuleSet()
    for f in fields(RuleSet):
        value = getattr(rules, f.name)
        if type(value) is not type(getattr(default, f.name)):
            raise InvalidStateError(Text.of("bad deals file: the rule {rule} cannot be {value}",
                                             rule=f.name, value=json.dumps(value)))
    return rules


def from_json(data: Any) -> ReplayFile:
    """Read a deals file; ``InvalidStateError`` says what is wrong with it, naming the part
    of the file (never Python's words: a missing key, a text for a number)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidStateError(Text.of(
            "not an Umtali deals file (no \"format\": \"{format}\")", format=FORMAT))
    if data.get("version") not in (1, VERSION):
        raise InvalidStateError(Text.of(
            "unknown deals file version: expected {version}", version=VERSION))
    reveal = data.get("reveal")
    seed = _part("reveal", lambda: reveal["seed"] if reveal else None)
    if seed is not None and not isinstance(seed, int | str):
        raise InvalidStateError(Text.of(
            "bad deals file: the seed must be a number or a string"))
    # Version 2 has a cut (version 1, from before cuts, none: a cut in it is not read).
    if data["version"] == VERSION and "cut" not in data:
        raise InvalidStateError(Text.of(
            "bad deals file: version {version} has a \"cut\", and this one has none",
            version=VERSION))
    cut = data["cut"] if data["version"] == VERSION else None
    if cut is not None and not (isinstance(cut, str) and is_cut(cut)):
        raise InvalidStateError(Text.of(
            "bad deals file: the cut must be a string: a click's id (digits) or the text "
            "typed (at most {count} visible characters)", count=MAX_TYPED))
    commitment, first_deal = data.get("commitment"), data.get("first_deal")
    draw, hands = _field(data, "dealer_draw"), _field(data, "hands")
    rules, players, result = _field(data, "rules"), _field(data, "players"), data.get("result")
    return ReplayFile(
        rules=_part("rules", lambda: _rules(rules)),
        players=_part("players", lambda: _players(players)),
        commitment=str(commitment) if commitment is not None else None,
        reveal=_part("reveal", lambda: Reveal(seed, str(reveal["salt"])))
        if reveal and seed is not None else None,
        first_deal=_part("first_deal", lambda: deal_from_json(first_deal))
        if first_deal else None,
        dealer_draws=_part("dealer_draw", lambda: tuple(_pair(_cards(p))
                                                         for p in draw["draws"])),
        first_dealer=_part("dealer_draw", lambda: int(draw["dealer"])),
        hands=_hands(hands),
        result=_part("result", lambda: Result(int(result["winner"]),
                                              _pair(result["games_won"]),
                                              str(result["how"])))
        if result else None,
        cut=cut,
    )


def _players(data: Any) -> tuple[str, str]:
    if not isinstance(data, list) or len(data) != 2:
        raise TypeError("two names")
    return str(data[0]), str(data[1])


def _hands(data: Any) -> tuple[HandRecord, ...]:
    if not isinstance(data, list):
        raise _miswritten("hands")
    return tuple(_part(f"hands[{i}]", partial(_hand, h)) for i, h in enumerate(data))


def _field(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise InvalidStateError(Text.of("bad deals file: no \"{key}\"", key=key))
    return data[key]


def _part(part: str, read: Callable[[], _T]) -> _T:
    """``read()`` of the file's ``part`` (``"reveal"``, ``"hands[2]"``), its faults worded:
    Python's (a missing key, a text where a number goes, a list too short) say only which
    part is not laid out as in a deals file; the engine's (a wrong card) are kept."""
    try:
        return read()
    except InvalidStateError:
        raise
    except KeyError as e:
        raise InvalidStateError(Text.of("bad deals file: {part} has no \"{key}\"",
                                        part=part, key=str(e.args[0]))) from e
    except UmtaliError as e:
        raise InvalidStateError(Text.of("bad deals file: {error}", error=cause(e))) from e
    except (TypeError, ValueError, IndexError, OverflowError, AttributeError) as e:
        # OverflowError: ``int`` of a number JSON reads as infinity (``1e999``).
        raise _miswritten(part) from e


def _miswritten(part: str) -> InvalidStateError:
    return InvalidStateError(Text.of(
        "bad deals file: {part} is not laid out as in a deals file (docs/REPLAY_FORMAT.md)",
        part=part))
