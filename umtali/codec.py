"""The JSON form of a whole session, hidden cards and all, with a format version.

It round-trips exactly: ``session_to_json(session_from_json(d)) == d``. Cards are written in the
notation's codes (``10D``) so that a saved game can be read by a person.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from umtali.cards import CARDS, Card
from umtali.errors import InvalidMoveError, InvalidStateError, UmtaliError
from umtali.events import HandEnd
from umtali.hand import HandState, Phase, Play
from umtali.i18n import Text
from umtali.melds import Meld, PlayKind, Shape, rebuilt
from umtali.moves import Move
from umtali.rules import RuleSet
from umtali.session import Deal, Session, Shuffler

FORMAT = 1


_CODE = tuple(c.code for c in CARDS)


def _codes(cards: Any) -> list[str]:
    return [_CODE[c] for c in cards]


def _mask_codes(mask: int) -> list[str]:
    out = []
    while mask:
        low = mask & -mask
        out.append(_CODE[low.bit_length() - 1])
        mask ^= low
    return out


def _ints(codes: list[str]) -> list[int]:
    # A file's cards are checked for type here: ``Card.parse`` of a number fails as Python's
    # AttributeError, which the readers of fixed deals and deals files do not expect.
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise InvalidStateError(Text.of("bad deal: each card must be a code such as \"10D\""))
    return [int(Card.parse(c)) for c in codes]


def _mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << Card.parse(c)
    return m


def cause(error: Exception) -> Text | str:
    """What is wrong, for a message: an engine error's own words (translated where shown),
    else Python's (a missing key, a wrong type: the same in every language)."""
    return error.text if isinstance(error, UmtaliError) else str(error)


def deal_to_json(deal: Deal) -> dict[str, Any]:
    return {
        "dealer": deal.dealer,
        "hands": [_codes(deal.hands[0]), _codes(deal.hands[1])],
        "stock": _codes(deal.stock),
        "discard": _codes(deal.discard),
    }


def deal_from_json(data: dict[str, Any]) -> Deal:
    try:
        hands = data["hands"]
        dealer = data["dealer"]
        # Exactly 0 or 1: not 1.5, "1" or true, which ``int`` would take.
        if type(dealer) is not int:
            raise InvalidStateError(Text.of("bad deal: dealer must be 0 or 1"))
        deal = Deal(
            dealer=dealer,
            hands=(tuple(_ints(hands[0])), tuple(_ints(hands[1]))),
            stock=tuple(_ints(data["stock"])),
            discard=tuple(_ints(data.get("discard", []))),
        )
    except KeyError as e:
        raise InvalidStateError(Text.of("bad deal: no \"{key}\"", key=str(e.args[0]))) from e
    except (TypeError, IndexError) as e:
        # Python's words (a number where a list goes) are no help to the file's writer.
        raise InvalidStateError(Text.of(
            "bad deal: a deal is an object with \"dealer\", \"hands\" (two lists of cards) "
            "and \"stock\"")) from e
    except InvalidMoveError as e:
        raise InvalidStateError(Text.of("bad deal: {error}", error=cause(e))) from e
    if deal.dealer not in (0, 1):
        raise InvalidStateError(Text.of("bad deal: dealer must be 0 or 1"))
    return deal


def _meld_json(m: Meld) -> dict[str, Any]:
    return {"shape": m.shape.value, "cards": _mask_codes(m.cards)}


def _meld_from_json(d: dict[str, Any]) -> Meld:
    return rebuilt(Shape(d["shape"]), _mask(d["cards"]))


def hand_to_json(h: HandState) -> dict[str, Any]:
    return {
        "dealer": h.dealer,
        "reshuffle_key": h.reshuffle_key,
        "hands": [_mask_codes(h.hands[0]), _mask_codes(h.hands[1])],
        "stock": _codes(h.stock),
        "discard": _codes(h.discard_pile),
        "face_down": h.face_down,
        "down_by": h.down_by,
        "down_below": h.down_below,
        "melds": [_meld_json(m) for m in h.melds],
        "plays": [
            {"player": p.player, "kind": p.kind.value, "cards": _mask_codes(p.cards),
             "meld": p.meld, "points": p.points}
            for p in h.plays
        ],
        "points": list(h.points),
        "turn": h.turn,
        "phase": h.phase.value,
        "taken": CARDS[h.taken].code if h.taken >= 0 else None,
        "must_meld": _mask_codes(h.must_meld),
        "drawn": _mask_codes(h.drawn),
        "pair_laid": h.pair_laid,
        "out": h.out,
        "reshuffled": h.reshuffled,
        "quiet_turns": h.quiet_turns,
        "progress": h.progress,
        "turns": h.turns,
        "reason": h.reason.value if h.reason else None,
    }


