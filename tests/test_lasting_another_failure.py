"""A run of failures said once (``cogs.umtali.lasting``): the database locked a while, the
leases' renewal and the timer check fail at every check, a WARNING at the first and DEBUG
after. A failure of another kind inside that run (a bug: a KeyError in the check of one
match, say, raised at every check) is no part of it: it is warned of, with its traceback,
once; left at DEBUG it would never reach the admin (the run never ends while it fails)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from cogs.umtali.lasting import Lasting

NAME = "cogs.umtali.test_lasting"


def _locked(path: Path) -> sqlite3.OperationalError:
    """SQLite's own "database is locked", from a file another connection writes to."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")
    try:
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            return e
        finally:
            other.close()
        raise AssertionError("the file was not locked")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _bug() -> KeyError:
    try:
        dict[int, int]()[7]
    except KeyError as e:
        return e
    raise AssertionError


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == NAME and r.levelno >= logging.WARNING]


def test_a_bug_inside_a_run_of_the_database_failing_is_warned_with_its_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=NAME)
    failing = Lasting(logging.getLogger(NAME), "timer check failed",
                      "the timer checks work again")
    locked = _locked(tmp_path / "umtali.sqlite3")
    failing.failed(locked)
    failing.failed(locked)
    assert len(_warnings(caplog)) == 1  # the database failing: said once
    for _ in range(3):
        failing.failed(_bug())  # a bug, at every check from now on
        failing.failed(locked)
    warned = _warnings(caplog)
    assert len(warned) == 2, [r.getMessage() for r in warned]
    assert "KeyError" in warned[1].getMessage() and warned[1].exc_info is not None
    failing.worked()
    assert any(r.levelno == logging.INFO and "work again" in r.getMessage()
               for r in caplog.records)


def test_another_bug_inside_a_run_of_one_is_warned_too(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=NAME)
    failing = Lasting(logging.getLogger(NAME), "the leases could not be renewed",
                      "the leases are renewed again")
    failing.failed(_bug())
    failing.failed(_bug())
    try:
        int("x")
    except ValueError as e:
        failing.failed(e)
        failing.failed(e)
    warned = _warnings(caplog)
    assert [r.exc_info[0] for r in warned if r.exc_info] == [KeyError, ValueError], \
        [r.getMessage() for r in warned]
