"""A move typed in the player's own words, read as the notation: at the terminal and with
``/umtali play`` alike (``moves.typed``).

The words are those the bot says a move with in that language (``text.move_meaning``: the
terminal's move list and Discord's suggestions), so a move as shown can be typed back:
«выложить 3♥ 3♦ 3♣», «приложить 7♦ к комбинации 8♦ 9♦ 10♦» (or «к 8♦»), «сбросить K♠ в
открытую», «взять карту из колоды». The notation's own words (``meld``, ...) read in every
language. Pure text to text: the cards are read after (``letters.native``, ``Move.parse``).
"""

from __future__ import annotations

from umtali.errors import InvalidMoveError
from umtali.i18n import Text
from umtali.letters import small

#: Each language's verbs and the notation's word for them (``take`` for «взять»: where from is
#: in the words after it).
VERBS: dict[str, dict[str, str]] = {
    "ru": {"выложить": "meld", "приложить": "extend", "добавить": "extend",
           "сбросить": "discard", "взять": "take"},
}
#: Words said around the cards, and read past: «к комбинации», «карту из колоды».
_FILLERS = frozenset({"к", "на", "комбинации", "комбинацию", "карту", "карты", "из",
                      "верхнюю", "верхние", "с", "со"})
#: Where «взять» takes from, by a word's start: the stock, the pile, or its top two.
_STOCK = ("колод", "прикуп")
_PILE = ("сброс",)
_TWO = frozenset({"две", "два", "2", "обе"})
#: One card, said with «взять»: never with a «две» (which of the two moves was meant?).
_ONE = frozenset({"карту", "верхнюю"})
#: A last card's side, said after it: as the bot says it, and shorter.
_DOWN = (("рубашкой", "вверх"), ("рубашкой",), ("втёмную",), ("втемную",), ("закрыто",))
_UP = (("в", "открытую"), ("открыто",), ("открытой",), ("лицом", "вверх"))
#: Words of one kind of move only: said with another's verb, the text says two moves, and is
#: refused rather than read as either (review165: «взять две из колоды» read as ``take 2``).
_SIDE_WORDS = frozenset({w.replace("ё", "е") for end in _DOWN + _UP for w in end if w != "в"}
                        | {"down", "facedown", "face-down", "hidden", "up", "faceup", "face-up"})
_EXTEND_WORDS = frozenset({"к", "на", "on"})
_VERB_WORDS = frozenset({"draw", "take", "meld", "extend", "discard"})
#: Where each verb's words may not go: the other kinds' words (its own are read as they are).
_NOT_WITH = {
    "take": _SIDE_WORDS | _EXTEND_WORDS,
    "meld": _SIDE_WORDS | _EXTEND_WORDS,
    "extend": _SIDE_WORDS,
    "discard": _EXTEND_WORDS,  # its side words: said last, once (``notation``)
}


def two_moves(text: str) -> InvalidMoveError:
    """The refusal of a text that says two moves, or both sides of a card (``moves.typed``)."""
    return InvalidMoveError(Text.of("{text} says two different moves: type one",
                                    text=repr(text.strip())))


def _mixed(verb: str, rest: list[str]) -> bool:
    """Whether ``rest``, said after ``verb``, holds a word of another kind of move."""
    low = [small(w).replace("ё", "е") for w in rest]
    verbs = _VERB_WORDS | set().union(*VERBS.values())
    if any(w in verbs for w in low) or any(w in _NOT_WITH[verb] for w in low):
        return True
    # A discard's card goes on the pile: «в сброс» is said of it, not of another move.
    places = _STOCK if verb == "discard" else _STOCK + _PILE
    return verb != "take" and any(w.startswith(places) or w in _TWO - {"2"} for w in low)


def _ending(words: list[str], endings: tuple[tuple[str, ...], ...]) -> int:
    """How many of ``words``' last words say one of ``endings`` (0: none)."""
    low = [small(w).replace("ё", "е") for w in words]
    for end in endings:
        said = [e.replace("ё", "е") for e in end]
        if len(low) > len(said) and low[-len(said):] == said:
            return len(said)
    return 0


def notation(text: str, language: str) -> str:
    """``text`` in the notation's words when it begins with one of ``language``'s verbs, else
    as it is (the notation reads it, or says it is no move)."""
    words = text.replace(",", " ").split()
    verbs = VERBS.get(language)
    if not words or verbs is None or (verb := verbs.get(small(words[0]))) is None:
        return text
    rest = words[1:]
    if _mixed(verb, rest):
        raise two_moves(text)
    if verb == "take":
        low = [small(w) for w in rest if small(w) not in _FILLERS]
        two = any(w in _TWO for w in low)
        stock = any(w.startswith(_STOCK) for w in low)
        pile = any(w.startswith(_PILE) for w in low)
        if two and any(small(w) in _ONE for w in rest):
            raise two_moves(text)  # «взять две верхнюю карту»: one card or two?
        if not (stock or pile or two) or (stock and (pile or two)):
            # Neither said, both, or two cards from the stock (which gives one): ask.
            raise InvalidMoveError(Text.of(
                "{text}: from the stock or from the discard pile? Type '{draw}' or '{take}'",
                text=repr(text.strip()), draw=words[0] + " из колоды",
                take=words[0] + (" две из сброса" if two else " из сброса")))
        verb = "draw" if stock else "take 2" if two else "take"
        if len(low) > 1 + two:
            return text  # more than where from: left to the notation to refuse
        return verb
    if verb == "discard":
        # One side, said last: a side word before it says the other side, or a second card.
        n, side = next(((n, side) for ends, side in ((_DOWN, "down"), (_UP, "up"))
                        if (n := _ending(rest, ends))), (0, ""))
        rest = rest[:len(rest) - n]
        if any(small(w).replace("ё", "е") in _SIDE_WORDS for w in rest):
            raise two_moves(text)
        return " ".join(["discard", *rest, *([side] if side else [])])
    if verb == "extend":
        # «приложить 7♦ к комбинации 8♦ 9♦ 10♦»: the card, then any card of the meld.
        low = [small(w) for w in rest]
        if "к" in low or "на" in low:
            at = low.index("к") if "к" in low else low.index("на")
            meld = [w for w in rest[at + 1:] if small(w) not in _FILLERS]
            return " ".join(["extend", *rest[:at], *meld[:1]])
    cards = [w for w in rest if small(w) not in _FILLERS]
    return " ".join([verb, *cards])
