"""A start that would make a new, empty database while the checkout's data/umtali.sqlite3 holds
matches (a new service unit's UMTALI_DB_PATH, a start from another directory, a PostgreSQL URL
before copy-to-postgres) is refused in one sentence, exit status 2, and makes nothing."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from fnmatch import fnmatch
from pathlib import Path

import pytest

import data.left_behind as left_behind
import tests.test_startup
from data.db import Database
from data.left_behind import NEW_DATABASE, LeftBehind, matches_in, refuse_left_behind
from data.location import DEFAULT_DB_PATH
from data.process_name import lock_file
from tests.loopback.harness import ROOT, loopback_server
from tests.pg_server import PgServer
from tests.test_startup import run_bot


def _played(path: Path, migrated_file: Path, matches: int = 1) -> Path:
    """A copy of the migrated database holding ``matches`` finished matches."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated_file, path)
    with closing(sqlite3.connect(path)) as db, db:
        for _ in range(matches):
            db.execute("INSERT INTO matches (guild_id, channel_id, player0_id, player1_id, "
                       "player0_name, player1_name, status, variant, turn_timer, state, "
                       "created_at) VALUES (1, 2, 3, 4, 'a', 'b', 'finished', 'classic', 300, "
                       "'{}', 0)")
    return path


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A checkout of its own, so that its data/umtali.sqlite3 is the test's: data/ and the
    launcher copied (each finds the checkout from its own file), the rest linked."""
    root = tmp_path / "checkout"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in ("data", "tests") and not entry.name.startswith("."):
            (root / entry.name).symlink_to(entry)
    (root / "data").mkdir()
    for module in (ROOT / "data").glob("*.py"):
        shutil.copyfile(module, root / "data" / module.name)
    (root / "tests" / "loopback").mkdir(parents=True)
    shutil.copyfile(ROOT / "tests" / "__init__.py", root / "tests" / "__init__.py")
    for module in (ROOT / "tests" / "loopback").glob("*.py"):
        if module.name == "launch.py":
            shutil.copyfile(module, root / "tests" / "loopback" / module.name)
        else:
            (root / "tests" / "loopback" / module.name).symlink_to(module)
    monkeypatch.setattr(tests.test_startup, "LAUNCHER", root / "tests" / "loopback" / "launch.py")
    # tests/conftest.py sets it for every other test (a developer's own data/ holds matches).
    monkeypatch.delenv(NEW_DATABASE, raising=False)
    yield root


async def test_a_new_db_path_beside_the_checkouts_played_database_is_refused(
        checkout: Path, migrated_file: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    old = _played(checkout / "data" / "umtali.sqlite3", migrated_file, matches=3)
    state = tmp_path / "var-lib-umtali"  # the new unit's StateDirectory, made by systemd
    state.mkdir()
    new = state / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server:
        status, err = await run_bot(server, new, checkout, PYTHONPATH=str(checkout))
        assert (server.identifies, server.calls) == (0, [])
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0] == (
        f"error: UMTALI_DB_PATH names {new}, which does not exist yet, but {old} holds 3 "
        f"matches: copy it there first, as the bot's user, in {checkout}: "
        f"UMTALI_DB_PATH={old} make backup DEST={new} (or sqlite3 {old} \".backup {new}\"), "
        f"or set UMTALI_DB_PATH back to {old}; to start an empty database at {new} on "
        f"purpose, set {NEW_DATABASE}=1 for its first start.")
    # Nothing made: no database, no lock file beside it.
    assert list(state.iterdir()) == []
    # The checkout's read, never written (a checkout the unit keeps read-only, or root's files).
    assert matches_in(old) == 3
    assert not any(Path(f"{old}{end}").exists() for end in ("-wal", "-shm", "-journal"))


async def test_the_default_path_from_another_directory_is_refused(
        checkout: Path, migrated_file: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    old = _played(checkout / "data" / "umtali.sqlite3", migrated_file)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with loopback_server(monkeypatch) as server:
        status, err = await run_bot(server, Path("unset"), elsewhere, PYTHONPATH=str(checkout),
                                    UMTALI_DB_PATH="")
        assert (server.identifies, server.calls) == (0, [])
    assert status == 2, err
    assert err.strip() == (
        f"error: the bot was started in {elsewhere}, where it would make a new empty database "
        f"{elsewhere / 'data' / 'umtali.sqlite3'}, but its database {old} holds 1 match: "
        f"start it in {checkout} (as make run does; a service's WorkingDirectory=), or set "
        f"UMTALI_DB_PATH={old}; to start an empty database on purpose, set {NEW_DATABASE}=1 "
        f"for its first start."), err
    assert list(elsewhere.iterdir()) == []


@pytest.fixture
def old_db(tmp_path: Path, migrated_file: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The checkout's default database, here a played one of the test's."""
    old = _played(tmp_path / "checkout" / "data" / "umtali.sqlite3", migrated_file)
    monkeypatch.setattr(left_behind, "CHECKOUT_DB_PATH", old)
    return old


