"""review168's findings on fix181/fix183: the bench and soak bots start beside a played
checkout database; the PostgreSQL check reads the checkout's file only when about to refuse,
and refuses for now (exit 1) a server out of reach; and a start the setting lets make a new
database says so."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

import data.left_behind as left_behind
from data.db import Database, DatabaseUnreachable
from data.left_behind import NEW_DATABASE, LeftBehind, refuse_left_behind
from tests.loopback.harness import ROOT, BotProcess
from tests.loopback.server import LoopbackDiscord
from tests.loopback.soak import Soak
from tests.pg_server import PgServer
from tests.test_fix183_left_behind import old_db as old_db  # a played checkout database

OUT_OF_REACH = "postgresql://u:p@127.0.0.1:1/x"


async def _starts(bot: BotProcess, database: str | Path) -> None:
    """The start's check, with the settings the bot process is given (not the test's own)."""
    await refuse_left_behind(database, dict(bot.env), bot.workdir)


async def test_the_bench_and_soak_bots_start_beside_a_played_checkout_database(
        old_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NEW_DATABASE, raising=False)  # (tests/conftest.py sets it)
    monkeypatch.setattr(sys, "path", [str(ROOT / "bench"), *sys.path])  # as the bench runs
    from load_processes import Backend, bot_processes
    server = LoopbackDiscord()
    backend = Backend("sqlite", tmp_path)
    for bot in bot_processes(server, backend, 2):
        await _starts(bot, bot.db_path)
    soak = Soak(server, tmp_path / "soak", 1, say=lambda _: None)
    for bot in soak.bots:
        await _starts(bot, bot.db_path)
    # (on PostgreSQL too: the throwaway database has no tables yet)
    pg = Soak(server, tmp_path / "soak-pg", 1, say=lambda _: None, database=OUT_OF_REACH)
    await _starts(pg.bots[0], OUT_OF_REACH)


async def test_a_postgresql_server_out_of_reach_is_refused_for_now_beside_a_played_file(
        old_db: Path, tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnreachable, match="cannot be reached") as refused:
        await refuse_left_behind(OUT_OF_REACH, {}, tmp_path)
    assert not isinstance(refused.value, LeftBehind)
    assert "u:p@" not in str(refused.value)
    # Only then: the file with no match in it, or a new database on purpose, let it pass
    # (the start itself then says the server is out of reach).
    await refuse_left_behind(OUT_OF_REACH, {NEW_DATABASE: "1"}, tmp_path)
    old_db.unlink()
    await refuse_left_behind(OUT_OF_REACH, {}, tmp_path)


@pytest.mark.postgresql
async def test_the_checkout_file_is_read_only_when_about_to_refuse(
        old_db: Path, tmp_path: Path, postgres_server: PgServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await postgres_server.admin("CREATE DATABASE fix184_migrated")
    migrated = postgres_server.url("fix184_migrated")
    await (await Database.open(migrated)).close()
    read: list[Path] = []
    counted = left_behind.matches_in

    def matches_in(path: Path) -> int | None:
        read.append(path)
        return counted(path)

    monkeypatch.setattr(left_behind, "matches_in", matches_in)
    await refuse_left_behind(migrated, {}, tmp_path)
    assert read == []
    await postgres_server.admin("DROP DATABASE fix184_migrated WITH (FORCE)")


async def test_a_new_database_made_on_purpose_beside_a_played_one_is_said(
        old_db: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="data.left_behind")
    new = tmp_path / "new.sqlite3"
    await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new), NEW_DATABASE: "1"}, tmp_path)
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert said == [("WARNING", f"starting a new empty database at {new} as {NEW_DATABASE} "
                     f"asks; {old_db} holds 1 match (remove the setting once started)")], said
    caplog.clear()
    new.touch()  # made: its later starts are not a new database
    await refuse_left_behind(new, {"UMTALI_DB_PATH": str(new), NEW_DATABASE: "1"}, tmp_path)
    assert caplog.records == []
