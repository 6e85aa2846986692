"""``/umtali play``'s suggestions read what is typed as the move will be read
(``umtali.letters``, in the member's language): a Cyrillic С or Н typed for the Latin suit
letter (a Russian layout left on) finds the moves with that card; the Russian card letters
(Т for туз, the ace) find theirs; a Cyrillic Т typed by a member reading English, which the
move would refuse as A or 10, suggests both readings, so that picking one says which (its
value is the plain notation). A card being typed (its first letter) is read the same way."""

from __future__ import annotations

from cogs.umtali.commands import move_choices
from tests.discord_helpers import World, player, start_match, thread_of
from umtali.cards import CARDS
from umtali.codec import session_from_json, session_to_json
from umtali.i18n import EN, tr_for
from umtali.rules import RuleSet
from umtali.session import Session
from umtali.view import PlayerView

HAND = ["AC", "2C", "3C", "4C", "10S", "10H", "10C", "KS"]
RU = tr_for("ru")
#: Cyrillic letters: Т (an ace in the notation, like T a ten), С (like C), Н (like H).
T, C, H = "\u0422", "\u0421", "\u041d"


def _view() -> PlayerView:
    """The seat to act in its meld phase, holding ``HAND`` (melding optional: a discard is
    a move too)."""
    session = Session(RuleSet.english(optional_melding=True), 0)
    seat = session.to_act
    data = session_to_json(session)
    h = data["hand"]
    rest = [c.code for c in CARDS if c.code not in HAND]
    h["melds"], h["plays"], h["points"] = [], [], [0, 0]
    h["hands"] = [HAND, rest[:10]] if seat == 0 else [rest[:10], HAND]
    h["discard"], h["stock"] = rest[10:12], rest[12:]
    h.update(phase="meld", turn=seat, taken=None, must_meld=[], drawn=[], face_down=False)
    return session_from_json(data).view(seat)


def _offered(typed: str, lang: str = "en") -> set[str]:
    return {c.value for c in move_choices(_view(), typed, EN if lang == "en" else RU)}


ACES = {"meld AC 2C 3C", "meld AC 2C 3C 4C", "discard AC"}
TENS = {"meld 10S 10H 10C", "discard 10C"}


def test_the_legal_moves_are_as_expected() -> None:
    assert _offered("") >= ACES | TENS


def test_a_cyrillic_suit_letter_finds_its_card() -> None:
    assert _offered(f"meld A{C} 2{C}") == {"meld AC 2C 3C", "meld AC 2C 3C 4C"}
    assert _offered(f"meld A{C} 2{C}", "ru") == {"meld AC 2C 3C", "meld AC 2C 3C 4C"}
    assert _offered(f"meld 10S 10{H}") == {"meld 10S 10H 10C"}
    assert _offered(f"discard 10{C}") == {"discard 10C"}
    # Lower case, comma and all, as the move reads them.
    assert _offered(f"meld a{C.lower()}, 2c") == {"meld AC 2C 3C", "meld AC 2C 3C 4C"}


def test_the_russian_ace_letter_is_an_ace_in_russian_and_either_in_english() -> None:
    # Russian: Т is туз, the ace (a Cyrillic С its suit).
    assert _offered(f"{T}{C}", "ru") == ACES
    assert _offered(f"discard {T}{C}", "ru") == {"discard AC"}
    # English: the Т looks like T (a ten), and the move would be refused naming both; its
    # suggestions offer both, and picking one plays that one.
    assert _offered(f"{T}{C}") == ACES | TENS
    assert _offered(f"discard {T}{C}") == {"discard AC", "discard 10C"}
    # A Latin T typed in Russian is either too (it looks like Т).
    assert _offered("discard TC", "ru") == {"discard AC", "discard 10C"}


def test_a_card_being_typed_is_read_the_same_way() -> None:
    assert _offered(f"meld {T}", "ru") == {"meld AC 2C 3C", "meld AC 2C 3C 4C"}
    assert _offered(f"meld {T}") == {"meld AC 2C 3C", "meld AC 2C 3C 4C", "meld 10S 10H 10C"}
    assert _offered(f"discard 10{C}") == {"discard 10C"}
    assert _offered("discard K") == {"discard KS"}


def test_words_that_read_as_nothing_offer_nothing() -> None:
    assert _offered(f"meld {T}{T}") == set()
    assert _offered("discard 5") == set()
    assert _offered("\u017f") == set()  # a long s is no S


async def test_on_discord_a_cyrillic_suit_letter_finds_the_move(world: World) -> None:
    live = await start_match(world)
    seat = live.session.to_act
    thread = thread_of(world, live)
    # A move with a club or a heart, typed up to that card with its Cyrillic look-alike.
    wanted = next(str(m) for m in live.session.legal_moves() if "C" in str(m) or "H" in str(m))
    words = wanted.split()
    at = next(i for i, w in enumerate(words) if i and w[-1] in "CH")
    prefix = " ".join(words[:at + 1])
    typed = prefix[:-1] + {"C": C, "H": H}[prefix[-1]]
    choices = await player(world, seat).autocomplete(thread, "umtali play", "move", typed)
    values = [c["value"] for c in choices]
    assert wanted in values and all(v.startswith(prefix) for v in values), (typed, values)
