"""The terminal as a newcomer found it (review164): the whole table reprinted after each meld,
the hand announced twice, 'quit' ending the game unasked, no mark on a card just drawn, and
'up' said of a discard that goes face up anyway taken in silence."""

from __future__ import annotations

import io

from umtali.cli import main


def _play(typed: str, *extra: str) -> str:
    out = io.StringIO()
    assert main(["play", "--seed", "7", "--no-review", *extra], io.StringIO(typed), out) == 0
    return out.getvalue()


#: Seed 7: the player melds two groups, discards, the computer plays, the player draws 5♣.
TURNS = "meld 7s 7h 7c\nmeld 3h 3d 3c\ndiscard 8s\ndraw\n"


def test_after_a_meld_only_the_hand_and_the_moves() -> None:
    turns = _play(TURNS).split("Player> ")
    # The turn starts with the whole table.
    assert "Game 1, hand 1 (English rules)" in turns[0]
    assert turns[1] == ("Player melds 7♠ 7♥ 7♣, a group, +3.\n"
                        "Your hand: A♠ 8♠ K♠ 3♥ 3♦ A♣ 3♣ 10♣\n"
                        "Moves: 1) meld 3♥ 3♦ 3♣\n"), turns[1]
    # The next turn starts with it again, after the computer's.
    assert "Game 1, hand 1 (English rules)" in turns[3]
    assert "Computer's melds:" in turns[3]


def test_the_hand_is_announced_once() -> None:
    out = _play("")
    assert out.count("Game 1, hand 1") == 1, out
    assert "Game 1, hand 1 (English rules). Dealer: Computer." in out


def test_a_card_drawn_is_marked_as_on_discord() -> None:
    turns = _play(TURNS).split("Player> ")
    assert turns[4].startswith("Player draws from the stock (5♣).\n"
                               "Your hand: A♠ K♠ A♣ 5♣ (new) 10♣\n"), turns[4]
    russian = _play(TURNS, "--lang", "ru")
    assert "Ваши карты: A♠ K♠ A♣ 5♣ (новая) 10♣\n" in russian, russian


def test_quit_asks_as_resign_does() -> None:
    out = _play("quit\nno\nexit\nyes\n")
    assert out.count("Stop the game here? Type 'yes' to stop, anything else to play on:") == 2
    assert "Play goes on.\nPlayer> " in out
    assert out.endswith(": Bye.\n")
    # The end of input at the question ends the game as anywhere (Ctrl-D).
    out = _play("quit\n")
    assert out.endswith("to play on: \nBye.\n"), out
    russian = _play("выход\nнет\nвыход\nда\n", "--lang", "ru")
    assert russian.count("Закончить игру? Введите 'да'") == 2
    assert russian.endswith(": До встречи.\n")


def test_up_said_of_a_discard_that_goes_up_anyway() -> None:
    note = "(Every discard but a going-out one is laid face up: no need to say 'up'.)"
    out = _play("meld 7s 7h 7c\nmeld 3h 3d 3c\ndiscard 8s up\n")
    assert f"{note}\nPlayer discards 8♠." in out, out
    assert note not in _play("meld 7s 7h 7c\nmeld 3h 3d 3c\ndiscard 8s\n")
    russian = _play("выложить 7п 7ч 7т\nвыложить 3ч 3б 3т\nсбросить 8п в открытую\n",
                    "--lang", "ru")
    assert "«в открытую» (up) писать не нужно.)\nИгрок сбрасывает 8♠." in russian, russian


class Keyboard(io.StringIO):
    """Standard input that is a terminal: a person typing."""

    def isatty(self) -> bool:
        return True


def _typed_at_a_terminal(typed: str, *extra: str) -> str:
    out = io.StringIO()
    assert main(["play", "--seed", "7", "--no-review", "--no-handover", *extra], Keyboard(typed),
                out) == 0
    return out.getvalue()


def test_a_player_at_a_terminal_is_asked_their_name() -> None:
    # "Player melds...": the player read of themselves in the third person, as "Player".
    out = _typed_at_a_terminal("Аня\nmeld 7s 7h 7c\n")
    assert "Your name (Enter for 'Player'): Draw for first dealer: Аня 9♠" in out, out
    assert "Аня melds 7♠ 7♥ 7♣, a group, +3." in out
    assert "Games won: Аня: 0 – Computer: 0." in out
    # Enter keeps the default; the end of input ends the game as anywhere.
    assert "Player 9♠" in _typed_at_a_terminal("\n")
    assert _typed_at_a_terminal("").endswith("(Enter for 'Player'): \nBye.\n")
    # Two at one keyboard: both asked; one name for both is never kept.
    two = _typed_at_a_terminal("Аня\nаня\n", "--hotseat", "--lang", "ru")
    assert "Имя игрока на месте 2 (Enter — оставить 'Игрок 2'):" in two
    assert "Выиграно партий: Аня — 0, Игрок 2 — 0." in two, two
    # Named on the command line, nobody is asked.
    assert "Your name" not in _typed_at_a_terminal("", "--name", "Ben")
