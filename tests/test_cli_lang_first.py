"""``python -m umtali --lang ru play``: the language may be named before the command as well as
after it (it was refused as the command: "argument command: invalid choice: 'ru'")."""

from __future__ import annotations

import io

import pytest

from umtali.cli import main


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _said(argv: list[str]) -> str:
    out = io.StringIO()
    assert main(argv, io.StringIO("quit\n"), out) == 0
    return out.getvalue()


def test_lang_before_the_command_is_the_same_as_after_it() -> None:
    after = _said(["play", "--seed", "9", "--no-review", "--lang", "ru"])
    assert "До встречи." in after, after[-500:]
    assert _said(["--lang", "ru", "play", "--seed", "9", "--no-review"]) == after
    assert _said(["--lang=ru", "play", "--seed", "9", "--no-review"]) == after
    english = _said(["play", "--seed", "9", "--no-review"])
    assert english != after and "Bye." in english
    # Named twice, the command's own word is the last said: it wins.
    assert _said(["--lang", "en", "play", "--seed", "9", "--no-review", "--lang", "ru"]) == after
    assert _said(["--lang", "ru", "play", "--seed", "9", "--no-review", "--lang", "en"]) \
        == english


def test_lang_before_verify_tells_it_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--lang", "ru", "verify"], io.StringIO(""), io.StringIO())
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "python -m umtali verify: ошибка: не хватает аргументов: DEALS.json" in err, err
