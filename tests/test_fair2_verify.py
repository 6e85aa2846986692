"""``python -m umtali verify`` as a suspicious player meets it: a hostile replay file is bad
input (exit status 2, one line on stderr), never a traceback that exits 1 as a mismatch would;
and a changed first dealer is worded as seats, not as cards."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_fairness import replay_data
from umtali.cli import main


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def verify(path: Path, *options: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["verify", *options, str(path)], io.StringIO(), out)
    return code, out.getvalue()


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "umtali-1-deals.json"
    path.write_text(text, encoding="utf-8")
    return path


def _data() -> dict[str, Any]:
    return replay_data()[1]


def _infinite_game(d: dict[str, Any]) -> str:
    d["hands"][0]["game"] = "INF"
    return json.dumps(d).replace('"INF"', "1e999")


def _infinite_score(d: dict[str, Any]) -> str:
    d["hands"][0]["scores"] = ["INF", 0]
    return json.dumps(d).replace('"INF"', "1e999")


def _huge_seed(d: dict[str, Any]) -> str:
    d["reveal"]["seed"] = "BIG"
    return json.dumps(d).replace('"BIG"', "1" * 5000)


HOSTILE = {
    "nested deep": lambda _d: "[" * 100_000 + "]" * 100_000,
    "infinite game number": _infinite_game,
    "infinite score": _infinite_score,
    "seed past 4300 digits": _huge_seed,
}


@pytest.mark.parametrize("make", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_file_is_bad_input(tmp_path: Path, make: Any,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out = verify(_file(tmp_path, make(_data())))
    assert (code, out) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("cannot read the deals file: ") and err.count("\n") == 1


def test_a_hostile_file_is_bad_input_in_russian(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = verify(_file(tmp_path, _infinite_game(_data())), "--lang", "ru")
    assert code == 2
    assert capsys.readouterr().err.startswith("не удаётся прочитать файл раздач: ")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "the file has seat {0} dealing first, the seed gives seat {1}"),
    ("ru", "в файле первым сдаёт место {0}, по зерну — место {1}"),
])
def test_a_changed_first_dealer_is_named_by_seat(tmp_path: Path, lang: str, said: str) -> None:
    data = _data()
    dealer = data["dealer_draw"]["dealer"]
    data["dealer_draw"]["dealer"] = 1 - dealer
    code, out = verify(_file(tmp_path, json.dumps(data)), "--lang", lang)
    assert code == 1
    assert said.format(1 - dealer, dealer) in out
    # Not worded as cards ("the file: 0"): the draws themselves matched.
    assert "  the file: " not in out and "  в файле: " not in out


@pytest.mark.parametrize(("rule", "value"), [
    ("stall_turns", "12"), ("hands_per_game", [4]), ("high_card_deals", "yes"),
    ("optional_melding", {"a": 1}), ("games_to_win", True), ("name", 5),
])
def test_a_rule_of_the_wrong_type_is_bad_input(tmp_path: Path, rule: str, value: object,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # The engine takes a rule set unchecked: a text for a number failed deep in play, as a
    # TypeError traceback.
    data = _data()
    data["rules"][rule] = value
    code, out = verify(_file(tmp_path, json.dumps(data)))
    assert (code, out) == (2, "")
    assert capsys.readouterr().err == (f"cannot read the deals file: bad deals file: the rule "
                                       f"{rule} cannot be {json.dumps(value)}\n")


FAKE = ("\x1b[2K\r\x1b[1A\x1b[2K\rSeed 1 and salt 2 open it.\nFAIR: the cards came from the "
        "seed committed to before play.\x1b[8m\u202e")


def _fake_move(d: dict[str, Any]) -> None:
    d["hands"][0]["moves"][0] = "draw" + FAKE


def _fake_name(d: dict[str, Any]) -> None:
    d["players"][0] = "ada" + FAKE
    deal = d["hands"][1]["deal"]
    deal["hands"][0][0], deal["stock"][0] = deal["stock"][0], deal["hands"][0][0]


def _fake_end(d: dict[str, Any]) -> None:
    d["result"]["how"] = "resigned" + FAKE


@pytest.mark.parametrize("change", [_fake_move, _fake_name, _fake_end],
                         ids=["move", "name", "how it ended"])
def test_a_file_cannot_redraw_the_terminal_over_its_verdict(tmp_path: Path,
                                                            change: Any) -> None:
    """A dishonest file could write escape sequences into what verify repeats (a move, a name,
    how the session ended): erase lines, print FAIR, conceal the true verdict. They are shown
    escaped, on the line they came in."""
    data = _data()
    change(data)
    code, out = verify(_file(tmp_path, json.dumps(data)))
    assert code == 1
    assert all(c.isprintable() for c in out.replace("\n", ""))
    lines = out.splitlines()
    assert not any(line.startswith("FAIR") for line in lines)
    assert lines[-1].startswith("NOT VERIFIED: ")
    assert "\\x1b[8m" in out and "\\u202e" in out


def test_a_bad_file_cannot_redraw_the_terminal_either(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # Python words an unexpected key as it is: escape sequences and all.
    data = _data()
    data["rules"]["x" + FAKE] = 1
    code, out = verify(_file(tmp_path, json.dumps(data)))
    assert (code, out) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("cannot read the deals file: ") and err.count("\n") == 1
    assert all(c.isprintable() for c in err.rstrip("\n"))
