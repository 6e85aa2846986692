"""The terminal's leftovers (fix186): a quit word given as ``--name`` is refused as a usage
error, as the name's question refuses it (fix179); the game's and the hand's end lines put each
figure after its name and a colon, as the table does (fix177): "Player 1 0 – 0 Player 2" ran a
name's digit into its score."""

from __future__ import annotations

import io

import pytest

from umtali.cli import main
from umtali.events import GameEnded, HandEnd, HandEnded
from umtali.i18n import EN, tr_for
from umtali.text import describe

NAMES = ("Player 1", "Player 2")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(("name", "lang"), [("quit", "en"), (" EXIT ", "en"), ("выход", "ru"),
                                            ("Выйти", "en")])
def test_a_quit_word_is_no_name_on_the_command_line(
        name: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--lang", lang, "play", "--seed", "7", "--no-review", "--name", name],
             io.StringIO("quit\nyes\n"), io.StringIO())
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    said = repr(name.strip())
    assert (f"argument --name: {said} is a word that stops the game, not a name: choose another"
            if lang == "en" else
            f"{said} — это слово для выхода из игры, а не имя: выберите другое") in err, err


def test_a_name_that_only_starts_with_a_quit_word_is_kept() -> None:
    out = io.StringIO()
    assert main(["play", "--seed", "7", "--no-review", "--name", "quit melds"],
                io.StringIO("quit\nyes\n"), out) == 0
    assert "Games won: quit melds: 0 – Computer: 0." in out.getvalue(), out.getvalue()


def test_the_games_after_a_game_put_each_figure_after_its_name() -> None:
    ended = GameEnded(game=1, scores=(10, 105), winner=1, games_won=(0, 1))
    assert describe(ended, NAMES, EN) == (
        "Game 1 to Player 2, 105-10. Games: Player 1: 0 – Player 2: 1.")
    assert describe(ended, NAMES, tr_for("ru")) == (
        "Партию 1 выигрывает Player 2, 105:10. Партии: Player 1 — 0, Player 2 — 1.")


def test_the_scores_after_a_hand_put_each_figure_after_its_name() -> None:
    ended = HandEnded(game=1, hand=2, reason=HandEnd.WENT_OUT, went_out=0, melded=(30, 5),
                      leftover=12, scores=(42, 5), game_scores=(60, 21), left_in_hand=((), ()))
    head = describe(ended, NAMES, EN).splitlines()[0]
    assert head.endswith(
        "Hand: Player 1: 42 – Player 2: 5. Game: Player 1: 60 – Player 2: 21."), head
    head = describe(ended, NAMES, tr_for("ru")).splitlines()[0]
    assert head.endswith(
        "Раздача: Player 1 — 42, Player 2 — 5. Партия: Player 1 — 60, Player 2 — 21."), head
