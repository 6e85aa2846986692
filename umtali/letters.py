"""Card names typed with letters of the other alphabet: a move typed at the terminal
(``umtali.cli_play``) or with ``/umtali play`` on Discord (``moves.typed``).

The notation reads Latin letters (``TS`` is the ten of spades) and the Russian ones (``ТS``,
a Cyrillic Т, is the ace: туз), and the two look alike. A player of the English game with a
Russian layout left on, or of the Russian game with a Latin one, would get a card they never
meant. So in the game's language a letter of the other alphabet reads both as itself and as
the letter of the game's alphabet it looks like: one card either way (a Cyrillic С typed for
C), it is that card; two (Т: an ace, or the T it looks like, a ten), the word is refused,
naming both. Letters are judged as typed, before the notation upper-cases them: a small
letter has a twin only where the small forms look alike too (a small t is no т). The game's
own letters read as they always did, but for the suits: the notation has Latin suit letters
only, so in the Russian game a Cyrillic С, Н or Ѕ (small с, ѕ) is the suit it looks like, as
in the English one (no Cyrillic letter is a suit, nor these a rank: one card), and the
Russian suits' letters п ч б т are theirs (``RUSSIAN_SUITS``). On Discord
the language is the member's (their client's), as in the answers they read, and its
suggestions read what is typed the same way (``spellings``), offering both cards where a word
can be two: picked, a suggestion says which. Scripts, replays and the bot's panels keep the
plain notation (``Card.parse``): saved files hold ASCII codes."""

from __future__ import annotations

from contextlib import suppress
from itertools import product

from umtali.cards import SUIT_LETTERS, Card
from umtali.errors import InvalidMoveError, UmtaliError
from umtali.i18n import Text

#: Cyrillic capitals and the Latin capitals they look like.
CYRILLIC_LOOKS_LATIN = {"А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "К": "K", "М": "M",
                        "О": "O", "Р": "P", "Т": "T", "Х": "X", "Ѕ": "S", "Ј": "J", "Ԛ": "Q"}
#: The same pairs in small letters, only where these still look alike: the small в, н, к, м
#: and т are small capitals, unlike b, h, k, m and t (a small b looks like ь, not в).
SMALL_CYRILLIC_LOOKS_LATIN = {"а": "a", "с": "c", "е": "e", "о": "o", "р": "p", "х": "x",
                              "ѕ": "s", "ј": "j", "ԛ": "q"}
#: The Russian letters among them (a Russian layout types no Ѕ, Ј, Ԛ).
RUSSIAN = "АВСЕНКМОРТХавсенкмортх"
LATIN_LOOKS_CYRILLIC = {latin: cyrillic for cyrillic, latin in (
    *CYRILLIC_LOOKS_LATIN.items(), *SMALL_CYRILLIC_LOOKS_LATIN.items()) if cyrillic in RUSSIAN}
ALL_CYRILLIC_LOOKS_LATIN = {**CYRILLIC_LOOKS_LATIN, **SMALL_CYRILLIC_LOOKS_LATIN}
#: The Cyrillic look-alikes of the Latin suit letters (С Н Ѕ, small с ѕ; a small н is a small
#: capital, unlike h): the Russian game reads them too, a Russian layout having no suit letter.
CYRILLIC_SUITS = {cyrillic: latin for cyrillic, latin in ALL_CYRILLIC_LOOKS_LATIN.items()
                  if latin.upper() in SUIT_LETTERS}
#: The Russian suits' first letters (пики, червы, бубны, трефы), read in the Russian game: a
#: card names one rank and one suit, so т (туз, трефы) is one card either way (Тт: A♣, 8т: 8♣).
RUSSIAN_SUITS = {"п": "S", "П": "S", "ч": "H", "Ч": "H", "б": "D", "Б": "D", "т": "C", "Т": "C"}
RUSSIAN_TWINS = {**LATIN_LOOKS_CYRILLIC, **CYRILLIC_SUITS, **RUSSIAN_SUITS}
#: A longer word is no card name; it is left to the notation to refuse.
LONGEST = 5


def small(text: str) -> str:
    """``text`` in small letters, each letter only by its own small form: ``str.lower`` would
    turn a Kelvin sign K into k (a letter of the notation) and İ into two characters."""
    if text.isascii():  # (saved moves and most typing: at once, a letter being only a letter)
        return text.lower()
    return "".join(low if len(low := ch.lower()) == 1 and low.isascii() == ch.isascii()
                   else ch for ch in text)


