"""A card typed at the terminal with a letter of the other alphabet that looks like one of the
game's own: a Cyrillic Т looks like the Latin T, but the notation reads it as an ace (туз)
where T is a ten. Typed in the English game (a Russian keyboard layout left on), it must not
silently be an ace; typed in the Russian game, a Latin T must not silently be a ten. Either
way the game refuses it, naming both readings; a look-alike with one reading (a Cyrillic С
for C, a Latin B for В) is read as it looks. Letters are judged as typed: the small т and t
(nor в and b) do not look alike, so a small letter is read as itself: ``ts`` in the Russian
game is 10♠ (the ASCII notation), ``тs`` in the English one A♠ (туз), ``bs`` no card.

Seed 5's first hand, after the draw (the hand: 5♠ 9♠ J♥ 5♦ K♦ A♣ 2♣ 3♣ 7♣ J♣ K♣ and a
drawn card): "You don't hold X" shows which card a typed word was read as."""

from __future__ import annotations

import io

import pytest

from umtali.cli import main

CYRILLIC_T, CYRILLIC_t = "\u0422", "\u0442"
CYRILLIC_C, CYRILLIC_A, CYRILLIC_B, CYRILLIC_K = "\u0421", "\u0410", "\u0412", "\u041a"
CYRILLIC_c, CYRILLIC_a = "\u0441", "\u0430"
CYRILLIC_H, CYRILLIC_h, CYRILLIC_D, CYRILLIC_S = "\u041d", "\u043d", "\u0414", "\u0405"


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def answers(typed: list[str], *options: str) -> list[str]:
    """What the game answers each line typed after the first draw."""
    out = io.StringIO()
    code = main(["play", "--seed", "5", "--level", "easy", "--no-review", *options],
                io.StringIO("\n".join(["draw", *typed, "quit"]) + "\n"), out)
    assert code == 0
    said = out.getvalue().split("> ")[2:]  # after the answer to the draw
    return [s.splitlines()[0] for s in said[:len(typed)]]


def test_a_cyrillic_t_in_the_english_game_is_refused_with_both_readings() -> None:
    assert answers([f"discard {CYRILLIC_T}S", f"discard {CYRILLIC_T}s"]) == [
        f"'{CYRILLIC_T}S' could be A♠ or 10♠: a Cyrillic letter and a Latin one look alike "
        "here; type AS or 10S.",
        f"'{CYRILLIC_T}s' could be A♠ or 10♠: a Cyrillic letter and a Latin one look alike "
        "here; type AS or 10S."]


def test_a_small_cyrillic_t_in_the_english_game_is_an_ace() -> None:
    # A small т looks like no small t: it is туз, as the notation reads it.
    assert answers([f"discard {CYRILLIC_t}s", f"discard {CYRILLIC_t}S"]) == [
        "You don't hold A♠."] * 2


def test_a_cyrillic_t_in_a_meld_is_refused_and_nothing_is_played() -> None:
    said = answers([f"meld {CYRILLIC_T}♣ 2♣ 3♣", "meld A♣ 2♣ 3♣"])
    assert said[0] == (f"'{CYRILLIC_T}♣' could be A♣ or 10♣: a Cyrillic letter and a Latin one "
                       "look alike here; type AC or 10C.")
    # The refusal changed nothing: the meld it may have meant is still to be made.
    assert said[1] == "Player melds A♣ 2♣ 3♣, a sequence, +3."


def test_a_latin_t_in_the_english_game_is_a_ten() -> None:
    assert answers(["discard TS", "discard 10S"]) == ["You don't hold 10♠."] * 2


@pytest.mark.parametrize(("typed", "card"), [
    (f"10{CYRILLIC_C}", "10♣"),  # Cyrillic С: only the Latin C reads
    (f"{CYRILLIC_A}S", "A♠"),  # Cyrillic А: only the Latin A reads
    (f"{CYRILLIC_B}S", "J♠"),  # Cyrillic В: валет, as before (a Latin B is no rank)
    (f"{CYRILLIC_K}S", "K♠"),  # К and K: a king either way
    (f"10{CYRILLIC_c}", "10♣"),  # small с and c look alike too
    (f"{CYRILLIC_a}s", "A♠"),  # small а and a too
])
def test_a_look_alike_with_one_reading_is_read_as_it_looks(typed: str, card: str) -> None:
    assert answers([f"discard {typed}"]) == [f"You don't hold {card}."]


def test_a_latin_t_in_the_russian_game_is_refused_with_both_readings() -> None:
    assert answers(["discard TS", "discard Ts"], "--lang", "ru") == [
        "'TS' можно прочитать как A♠ или 10♠: русская и латинская буквы здесь выглядят "
        "одинаково; введите AS или 10S.",
        "'Ts' можно прочитать как A♠ или 10♠: русская и латинская буквы здесь выглядят "
        "одинаково; введите AS или 10S."]


