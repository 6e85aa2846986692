"""``python -m data.backup`` where the copy cannot go: one sentence, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.backup import BackupError, backup
from data.store import Store


async def test_a_destination_under_a_file_is_refused_in_one_sentence(tmp_path: Path) -> None:
    live = tmp_path / "umtali.sqlite3"
    await (await Store.open(live)).close()
    (tmp_path / "notes").write_text("not a folder")
    with pytest.raises(BackupError, match=r"could not back up .* \(.*notes.*\)\.$"):
        backup(live, tmp_path / "notes" / "copy.sqlite3")
    assert (tmp_path / "notes").read_text() == "not a folder"
