"""``python -m umtali script --deal FILE`` and ``verify`` with a hostile file: bad input (exit
status 2 and one line on stderr), never a traceback; the dealer is exactly 0 or 1 and every card
a code."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.test_fairness import replay_data
from umtali.cli import main

DEAL = Path(__file__).parent.parent / "docs" / "examples" / "deal.json"


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _deal(change: Callable[[dict[str, Any]], None]) -> str:
    data: dict[str, Any] = json.loads(DEAL.read_text(encoding="utf-8"))
    change(data)
    return json.dumps(data)


HOSTILE: dict[str, str | bytes] = {
    "nested deep": "[" * 100_000 + "]" * 100_000,
    "not UTF-8": b"\xff\xfe{}",
    "dealer past 4300 digits": _deal(lambda d: d.update(dealer=0)).replace(
        '"dealer": 0', '"dealer": 1' + "0" * 5000),
    "dealer infinite": _deal(lambda d: d.update(dealer=0)).replace('"dealer": 0',
                                                                   '"dealer": 1e999'),
    "dealer a text": _deal(lambda d: d.update(dealer="x")),
    "dealer a fraction": _deal(lambda d: d.update(dealer=0.5)),
    "dealer true": _deal(lambda d: d.update(dealer=True)),
    "a card a number": _deal(lambda d: d["hands"][0].__setitem__(0, 5)),
    "the stock a text": _deal(lambda d: d.update(stock="4H KD")),
}


@pytest.mark.parametrize("content", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_deal_file_is_bad_input(tmp_path: Path, content: str | bytes,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    out = io.StringIO()
    assert main(["script", "--deal", str(path)], io.StringIO(), out) == 2
    err = capsys.readouterr().err
    assert err.startswith("cannot read the fixed deal: ") and err.count("\n") == 1
    assert out.getvalue() == ""


def test_a_card_written_as_a_number_in_a_replay_file_is_bad_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = replay_data()[1]
    data["hands"][0]["deal"]["hands"][0][0] = 5
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", "--lang", "ru", str(path)], io.StringIO(), io.StringIO()) == 2
    assert capsys.readouterr().err == (
        "не удаётся прочитать файл раздач: неверная раздача: каждая карта записывается кодом, "
        "например \"10D\"\n")


def test_the_example_deal_still_reads() -> None:
    out = io.StringIO()
    assert main(["script", "--deal", str(DEAL)], io.StringIO("meld 8d 9d 10d\n"), out) == 0
    assert "Player 1 melds 8♦ 9♦ 10♦" in out.getvalue()
