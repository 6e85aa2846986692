"""The cut is the bot's word: Discord's app shows no player the id of their click, so the one
part of it a player can check is the time a Discord id carries. ``verify`` prints that time
(in English and Russian), as docs/FAIR_DEALS.md step 4 says, and the docs say what is left
unprovable."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest

from umtali.cli import main
from umtali.fairness import commit
from umtali.replay import from_session
from umtali.rules import RuleSet
from umtali.seeds import cut_time
from umtali.session import Session

ROOT = Path(__file__).resolve().parent.parent
CLICKED = dt.datetime(2026, 12, 2, 15, 1, 2, 345000, tzinfo=dt.UTC)
#: A click's id as Discord makes one at CLICKED: the milliseconds since 2015 above 22 bits
#: of Discord's counters.
CUT = str(((int(CLICKED.timestamp() * 1000) - 1_420_070_400_000) << 22) | 0x2A5F1)


def cut_file(tmp_path: Path) -> Path:
    seed, salt = "0f" * 16, "ab" * 16
    data = from_session(Session(RuleSet.english(), f"{seed}/{CUT}"), ("ada", "ben"),
                        commit(seed, salt), cut=CUT)
    data["reveal"] = {"seed": seed, "salt": salt}
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "it says the click was made at 2026-12-02 15:01:02.345 UTC"),
    ("ru", "по нему видно, что нажатие сделано в 2026-12-02 15:01:02.345 UTC"),
])
def test_verify_prints_the_time_the_cut_carries(tmp_path: Path, lang: str, said: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["verify", "--lang", lang, str(cut_file(tmp_path))], out) == 0
    printed = out.getvalue() + capsys.readouterr().out
    assert said in printed, printed


def test_a_cut_that_names_no_time_prints_none() -> None:
    assert cut_time(CUT) == "2026-12-02 15:01:02.345"
    assert cut_time("9" * 30) is None and cut_time("12a") is None


@pytest.mark.parametrize(("doc", "quoted", "unprovable"), [
    ("FAIR_DEALS.md", "it says the click was made at ... UTC",
     "that an empty cut is the id of your submit"),
    ("FAIR_DEALS.ru.md", "по нему видно, что нажатие сделано в … UTC",
     "что пустое снятие — это номер вашей отправки"),
])
def test_the_docs_quote_that_line_and_say_the_cut_is_the_bots_word(
        doc: str, quoted: str, unprovable: str) -> None:
    text = " ".join((ROOT / "docs" / doc).read_text(encoding="utf-8").split())
    assert quoted in text and unprovable in text
    # Not the claim the first version made: the bot reports the cut, nobody can check it.
    assert "the bot can neither choose nor foresee" not in text
    assert "бот не может ни выбрать, ни предугадать" not in text