async def test_what_is_let_start(old_db: Path, tmp_path: Path, migrated_file: Path) -> None:
    new = tmp_path / "new.sqlite3"
    with pytest.raises(LeftBehind):
        await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new)}, tmp_path)
    # On purpose; the checkout's own database (by a relative path too); one that exists.
    await refuse_left_behind(new, {NEW_DATABASE: "1"}, tmp_path)
    await refuse_left_behind(Path("data/umtali.sqlite3"), {}, old_db.parent.parent)
    await refuse_left_behind(old_db, {"UMTALI_DB_PATH": str(old_db)}, tmp_path)
    new.touch()
    await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new)}, tmp_path)
    # A checkout's database with no match in it (started once, never played) is no loss.
    with closing(sqlite3.connect(old_db)) as db, db:
        db.execute("DELETE FROM matches")
    await refuse_left_behind(tmp_path / "other.sqlite3", {"UMTALI_DB_PATH": "x"}, tmp_path)


async def test_matches_still_in_the_write_ahead_log_are_counted(tmp_path: Path,
                                                                 migrated_file: Path) -> None:
    path = _played(tmp_path / "killed.sqlite3", migrated_file, matches=0)
    with closing(sqlite3.connect(path)) as db:  # a bot killed with these not yet folded back
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA wal_autocheckpoint = 0")
        with db:
            db.execute("INSERT INTO matches (guild_id, channel_id, player0_id, player1_id, "
                       "player0_name, player1_name, status, variant, turn_timer, state, "
                       "created_at) VALUES (1, 2, 3, 4, 'a', 'b', 'finished', 'classic', 300, "
                       "'{}', 0)")
        assert Path(f"{path}-wal").stat().st_size > 0
        assert matches_in(path) == 1


async def test_an_unreadable_checkout_database_counts_as_played(old_db: Path,
                                                                tmp_path: Path) -> None:
    old_db.write_bytes(b"not a database" * 1000)
    new = tmp_path / "new.sqlite3"
    with pytest.raises(LeftBehind, match="may hold the bot's matches"):
        await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new)}, tmp_path)


@pytest.mark.postgresql
async def test_an_empty_postgresql_database_beside_a_played_sqlite_one_is_refused(
        old_db: Path, tmp_path: Path, postgres_server: PgServer) -> None:
    await postgres_server.admin("CREATE DATABASE fix183_empty")
    await postgres_server.admin("CREATE DATABASE fix183_migrated")
    empty, migrated = postgres_server.url("fix183_empty"), postgres_server.url("fix183_migrated")
    await (await Database.open(migrated)).close()
    with pytest.raises(LeftBehind) as refused:
        await refuse_left_behind(empty, {}, tmp_path)
    said = str(refused.value)
    assert said.startswith("the PostgreSQL database ") and f"make copy-to-postgres FROM={old_db}" \
        in said, said
    await refuse_left_behind(migrated, {}, tmp_path)  # already the bot's
    await refuse_left_behind(empty, {NEW_DATABASE: "1"}, tmp_path)
    # Out of reach: refused for now (tests/test_fix184_review168.py).
    for name in ("fix183_empty", "fix183_migrated"):
        await postgres_server.admin(f"DROP DATABASE {name} WITH (FORCE)")


async def test_the_copy_the_refusal_asks_for_is_then_started_on(
        old_db: Path, tmp_path: Path) -> None:
    state = tmp_path / "var-lib-umtali"
    state.mkdir(mode=0o700)
    new = state / "umtali.sqlite3"
    with pytest.raises(LeftBehind, match="make backup"):
        await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new)}, tmp_path)
    # As the sentence says: UMTALI_DB_PATH=<old> make backup DEST=<new> (make runs this).
    env = {**os.environ, "UMTALI_DB_PATH": str(old_db), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "data.backup", str(new)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert matches_in(new) == matches_in(old_db) == 1
    await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new)}, tmp_path)


def test_the_readmes_move_to_the_unit_is_what_the_unit_and_the_bot_use() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    unit = (ROOT / "docs" / "examples" / "umtali.service").read_text("utf-8")
    steps = readme.split("Moving to this unit", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    state = "/var/lib/umtali"
    assert "StateDirectory=umtali\n" in unit and "StateDirectoryMode=0700\n" in unit
    assert f"Environment=UMTALI_DB_PATH={state}/umtali.sqlite3\n" in unit
    # (made whether or not the unit already ran once and made it: mkdir would fail then)
    assert f"sudo install -d -m 700 -o umtali -g umtali {state} " in steps
    assert "User=umtali\n" in unit and "Group=umtali\n" in unit
    # The glob moves the database, its write-ahead log and every lock file named after it.
    moved = f"sudo mv {DEFAULT_DB_PATH}* {state}/"
    assert moved in steps
    for beside in (f"{DEFAULT_DB_PATH}-wal", f"{DEFAULT_DB_PATH}-shm",
                   str(lock_file(DEFAULT_DB_PATH, "main"))):
        assert fnmatch(beside, f"{DEFAULT_DB_PATH}*"), beside
    assert f"UMTALI_DB_PATH={state}/umtali.sqlite3" in steps
    assert "daemon-reload" in steps and steps.index("sudo systemctl stop") < steps.index("mv")
    assert f"{NEW_DATABASE}=1" in readme
