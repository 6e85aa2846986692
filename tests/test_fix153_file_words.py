"""One name for each file, in every text that names one: the **replay file** is the session's
moves (``umtali-N-replay.txt``, "файл записи"), the **deals file** the JSON that
``python -m umtali verify`` checks (``umtali-N-deals.json``, "файл раздач"); the file that
``script --deal`` reads is a **fixed deal** ("заданная раздача"), a third thing."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest

from cogs.umtali.fair import practice_seats_line, seats_line
from cogs.umtali.rules_text import pages
from tests.discord_helpers import World, start_match, thread_of
from tests.test_records_discord import resign
from umtali.cli import main
from umtali.errors import InvalidStateError
from umtali.i18n import tr_for
from umtali.replay import from_json

ROOT = Path(__file__).resolve().parent.parent


def _verify(path: Path, lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["verify", "--lang", lang, str(path)], io.StringIO(), io.StringIO()) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "cannot read the deals file: it is not text: a deals file is JSON text in UTF-8"),
    ("ru", "не удаётся прочитать файл раздач: это не текст: файл раздач — текст JSON в UTF-8"),
])
def test_verify_names_the_deals_file(tmp_path: Path, lang: str, said: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.json"
    path.write_bytes(b"\x89PNG\r\n")
    assert _verify(path, lang, capsys).startswith(said)
    path.write_text('{"format": "umtali-replay", "version": 1}', encoding="utf-8")
    err = _verify(path, lang, capsys)
    assert err.startswith({"en": "cannot read the deals file: bad deals file:",
                           "ru": "не удаётся прочитать файл раздач: неверный файл раздач:"}[lang])
    assert "replay" not in err and "записи" not in err


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "not an Umtali deals file"), ("ru", "это не файл раздач Умтали")])
def test_the_engine_names_the_deals_file(lang: str, said: str) -> None:
    with pytest.raises(InvalidStateError) as e:
        from_json({})
    assert tr_for(lang)(e.value.text).startswith(said)


def test_the_fixed_deal_is_not_called_a_deal_file(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text("[]", encoding="utf-8")
    assert main(["script", "--deal", str(path)], io.StringIO(), io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("cannot read the fixed deal: ")
    assert main(["script", "--lang", "ru", "--deal", str(path)], io.StringIO(),
                io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("не удаётся прочитать заданную раздачу: ")


@pytest.mark.parametrize(("lang", "deals"), [("en", "deals file"), ("ru", "файл")])
def test_the_seats_and_the_rules_name_the_deals_file(lang: str, deals: str) -> None:
    tr = tr_for(lang)
    # The seats in verify's very words (review164: the file's order is told in
    # docs/FAIR_DEALS.md, not in a newcomer's first message).
    assert seats_line(1, 2, tr) == tr("Seats: {first} seat 0 (draws first for dealer), "
                                      "{second} seat 1.", first="<@1>", second="<@2>")
    assert "(the deals" not in practice_seats_line(tr) and "файл" not in practice_seats_line(tr)
    last = pages(tr)[-1][1]
    assert {"en": "every deal with the deals file", "ru": "по файлу раздач"}[lang] in last, last
    assert {"en": "replay file", "ru": "файл записи"}[lang] in last, last


async def test_the_final_card_and_the_history_say_which_file_checks(
        world: World, locales: dict[int, str]) -> None:
    live = await start_match(world)
    await resign(world, world.bob, live)
    final = [e for m in thread_of(world, live).history() for e in m.embeds
             if any(f.name == "Fair deals" for f in e.fields)]
    fair = next(f.value for f in final[-1].fields if f.name == "Fair deals")
    assert ("**Session files** below sends the session's replay file (its moves) and its deals "
            "file, which `python3 -m umtali verify` checks.") in (fair or ""), fair
    history = await world.alice.slash(world.channel, "umtali history")
    footer = history.response.embeds[0].footer.text or ""
    assert footer == "Choose a session below to get its replay file and its deals file.", footer
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    said = chosen.response.content or ""
    assert said.endswith(": its replay file (the moves) and its deals file (checked with "
                         "`python3 -m umtali verify`):"), said
    names = sorted(a.filename for a in chosen.response.attachments)
    assert names == [f"umtali-{live.id}-deals.json", f"umtali-{live.id}-replay.txt"]

    # History is the member's own: in their client's language.
    locales[world.alice.user.id] = "ru"
    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    said = chosen.response.content or ""
    assert "файл записи (ходы) и файл раздач" in said, said


def test_copy_to_postgres_says_what_a_refusal_of_replace_means() -> None:
    done = subprocess.run(["make", "-n", "--no-print-directory", "copy-to-postgres",
                           "TO=postgresql://umtali@db/umtali", "REPLACE=0", "VPY=python"],
                          cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode != 0
    assert "keep its rows" not in done.stderr, done.stderr
    assert "without REPLACE, a database that holds rows is refused" in done.stderr, done.stderr