def test_a_small_latin_letter_in_the_russian_game_is_read_as_typed() -> None:
    # A small t looks like no small т: the ASCII notation's ten. A small b looks like ь, not
    # в: no rank, as ever.
    said = answers(["discard ts", "discard td", "discard bs"], "--lang", "ru")
    assert said[:2] == ["У вас нет 10♠.", "У вас нет 10♦."]
    assert said[2].startswith("'bs' — не карта"), said[2]


def test_the_russian_game_reads_its_own_letters_as_before() -> None:
    assert answers([f"discard {CYRILLIC_T}S", f"discard {CYRILLIC_B}S", "discard 10S",
                    "discard BS", "discard 10C"], "--lang", "ru") == [
        "У вас нет A♠.", "У вас нет J♠.", "У вас нет 10♠.", "У вас нет J♠.", "У вас нет 10♣."]


@pytest.mark.parametrize(("typed", "card"), [
    (f"10{CYRILLIC_C}", "10♣"),  # Cyrillic С: no suit, no rank; only the Latin C reads
    (f"{CYRILLIC_K}{CYRILLIC_H}", "K♥"),  # a Russian layout: К and Н
    (f"{CYRILLIC_T}{CYRILLIC_H}", "A♥"),  # Т stays туз: the suit letter is no rank
    (f"{CYRILLIC_D}{CYRILLIC_c}", "Q♣"),  # small с and c look alike
    (f"{CYRILLIC_H}{CYRILLIC_K}", "K♥"),  # suit first, as ♥K
    (f"10{CYRILLIC_S}", "10♠"),  # Ѕ (no Russian letter, but no other reading either)
    (f"Q{CYRILLIC_H}", "Q♥"),  # a Latin rank, a Cyrillic suit
])
def test_a_cyrillic_suit_look_alike_in_the_russian_game_is_that_suit(typed: str,
                                                                     card: str) -> None:
    # No Cyrillic letter is a suit, nor С, Н or Ѕ a rank: each can only be its Latin twin.
    assert answers([f"discard {typed}"], "--lang", "ru") == [f"У вас нет {card}."]


def test_a_cyrillic_suit_look_alike_in_the_russian_game_with_an_ambiguous_rank() -> None:
    # A Latin T is still a ten or an ace: refused naming both, the suit read either way.
    said = answers([f"discard T{CYRILLIC_C}", f"discard 10{CYRILLIC_h}"], "--lang", "ru")
    assert said[0] == (f"'T{CYRILLIC_C}' можно прочитать как A♣ или 10♣: русская и латинская "
                       "буквы здесь выглядят одинаково; введите AC или 10C."), said[0]
    # A small н is a small capital, unlike h: judged as typed, no suit.
    assert said[1].startswith(f"'10{CYRILLIC_h}' — не карта"), said[1]


def test_the_help_says_how_look_alikes_read_in_each_language() -> None:
    english = io.StringIO()
    main(["play", "--seed", "5", "--no-review"], io.StringIO("help\nquit\n"), english)
    assert "a capital Cyrillic Т is refused" in " ".join(english.getvalue().split())
    russian = io.StringIO()
    main(["play", "--seed", "5", "--no-review", "--lang", "ru"], io.StringIO("help\nquit\n"),
         russian)
    said = " ".join(russian.getvalue().split())
    assert "заглавная латинская T не принимается" in said, said
    assert "Строчная t — десятка" in said, said
    assert "Русские С и Н (и строчная с) читаются как масти C и H." in said, said


def test_readings_of_a_word() -> None:
    from umtali.letters import readings

    # The unit under the game: each letter of the other alphabet read as itself and as its
    # look-alike; the game's own letters as they are.
    assert [c.code for c in readings(f"{CYRILLIC_T}S", "en")] == ["AS", "10S"]
    assert [c.code for c in readings("TS", "en")] == ["10S"]
    assert [c.code for c in readings("TS", "ru")] == ["AS", "10S"]
    assert [c.code for c in readings(f"{CYRILLIC_T}S", "ru")] == ["AS"]
    # Judged as typed: a small letter by its small twin, where there is one.
    assert [c.code for c in readings("ts", "ru")] == ["10S"]
    assert [c.code for c in readings(f"{CYRILLIC_t}s", "en")] == ["AS"]
    assert [c.code for c in readings("BS", "ru")] == ["JS"]
    assert readings("bs", "ru") == []
    assert [c.code for c in readings(f"10{CYRILLIC_c}", "en")] == ["10C"]
    assert readings("XYZ", "en") == []
    # The Russian game: a Cyrillic suit look-alike is its Latin suit, a small one only where
    # the small letters look alike too.
    assert [c.code for c in readings(f"{CYRILLIC_K}{CYRILLIC_C}", "ru")] == ["KC"]
    assert [c.code for c in readings(f"10{CYRILLIC_c}", "ru")] == ["10C"]
    assert [c.code for c in readings(f"T{CYRILLIC_H}", "ru")] == ["AH", "10H"]
    assert readings(f"10{CYRILLIC_h}", "ru") == []
