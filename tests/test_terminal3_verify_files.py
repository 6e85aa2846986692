"""``python -m umtali verify`` given something that is not a deals file to read (a picture, a
file that is not there, a folder, an empty file, broken JSON) says what is wrong in one line of
the reader's language, with the status of bad input (2): never Python's own words ("'utf-8'
codec can't decode byte 0x89", "[Errno 2] No such file or directory")."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.test_fairness import replay_data
from umtali.cli import main


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def refused(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    out = io.StringIO()
    code = main(["verify", *options, str(path)], io.StringIO(), out)
    assert (code, out.getvalue()) == (2, "")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err.rstrip("\n")


def picture(tmp_path: Path) -> Path:
    path = tmp_path / "deals.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    return path


def folder(tmp_path: Path) -> Path:
    path = tmp_path / "replays"
    path.mkdir()
    return path


def empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    return path


def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "umtali-replay",\n  "version" 2\n}\n', encoding="utf-8")
    return path


def missing(tmp_path: Path) -> Path:
    return tmp_path / "no-such-replay.json"


CASES = {
    "binary": (picture, "cannot read the deals file: it is not text: a deals file is JSON "
                        "text in UTF-8, as the bot sends it",
               "не удаётся прочитать файл раздач: это не текст: файл раздач — текст JSON в "
               "UTF-8, каким его присылает бот"),
    "missing": (missing, "cannot read the deals file: there is no file {path}",
                "не удаётся прочитать файл раздач: файла {path} нет"),
    "folder": (folder, "cannot read the deals file: {path} is a folder, not a file",
               "не удаётся прочитать файл раздач: {path} — папка, а не файл"),
    "empty": (empty, "cannot read the deals file: the file is empty",
              "не удаётся прочитать файл раздач: файл пуст"),
    "broken": (broken, "cannot read the deals file: it is not JSON: the first mistake is on "
                       "line 3, column 13",
               "не удаётся прочитать файл раздач: это не JSON: первая ошибка в строке 3, "
               "столбце 13"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_file_that_cannot_be_read_is_said_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        case: tuple[object, str, str]) -> None:
    make, english, _ = case
    path = make(tmp_path)  # type: ignore[operator]
    assert refused(path, capsys) == english.format(path=repr(str(path)))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_file_that_cannot_be_read_is_said_in_russian(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        case: tuple[object, str, str]) -> None:
    make, _, russian = case
    path = make(tmp_path)  # type: ignore[operator]
    assert refused(path, capsys, "--lang", "ru") == russian.format(path=repr(str(path)))


def test_a_file_name_cannot_redraw_the_terminal(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # The name is the reader's own, but it may come from elsewhere (an attachment's name).
    path = tmp_path / "\x1b[2Jfake\u202e.json"
    err = refused(path, capsys)
    assert all(c.isprintable() for c in err), err
    assert "\\x1b[2Jfake\\u202e.json" in err


def test_a_real_replay_file_still_reads(tmp_path: Path) -> None:
    # The check of the tests above: the same reading gives a verdict on a good file.
    path = tmp_path / "good.json"
    path.write_text(json.dumps(replay_data()[1]), encoding="utf-8")
    out = io.StringIO()
    assert main(["verify", str(path)], io.StringIO(), out) == 0
    assert out.getvalue().splitlines()[-1].startswith("FAIR")


def test_a_replay_saved_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    # Windows Notepad's "UTF-8 with BOM": the same JSON, three bytes before it.
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(replay_data()[1]).encode("utf-8"))
    out = io.StringIO()
    assert main(["verify", str(path)], io.StringIO(), out) == 0, out.getvalue()
    assert out.getvalue().splitlines()[-1].startswith("FAIR")


def under_a_file(tmp_path: Path) -> Path:
    # ENOTDIR: a part of the path is a file, so nothing can be under it.
    (tmp_path / "plainfile").write_bytes(b"")
    return tmp_path / "plainfile" / "replay.json"


def too_long(tmp_path: Path) -> Path:
    return tmp_path / ("r" * 300 + ".json")  # ENAMETOOLONG: past a name's 255 bytes


def a_loop(tmp_path: Path) -> Path:
    # ELOOP: none of the named cases, so the words for any other failure to open.
    path = tmp_path / "loop.json"
    path.symlink_to(path)
    return path


OS_CASES = {
    "under a file": (under_a_file, "cannot read the deals file: there is no file {path}",
                     "не удаётся прочитать файл раздач: файла {path} нет"),
    "name too long": (too_long, "cannot read the deals file: the file name is too long: {path}",
                      "не удаётся прочитать файл раздач: слишком длинное имя файла: {path}"),
    "other": (a_loop, "cannot read the deals file: cannot open {path}",
              "не удаётся прочитать файл раздач: не удаётся открыть {path}"),
}


@pytest.mark.parametrize("case", OS_CASES.values(), ids=OS_CASES.keys())
def test_any_file_that_cannot_be_opened_is_said_in_the_readers_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        case: tuple[object, str, str]) -> None:
    make, english, russian = case
    path = make(tmp_path)  # type: ignore[operator]
    assert refused(path, capsys) == english.format(path=repr(str(path)))
    assert refused(path, capsys, "--lang", "ru") == russian.format(path=repr(str(path)))


def huge_number(tmp_path: Path) -> Path:
    path = tmp_path / "number.json"  # past Python's 4,300 digits: a ValueError of its own
    path.write_text("[" + "9" * 5000 + "]", encoding="utf-8")
    return path


def nested(tmp_path: Path) -> Path:
    path = tmp_path / "nested.json"  # a RecursionError in the JSON reader
    path.write_text("[" * 100_000, encoding="utf-8")
    return path


HOSTILE = {
    "huge number": (huge_number, "cannot read the deals file: it holds a number too long for "
                                 "a deals file",
                    "не удаётся прочитать файл раздач: в нём число, слишком длинное для файла "
                    "раздач"),
    "nested": (nested, "cannot read the deals file: it is nested too deep for a deals file",
               "не удаётся прочитать файл раздач: в нём слишком глубокая вложенность для файла "
               "раздач"),
}


@pytest.mark.parametrize("case", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_file_is_said_in_the_readers_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        case: tuple[object, str, str]) -> None:
    make, english, russian = case
    path = make(tmp_path)  # type: ignore[operator]
    assert refused(path, capsys) == english
    assert refused(path, capsys, "--lang", "ru") == russian