def _twins(language: str) -> dict[str, str]:
    """The other alphabet's letters and their look-alikes in the game's, each as typed (a
    capital by its capital twin, a small letter by its small one); in Russian, the Cyrillic
    suit look-alikes and their Latin suits too."""
    return RUSSIAN_TWINS if language == "ru" else ALL_CYRILLIC_LOOKS_LATIN


def readings(word: str, language: str) -> list[Card]:
    """The cards ``word`` can be, in card order: each letter of the other alphabet read as
    itself and as its look-alike in ``language``'s. Judged before ``Card.parse`` upper-cases
    them: a small t is no look-alike of т, though T is of Т."""
    twins = _twins(language)
    letters = word.strip()
    if len(letters) > LONGEST:
        return []
    found: set[Card] = set()
    for spelling in product(*({c, twins.get(c, c)} for c in letters)):
        with suppress(UmtaliError):
            found.add(Card.parse("".join(spelling)))
    return sorted(found)


def _mixed(word: str, language: str) -> bool:
    """Whether ``word`` holds a letter of the other alphabet that looks like one of
    ``language``'s, as typed, or in Russian a Cyrillic suit look-alike (a Cyrillic letter
    with none, Д or a small т, reads as it always did)."""
    twins = _twins(language)
    return any(c in twins for c in word)


def native(text: str, language: str) -> str:
    """The move typed, each card word that holds a letter of the other alphabet written as
    the one card it can be (``InvalidMoveError`` naming each when it can be two); a word it
    cannot be read as any card is left for the notation to refuse."""
    words = text.replace(",", " ").split()
    for i, word in enumerate(words[1:], 1):
        if not _mixed(word, language):
            continue
        cards = readings(word, language)
        if len(cards) == 1:
            words[i] = cards[0].code
        elif cards:
            raise InvalidMoveError(Text.of(
                "{text} could be {cards}: a Cyrillic letter and a Latin one look alike here; "
                "type {codes}", text=repr(word), cards=_either([str(c) for c in cards]),
                codes=_either([c.code for c in cards])))
    return " ".join(words)


def _either(names: list[str]) -> Text | str:
    """``A♠ or 10♠``; more, one after the other."""
    said: Text | str = names[-1]
    for name in reversed(names[:-1]):
        said = Text.of("{one} or {other}", one=name, other=said)
    return said


#: A word being typed this short may be the start of a card name ("Т" of "ТS", "1" of
#: "10D"): its letters are read one by one (``spellings``).
_START = 3


def spellings(word: str, language: str) -> frozenset[str]:
    """What a word of a move being typed may be in the notation, in small letters, read as the
    move will be read (``native``): as typed; each card it can be (both, where a look-alike
    makes it two: a suggestion picked says which), as its code and as shown (``10d``,
    ``10♦``); a start of a card name, each letter as the notation or its look-alike reads it
    (``Т``: т, and in Russian a; in English t, a, or 10 too)."""
    found = {small(word)}
    cards = readings(word, language) if _card_like(word) else []
    found |= {small(form) for c in cards for form in (c.code, str(c))}
    if not cards and len(word) <= _START:
        twins = _twins(language)
        found |= {"".join(letters) for letters in product(
            *({small(c), small(twins.get(c, c)), *_ranks(c), *_ranks(twins.get(c, c))}
              for c in word))}
    return frozenset(found)


def _card_like(word: str) -> bool:
    """Whether ``word`` could be a card name at all (not a move's verb or a number)."""
    return 2 <= len(word.replace("\ufe0f", "")) <= LONGEST


def _ranks(letter: str) -> set[str]:
    """The rank ``letter`` names in the notation, as its code (``Т``, ``A``: a; ``T``: 10)."""
    with suppress(UmtaliError):
        return {small(Card.parse(letter + "S").code[:-1])}
    return set()


def found_in(words: list[frozenset[str]], text: str) -> bool:
    """Whether ``text`` (a move as offered, lower case) holds the typed ``words`` (their
    ``spellings``) one after another, as the typed text would be found in it: a lone word
    anywhere in a word; else the first ending a word, the last beginning one, those between
    whole."""
    have = text.replace(",", " ").split()
    if not words:
        return True
    if len(words) == 1:
        return any(w in h for w in words[0] for h in have)
    *middle, last = words[1:]
    for i in range(len(have) - len(words) + 1):
        if (any(have[i].endswith(w) for w in words[0])
                and all(have[i + k] in forms for k, forms in enumerate(middle, 1))
                and any(have[i + len(words) - 1].startswith(w) for w in last)):
            return True
    return False
