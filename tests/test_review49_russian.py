"""review49: the game read in Russian, as a Russian-speaking player reads it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_helpers import World, manager
from umtali.cards import Card
from umtali.cli import main
from umtali.events import GameEnded, HandEnd, HandEnded, SessionEnded
from umtali.i18n import EN, tr_for
from umtali.text import describe

RU = tr_for("ru")
NAMES = ("Маша", "Alice")


def _went_out(leftover: int) -> HandEnded:
    """Маша went out; Alice was left holding ``leftover`` points."""
    return HandEnded(game=1, hand=2, reason=HandEnd.WENT_OUT, went_out=0, melded=(20, 9),
                     leftover=leftover, scores=(20 + leftover, 9), game_scores=(40, 30),
                     left_in_hand=((), (Card.parse("KS"),)))


@pytest.mark.parametrize(("points", "words"), [
    (1, "1 очко"), (2, "2 очка"), (4, "4 очка"), (5, "5 очков"), (11, "11 очков"),
    (12, "12 очков"), (21, "21 очко"), (22, "22 очка"), (25, "25 очков")],
    ids=lambda value: str(value) if isinstance(value, int) else "")
def test_the_points_for_cards_left_are_said_in_russian_with_their_noun(
        points: int, words: str) -> None:
    # "Маша выходит и получает 11 за карты…" left the points without their noun: a number
    # with no unit after "получает" (English "scores 11 for cards left" needs none).
    said = describe(_went_out(points), NAMES, RU).splitlines()[0]
    # The name after a dash, not in brackets (review164: «(Компьютер (лёгкий))»).
    assert f"Маша выходит и получает {words} за карты, оставшиеся на руке у соперника — " \
        "Alice." in said, said
    english = describe(_went_out(points), ("Ada", "Ben"), EN).splitlines()[0]
    assert f"Ada went out and scores {points} for the cards Ben still holds." in english


def test_a_sessions_score_is_written_as_its_games_are_in_russian() -> None:
    # Game 3 ended "107:90" (the winner's score first, as the session's line below it,
    # "Alice выигрывает матч 2:1"; review147: in the seats' order, "90:107" read as the other
    # winning), the games each beside its player's name: a hyphen between two numbers reads as
    # a range in Russian, where a score takes a colon.
    game = describe(GameEnded(game=3, scores=(90, 107), winner=1, games_won=(1, 2)), NAMES, RU)
    # (fix186: each figure after its name, "Маша — 1, Alice — 2", as the table says them)
    assert game == "Партию 3 выигрывает Alice, 107:90. Партии: Маша — 1, Alice — 2.", game
    won = describe(SessionEnded(winner=1, games_won=(1, 2)), NAMES, RU)
    assert won == "Alice выигрывает матч 2:1.", won
    resigned = describe(SessionEnded(winner=1, games_won=(0, 1), how="resigned"), NAMES, RU)
    assert resigned == "Alice выигрывает матч 1:0 (Маша сдаётся).", resigned
    assert describe(SessionEnded(winner=1, games_won=(1, 2)), ("Ada", "Ben"), EN) == \
        "Ben wins the session 2-1."



def _said(result: Any) -> str:
    assert result.ephemeral and result.response is not None
    return str(result.response.content or "")


async def test_the_settings_name_the_servers_language_in_the_readers_words(
        world: World, locales: dict[int, str]) -> None:
    # The language stood in the sentence by its own name, capitalised as a menu's choice:
    # "язык — Русский", "язык — как на сервере (English)"; and "language Русский" in English.
    boss = manager(world)
    locales[boss.id] = "ru"
    said = _said(await boss.slash(world.channel, "umtali-admin settings"))
    # (the seasons too, off here: the settings as they are)
    assert said.endswith("- Картинки: включены\n- Язык: как на сервере (английский)\n"
                         "Таблица лидеров:\n- Сезоны: выключены"), said
    said = _said(await boss.slash(world.channel, "umtali-admin settings", language="ru"))
    assert said.endswith("- Картинки: включены\n- Язык: русский\nТаблица лидеров:\n"
                         "- Сезоны: выключены"), said
    locales[boss.id] = "en-US"
    said = _said(await boss.slash(world.channel, "umtali-admin settings"))
    assert said.endswith("- Pictures: on\n- Language: Russian\nLeaderboard:\n- Seasons: off"), \
        said


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_the_terminal_commands_help_is_in_the_language_the_game_speaks(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The Russian README sends a player to `python -m umtali play --help` for every option:
    # a Russian one (--lang ru, or a Russian terminal) read it all in English.
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    said = _help(["play", "--lang", "ru", "--help"], capsys)
    assert "использование: python -m umtali play" in said, said
    assert "--hotseat двое за одной клавиатурой" in said, said
    assert "-h, --help показать эту справку и выйти" in said, said
    assert "keyboard" not in said and "options:" not in said, said
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    said = _help(["verify", "--help"], capsys)
    assert "DEALS.json файл раздач матча" in said, said
    assert ("Код выхода: 0 — честно, 1 — расхождение, 2 — нет вердикта (неверные входные "
            "данные, или вердикт не удалось вывести).") in said, said
    # English as before.
    monkeypatch.setenv("LANG", "C.UTF-8")
    said = _help(["play", "--help"], capsys)
    assert "usage: python -m umtali play" in said, said
    assert "--hotseat two people at one keyboard" in said, said
    assert "-h, --help show this help message and exit" in said, said
