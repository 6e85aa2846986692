"""The terminal's command line, read wrong, is told in the language the terminal speaks: that of
a ``--lang`` on the line, else the terminal's locale (as its help), argparse's own words too."""

from __future__ import annotations

import argparse
import io

import pytest

from umtali.cli import main


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv, io.StringIO(""), io.StringIO())
    assert stopped.value.code == 2
    return capsys.readouterr().err


@pytest.fixture
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.mark.usefixtures("english_terminal")
def test_a_bad_command_line_with_lang_ru_is_told_in_russian(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["play", "--lang", "ru", "--level", "hardest"], capsys)
    assert err.startswith("использование: python -m umtali play"), err
    assert ("python -m umtali play: ошибка: аргумент --level: недопустимое значение: "
            "'hardest' (можно: 'easy', 'hard', 'normal', 'random')") in err, err
    err = _refused(["play", "--lang", "ru", "--colour"], capsys)
    assert "python -m umtali: ошибка: неизвестные аргументы: --colour" in err, err
    err = _refused(["play", "--lang", "ru", "--name"], capsys)
    assert "ошибка: аргумент --name: нужно одно значение" in err, err
    err = _refused(["play", "--lang", "ru", "--hotseat=yes"], capsys)
    assert "ошибка: аргумент --hotseat: лишнее значение 'yes'" in err, err
    # argparse's words are its own again once the line is read.
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]


def test_the_russian_terminal_tells_a_bad_command_line_in_russian(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    err = _refused(["verify"], capsys)
    assert "python -m umtali verify: ошибка: не хватает аргументов: DEALS.json" in err, err
    err = _refused([], capsys)
    assert err.startswith("использование: python -m umtali"), err
    assert "python -m umtali: ошибка: не хватает аргументов: command" in err, err


@pytest.mark.usefixtures("english_terminal")
def test_english_stays_english(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["play", "--level", "hardest"], capsys)
    assert err.startswith("usage: python -m umtali play"), err
    assert ("python -m umtali play: error: argument --level: invalid choice: 'hardest' "
            "(choose from 'easy', 'hard', 'normal', 'random')") in err, err