def hand_from_json(rules: RuleSet, d: dict[str, Any]) -> HandState:
    h = HandState(rules, int(d["dealer"]), str(d["reshuffle_key"]))
    h.hands = [_mask(d["hands"][0]), _mask(d["hands"][1])]
    h.stock = _ints(d["stock"])
    h.discard_pile = _ints(d["discard"])
    h.face_down = bool(d["face_down"])
    h.melds = [_meld_from_json(m) for m in d["melds"]]
    h.plays = [
        Play(int(p["player"]), PlayKind(p["kind"]), _mask(p["cards"]), int(p["meld"]),
             int(p["points"]))
        for p in d["plays"]
    ]
    h.points = [int(d["points"][0]), int(d["points"][1])]
    h.turn = int(d["turn"])
    h.phase = Phase(d["phase"])
    h.taken = int(Card.parse(d["taken"])) if d["taken"] else -1
    h.must_meld = _mask(d["must_meld"])
    h.drawn = _mask(d.get("drawn", []))  # saved before it was kept: nothing marked
    h.pair_laid = bool(d["pair_laid"])
    h.out = int(d["out"])
    # (Saved before these were kept: a face-down top could only be the going-out one.)
    h.down_by = int(d.get("down_by", h.out if h.face_down else -1))
    h.down_below = bool(d.get("down_below", False))
    h.reshuffled = bool(d["reshuffled"])
    h.quiet_turns = int(d["quiet_turns"])
    h.progress = bool(d["progress"])
    h.turns = int(d["turns"])
    h.reason = HandEnd(d["reason"]) if d["reason"] else None
    _check_cards(h)
    return h


def _check_cards(h: HandState) -> None:
    seen = h.hands[0] | h.hands[1]
    count = h.hands[0].bit_count() + h.hands[1].bit_count()
    for c in (*h.stock, *h.discard_pile):
        seen |= 1 << c
        count += 1
    for m in h.melds:
        seen |= m.cards
        count += m.cards.bit_count()
    if seen != (1 << 52) - 1 or count != 52:
        raise InvalidStateError(Text.of(
            "saved hand does not hold each of the 52 cards exactly once"))


def session_to_json(s: Session) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": s.rules.to_json(),
        "seed": s.seed,
        "first_deal": deal_to_json(s.first_deal) if s.first_deal else None,
        "first_dealer": s.first_dealer,
        "dealer_draws": [_codes(pair) for pair in s.dealer_draws],
        "game": s.game,
        "hand_no": s.hand_no,
        "hand_scores": [list(x) for x in s.hand_scores],
        "finished_games": [[list(x) for x in g] for g in s.finished_games],
        "games_won": list(s.games_won),
        "winner": s.winner,
        "how": s.how,
        "moves": s.move_texts(),
        "hand_log": [list(line) for line in s.hand_log],
        "hand": hand_to_json(s.hand),
    }


@lru_cache(maxsize=8192)
def _move_of(text: str) -> tuple[Move, str]:
    """A saved move read, and its canonical text. Cached: a session's load reads every move
    it holds (hundreds, the same few thousand texts in every session), and reading them was
    most of a load's time. Moves are immutable, so sharing one between sessions is safe."""
    if not isinstance(text, str):
        raise TypeError(f"a move saved as {type(text).__name__}")
    move = Move.parse(text)
    return move, str(move)


def session_from_json(d: dict[str, Any]) -> Session:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise InvalidStateError(Text.of(
            "unknown saved-session format: expected format {format}", format=FORMAT))
    try:
        rules = RuleSet.from_json(d["rules"])
        s = Session.__new__(Session)
        s.rules = rules
        s.seed = d["seed"]


        s.shuffler = Shuffler(s.seed)
        s.first_deal = deal_from_json(d["first_deal"]) if d["first_deal"] else None
        s.first_dealer = int(d["first_dealer"])
        s.dealer_draws = tuple((a, b) for a, b in (_ints(p) for p in d["dealer_draws"]))
        s.game = int(d["game"])
        s.hand_no = int(d["hand_no"])
        s.hand_scores = [(int(a), int(b)) for a, b in d["hand_scores"]]
        s.finished_games = [[(int(a), int(b)) for a, b in g] for g in d["finished_games"]]
        s.games_won = [int(d["games_won"][0]), int(d["games_won"][1])]
        s.winner = int(d["winner"])
        s.how = str(d["how"])
        read = [_move_of(m) for m in d["moves"]]
        s.moves = [move for move, _ in read]
        s._move_texts = [text for _, text in read]
        s.opening = []
        # Saved before the hand log existed: empty (records then replay the session instead).
        s.hand_log = [(int(a), int(b), int(c), int(d_), int(e), int(f), int(g))
                      for a, b, c, d_, e, f, g in d.get("hand_log", [])]
        s.hand = hand_from_json(rules, d["hand"])
    except (KeyError, TypeError, ValueError, IndexError) as e:
        if isinstance(e, InvalidStateError):
            raise
        raise InvalidStateError(Text.of("bad saved session: {error}", error=cause(e))) from e
    return s
