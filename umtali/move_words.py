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
#: A last card's side, said after it: as the bot says it, and shorter.
_DOWN = (("рубашкой", "вверх"), ("рубашкой",), ("втёмную",), ("втемную",), ("закрыто",))
_UP = (("в", "открытую"), ("открыто",), ("открытой",), ("лицом", "вверх"))


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
    if verb == "take":
        low = [small(w) for w in rest if small(w) not in _FILLERS]
        if any(w in _TWO for w in low):
            verb = "take 2"
        elif any(w.startswith(_STOCK) for w in low):
            verb = "draw"
        elif not any(w.startswith(_PILE) for w in low):
            raise InvalidMoveError(Text.of(
                "{text}: from the stock or from the discard pile? Type '{draw}' or '{take}'",
                text=repr(text.strip()), draw=words[0] + " из колоды",
                take=words[0] + " из сброса"))
        if len(low) > 1 + (verb == "take 2"):
            return text  # more than where from: left to the notation to refuse
        return verb
    if verb == "discard":
        if (n := _ending(rest, _DOWN)):
            return " ".join(["discard", *rest[:-n], "down"])
        if (n := _ending(rest, _UP)):
            return " ".join(["discard", *rest[:-n], "up"])
        return " ".join(["discard", *rest])
    if verb == "extend":
        # «приложить 7♦ к комбинации 8♦ 9♦ 10♦»: the card, then any card of the meld.
        low = [small(w) for w in rest]
        if "к" in low or "на" in low:
            at = low.index("к") if "к" in low else low.index("на")
            meld = [w for w in rest[at + 1:] if small(w) not in _FILLERS]
            return " ".join(["extend", *rest[:at], *meld[:1]])
    cards = [w for w in rest if small(w) not in _FILLERS]
    return " ".join([verb, *cards])
