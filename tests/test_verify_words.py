"""``python -m umtali verify`` of a deals file it can read as JSON but not as a deals file (a part
missing, a text where a number goes, an unknown rule), or of a seed Python cannot hold as a
number (past its 4,300 digits): one line in the reader's language with the status of bad input
(2), naming what is wrong; never Python's own words ("KeyError('salt')", "Exceeds the limit
(4300 digits)", "'int' object is not subscriptable", "RuleSet.__init__() got an unexpected
keyword argument")."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_fairness import replay_data
from umtali.cli import main

_, BASE = replay_data()
#: Python's words in a message: an exception's name or repr, or its phrases.
PYTHONS = re.compile(r"Error\b|Exceeds|subscriptable|iterable|invalid literal|unpack|__init__|"
                     r"keyword argument|not a valid|indices|object is not|int_max_str")


def _changed(path: tuple[Any, ...], value: Any = None, *, drop: bool = False) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    where = data
    for key in path[:-1]:
        where = where[key]
    if drop:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return data


READ = "cannot read the deals file: "
READ_RU = "не удаётся прочитать файл раздач: "
WRITTEN = "is not laid out as in a deals file (docs/REPLAY_FORMAT.md)"
WRITTEN_RU = "записан не так, как в файлах раздач (docs/REPLAY_FORMAT.md)"
CASES: dict[str, tuple[dict[str, Any], list[str], str, str]] = {
    "seed past Python's digits": (
        _changed(("reveal", "seed"), "9" * 5000), [],
        "cannot verify: the seed is too long: a number has at most 4300 digits",
        "проверить нельзя: зерно слишком длинное: в числе не больше 4300 цифр"),
    "--seed past Python's digits": (
        BASE, ["--seed", "7" * 4301],
        "cannot verify: the seed is too long: a number has at most 4300 digits",
        "проверить нельзя: зерно слишком длинное: в числе не больше 4300 цифр"),
    "no salt": (
        _changed(("reveal", "salt"), drop=True), [],
        READ + 'bad deals file: reveal has no "salt"',
        READ_RU + 'неверный файл раздач: в reveal нет "salt"'),
    "reveal a list": (
        _changed(("reveal",), [1]), [],
        READ + "bad deals file: reveal " + WRITTEN, READ_RU + "неверный файл раздач: reveal "
        + WRITTEN_RU),
    "no players": (
        _changed(("players",), drop=True), [],
        READ + 'bad deals file: no "players"', READ_RU + 'неверный файл раздач: нет "players"'),
    "one player": (
        _changed(("players",), ["ada"]), [],
        READ + "bad deals file: players " + WRITTEN,
        READ_RU + "неверный файл раздач: players " + WRITTEN_RU),
    "a hand's game a word": (
        _changed(("hands", 0, "game"), "first"), [],
        READ + "bad deals file: hands[0] " + WRITTEN,
        READ_RU + "неверный файл раздач: hands[0] " + WRITTEN_RU),
    "a hand's scores one number": (
        _changed(("hands", 1, "scores"), [3]), [],
        READ + "bad deals file: hands[1] " + WRITTEN,
        READ_RU + "неверный файл раздач: hands[1] " + WRITTEN_RU),
    "a hand without its deal": (
        _changed(("hands", 0, "deal"), drop=True), [],
        READ + 'bad deals file: hands[0] has no "deal"',
        READ_RU + 'неверный файл раздач: в hands[0] нет "deal"'),
    "a deal a number": (
        _changed(("hands", 0, "deal"), 5), [],
        READ + 'bad deal: a deal is an object with "dealer", "hands" (two lists of cards) and '
               '"stock"',
        READ_RU + 'неверная раздача: раздача — объект с "dealer", "hands" (два списка карт) и '
                  '"stock"'),
    "a first deal without hands": (
        _changed(("first_deal",), {"dealer": 0}), [],
        READ + 'bad deal: no "hands"', READ_RU + 'неверная раздача: нет "hands"'),
    "the dealer a word": (
        _changed(("dealer_draw", "dealer"), "ada"), [],
        READ + "bad deals file: dealer_draw " + WRITTEN,
        READ_RU + "неверный файл раздач: dealer_draw " + WRITTEN_RU),
    "the result a list": (
        _changed(("result",), [0, 1]), [],
        READ + "bad deals file: result " + WRITTEN,
        READ_RU + "неверный файл раздач: result " + WRITTEN_RU),
    "no dealer draw": (
        _changed(("dealer_draw",), drop=True), [],
        READ + 'bad deals file: no "dealer_draw"',
        READ_RU + 'неверный файл раздач: нет "dealer_draw"'),
    "rules a number": (
        _changed(("rules",), 5), [],
        READ + "bad rule set: the rules are an object, each rule by its name",
        READ_RU + "неверный набор правил: правила — объект, каждое правило под своим именем"),
    "an unknown rule": (
        _changed(("rules", "jokers"), 2), [],
        READ + 'bad rule set: there is no rule "jokers"',
        READ_RU + 'неверный набор правил: правила "jokers" нет'),
    "an unknown deal": (
        _changed(("rules", "deal"), "twelve"), [],
        READ + 'bad rule set: the rule deal cannot be "twelve"',
        READ_RU + 'неверный набор правил: правило deal не может быть "twelve"'),
    "no deal rule": (
        _changed(("rules", "deal"), drop=True), [],
        READ + 'bad rule set: no "deal"', READ_RU + 'неверный набор правил: нет "deal"'),
}


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _said(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any],
          options: list[str], lang: str) -> str:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    code = main(["verify", "--lang", lang, *options, str(path)], io.StringIO(), out)
    err = capsys.readouterr().err
    assert (code, out.getvalue()) == (2, ""), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err.rstrip("\n")


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_replay_that_reads_wrong_is_said_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        case: tuple[dict[str, Any], list[str], str, str]) -> None:
    data, options, english, russian = case
    said = _said(tmp_path, capsys, data, options, "en")
    assert not PYTHONS.search(said), said
    assert said == english
    said = _said(tmp_path, capsys, data, options, "ru")
    assert not PYTHONS.search(said), said
    assert said == russian
