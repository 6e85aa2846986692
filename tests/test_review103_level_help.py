"""review103: ``python -m umtali play --help`` said the computer's level is "easy, normal
(default) or hard", while ``--level`` takes ``random`` too (README names it): the help's words
now name every level the option takes, in each language the terminal speaks."""

from __future__ import annotations

import re

import pytest

from umtali.cli import LEVELS, main


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_level_help_names_every_level(language: str, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit) as done:
        main(["play", "--lang", language, "--help"])
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    # The option's own words: after its list of choices, up to the next option.
    found = re.search(r"--level \{[a-z,]+\} (.*?) --", said)
    assert found is not None, said
    words = found[1]
    assert {level for level in LEVELS if re.search(rf"\b{level}\b", words)} == set(LEVELS), words
