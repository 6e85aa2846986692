"""Two people at one keyboard (``play --hotseat``): as the turn passes, the hand just played is
cleared off the terminal and the next hand waits for Enter, so that neither player sees the
other's cards on the shared screen."""

from __future__ import annotations

import io
import re

import pytest

from umtali.cli import CLEAR_SCREEN, main, terminal_language

HANDOVER = re.compile(r"(Player [12]) to play: the other player looks away")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


class Terminal(io.StringIO):
    """Standard output that is a terminal."""

    def isatty(self) -> bool:
        return True


def hotseat(typed: str, *options: str, out: io.StringIO | None = None) -> str:
    out = out if out is not None else io.StringIO()
    code = main(["play", "--seed", "9", "--hotseat", *options], io.StringIO(typed), out)
    assert code == 0
    return out.getvalue()


def test_each_hand_is_shown_only_after_its_player_takes_the_keyboard() -> None:
    # Enter, then always move 1 (and Enter at each handover, which any line answers).
    out = hotseat("1\n" * 200 + "quit\n", "--handover")
    parts = HANDOVER.split(out)
    assert len(parts) > 5, "the turn passed several times"
    # parts: text before the first handover, then (name, what follows) pairs.
    assert "Your hand:" not in parts[0]
    for name, shown in zip(parts[1::2], parts[2::2], strict=True):
        prompts = set(re.findall(r"(Player [12])> ", shown))
        assert prompts <= {name}, f"{name}'s screen shows another's prompt: {prompts}"


def test_a_terminal_is_cleared_before_the_next_player_comes() -> None:
    out = hotseat("\n1\n1\nquit\n", "--handover", out=Terminal())
    before, after = out.split(CLEAR_SCREEN, 1)[0], out.rsplit(CLEAR_SCREEN, 1)[1]
    assert "Your hand:" not in before
    assert out.count(CLEAR_SCREEN) == 2  # the first player's turn, then the second's
    assert after.lstrip().startswith("Player 2 to play")


def test_end_of_input_at_the_handover_says_bye() -> None:
    assert hotseat("", "--handover").endswith("Bye.\n")


def test_in_russian() -> None:
    out = hotseat("\nquit\n", "--handover", "--lang", "ru")
    assert "Ходит Игрок 1: второй игрок отворачивается, а Игрок 1 нажимает Enter." in out


def test_piped_input_has_no_handover_by_default() -> None:
    # Scripts feeding moves keep working: the handover is for people at a terminal.
    out = hotseat("1\n1\n1\nquit\n")
    assert not HANDOVER.search(out) and "Player 2> " in out


def test_a_drawn_seed_is_said_only_when_play_stops() -> None:
    """Either player could replay a seed elsewhere and read the other's hand: hotseat, a seed
    drawn by the game is not shown before play stops; then it deals the same cards again."""
    out = io.StringIO()
    assert main(["play", "--hotseat"], io.StringIO("1\n1\nquit\n"), out) == 0
    text = out.getvalue()
    assert text.startswith("Umtali. Type 'help' for the notation.\n")
    told = re.search(r"The seed was (\d+): '--seed \1' deals these hands again\.\n$", text)
    assert told, text[-300:]
    before = text[:told.start()]
    assert told.group(1) not in before
    again = hotseat_with_seed(told.group(1), "1\n1\nquit\n")
    assert again.split("\n", 1)[1] == before.split("\n", 1)[1]


def hotseat_with_seed(seed: str, typed: str) -> str:
    out = io.StringIO()
    assert main(["play", "--hotseat", "--seed", seed], io.StringIO(typed), out) == 0
    return out.getvalue()


def test_a_seed_drawn_is_said_at_the_end_of_input_too_in_russian() -> None:
    out = io.StringIO()
    assert main(["play", "--hotseat", "--lang", "ru"], io.StringIO(""), out) == 0
    # "До встречи." first, as quit says it, then the seed.
    said = r"\nДо встречи\.\nЗерно было (\d+): с '--seed \1' будут сданы те же карты\.\n$"
    assert re.search(said, out.getvalue())


def test_a_seed_given_or_against_the_computer_is_said_at_the_start() -> None:
    assert hotseat_with_seed("9", "quit\n").startswith("Umtali, seed 9.")
    out = io.StringIO()
    assert main(["play", "--level", "easy", "--no-review"], io.StringIO("quit\n"), out) == 0
    assert re.match(r"Umtali, seed \d+\.", out.getvalue())


@pytest.mark.parametrize("word", ["quit", "EXIT", "  quit  "])
def test_quit_at_the_handover_ends_the_game(word: str) -> None:
    # Typed where the next player is asked to press Enter, quit quits: it is not an Enter that
    # puts the next hand on the screen.
    out = hotseat(f"{word}\nyes\n\n1\n1\n", "--handover")  # asked first (fix179)
    assert out.endswith("Bye.\n") and "Your hand:" not in out.split("Bye.")[0]
    assert "Player 2>" not in out and "Player 1>" not in out


@pytest.mark.parametrize(("value", "lang"), [("ru_RU.UTF-8", "ru"), ("ru.UTF-8", "ru"),
                                             ("ru@euro", "ru"), ("ru", "ru"), ("C.UTF-8", "en"),
                                             ("en_GB.UTF-8", "en"), ("", "en")])
def test_the_terminals_locale_with_or_without_a_territory(value: str, lang: str) -> None:
    assert terminal_language({"LANG": value}) == lang


def test_each_player_is_told_the_others_whole_turn_once_they_have_the_keyboard() -> None:
    """What the other player did while this one looked away (their draw from the stock, the
    card they took from the pile, their melds), told once this one has the keyboard, as the
    bot tells it in the channel: the handover showed the last move alone (review108)."""
    out = hotseat("1\n" * 200 + "quit\n", "--handover")
    parts = HANDOVER.split(out)
    screens = list(zip(parts[1::2], parts[2::2], strict=True))
    assert len(screens) > 5
    # From the third handover on, the other player has had a turn with a draw or a take (but
    # for the first turn of a hand, which has none).
    told = 0
    for name, shown in screens[2:]:
        other = "Player 1" if name == "Player 2" else "Player 2"
        turn = shown.split(f"{name}> ", 1)[0]
        if " deals." in turn:
            continue
        told += 1
        assert re.search(rf"{other} (draws from the stock|takes )", turn), \
            f"{name} was not told how {other}'s turn began: {turn!r}"
        assert not re.search(rf"{other} draws from the stock \(", turn), \
            f"{name} was told the card {other} drew"
    assert told > 5


def test_without_the_handover_each_event_is_said_once() -> None:
    """One screen for both (``--no-handover``, piped input's default): nothing is told again
    as the turn passes (review109)."""
    out = hotseat("1\n" * 40 + "quit\n", "--no-handover")
    assert out.count("Draw for first dealer") == 1
    melds = re.findall(r"Player [12] melds [^\n]*", out)
    assert melds and len(melds) == len(set(melds)), melds


class _CtrlC(io.StringIO):
    """A keyboard whose next line is a Ctrl-C."""

    # (typeshed: StringIO.readline clashes with IOBase.readline, returning bytes.)
    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_says_bye_on_its_own_line_then_the_seed() -> None:
    # The terminal shows "^C" after the prompt: "Bye." on the next line, then the seed, as
    # quit has them.
    out = io.StringIO()
    assert main(["play", "--hotseat"], _CtrlC(), out) == 0
    text = out.getvalue()
    assert re.search(r"Player [12]> \nBye\.\nThe seed was (\d+): '--seed \1' deals these hands "
                     r"again\.\n$", text), text[-200:]
