"""docs/FAIR_DEALS.md and FAIR_DEALS.ru.md followed word by word: the commands they give run as
written, the check in English needs nothing but Python's standard library, and the mismatch
they quote is what ``verify`` says of that change."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_fairness import replay_data
from umtali.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = {"en": ROOT / "docs" / "FAIR_DEALS.md", "ru": ROOT / "docs" / "FAIR_DEALS.ru.md"}
FILE = "umtali-42-deals.json"


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _written(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / FILE
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _commands(text: str) -> list[list[str]]:
    """Every ``... -m umtali verify ...`` the text gives, as words after ``verify``."""
    found = re.findall(r"(?:python3?|\.venv/bin/python) -m umtali verify([^`\n]*)", text)
    return [shlex.split(words) for words in found]


@pytest.mark.parametrize("lang", DOCS)
def test_each_documented_command_runs_as_written(tmp_path: Path, lang: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    commands = _commands(DOCS[lang].read_text(encoding="utf-8"))
    assert len(commands) >= 2
    path = _written(tmp_path, replay_data()[1])
    monkeypatch.chdir(tmp_path)  # the file named as the docs name it
    for words in commands:
        out = io.StringIO()
        assert main(["verify", *words], io.StringIO(), out) == 0, words
        assert path.name in words
        assert "FAIR" in out.getvalue() or "ЧЕСТНО" in out.getvalue()


def test_the_options_the_docs_name_are_the_commands(tmp_path: Path) -> None:
    seed, data = replay_data()
    path = _written(tmp_path, data)
    out = io.StringIO()
    code = main(["verify", "--commitment", str(data["commitment"]), "--seed", str(seed),
                 "--salt", data["reveal"]["salt"], str(path)], io.StringIO(), out)
    assert code == 0 and "FAIR:" in out.getvalue()


def test_the_check_in_english_needs_only_the_standard_library(tmp_path: Path) -> None:
    """"In English it needs nothing but Python 3.11 or newer, no installation": no site
    packages (``-S``), no environment (``-E``), from the project's directory."""
    path = _written(tmp_path, replay_data()[1])
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("PYTHON")}
    done = subprocess.run([sys.executable, "-S", "-E", "-s", "-m", "umtali", "verify", str(path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "FAIR: the cards came from the seed committed to before play." in done.stdout


@pytest.mark.parametrize(("lang", "quoted"), [
    ("en", r"\(`(Game 1, hand 3: bo's hand \(seat 1\)[^`]*)`\)"),
    ("ru", r"\(`(Партия 1, раздача 3: карты на месте 1 \(bo\)[^`]*)`\)"),
])
def test_the_quoted_mismatch_is_what_verify_says(tmp_path: Path, lang: str, quoted: str) -> None:
    text = " ".join(DOCS[lang].read_text(encoding="utf-8").split())
    match = re.search(quoted, text)
    assert match, "the docs quote a mismatch"
    data = replay_data()[1]
    deal = next(h for h in data["hands"] if (h["game"], h["hand"]) == (1, 3))["deal"]
    # One card of seat 1's hand traded with the top of the stock.
    deal["hands"][1][0], deal["stock"][0] = deal["stock"][0], deal["hands"][1][0]
    out = io.StringIO()
    code = main(["verify", "--lang", lang, str(_written(tmp_path, data))], io.StringIO(), out)
    assert code == 1
    assert match.group(1) in out.getvalue()
