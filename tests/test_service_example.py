"""The systemd unit in docs/examples agrees with the bot it runs: the command `make run`
runs, the exit statuses that a restart cannot mend, a stop timeout above the bot's own close,
and the one directory it writes, outside the checkout (its code stays read-only)."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot import EXIT_DATABASE_ERROR, EXIT_FOR_NOW, EXIT_SETTINGS_ERROR
from cogs.umtali.in_flight import DRAIN
from cogs.umtali.thinking import CLOSE_LIMIT
from data.location import DEFAULT_DB_PATH

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "docs" / "examples" / "umtali.service"


def _service() -> configparser.SectionProxy:
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(UNIT.read_text())
    return unit["Service"]


def test_it_runs_what_make_run_runs_from_the_checkout() -> None:
    service = _service()
    home = Path(service["WorkingDirectory"])
    program, *args = shlex.split(service["ExecStart"])
    run = re.search(r"^run:.*\n\t(.+)$", (ROOT / "Makefile").read_text(), re.M)
    assert run is not None
    made = run[1].replace("$(VPY)", ".venv/bin/python").split()
    assert [str(Path(program).relative_to(home)), *args] == made


def test_what_is_out_of_reach_for_now_is_tried_again_and_nothing_else() -> None:
    service = _service()
    assert service["Restart"] == "on-failure"
    assert int(service["RestartSec"]) >= 10
    kept = set(service["RestartPreventExitStatus"].split())
    assert {str(EXIT_SETTINGS_ERROR), str(EXIT_DATABASE_ERROR)} <= kept
    assert str(EXIT_FOR_NOW) not in kept


def test_it_is_given_time_to_close_cleanly() -> None:
    service = _service()
    assert service["KillSignal"] == "SIGTERM"
    assert service["KillMode"] == "mixed"  # the bot closes its computer's workers itself
    assert int(service["TimeoutStopSec"]) >= 2 * (DRAIN + CLOSE_LIMIT)


def test_it_writes_only_the_database_s_own_directory_never_the_code() -> None:
    """The database (with its write-ahead log, lock files and backups, which go beside it)
    lives in systemd's state directory; the checkout, whose ``data/`` is a Python package,
    stays read-only: a bot able to write there could rewrite its own code."""
    service = _service()
    home = Path(service["WorkingDirectory"])
    assert service["ProtectSystem"] == "strict"
    assert service["UMask"] == "0077"
    state = Path("/var/lib") / service["StateDirectory"]
    assert service["StateDirectoryMode"] == "0700"
    environment = dict(item.split("=", 1) for item in shlex.split(service["Environment"]))
    database = Path(environment["UMTALI_DB_PATH"])
    assert database.parent == state and database.suffix == DEFAULT_DB_PATH.suffix
    writable = [Path(p.lstrip("-")) for p in service.get("ReadWritePaths", "").split()]
    assert not [p for p in writable if p == home or home in p.parents or p in home.parents]
    # The package itself is where the checkout's default database would have been.
    assert (ROOT / DEFAULT_DB_PATH.parent / "__init__.py").is_file()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_reads_every_line_of_it(tmp_path: Path) -> None:
    """systemd's own check, on the unit pointed at this checkout and the Python running the
    tests: a line it would ignore (a misspelt key, a value it cannot parse) is said, and
    fails the test."""
    unit = tmp_path / "umtali.service"
    unit.write_text(UNIT.read_text().replace("/srv/umtali/.venv/bin/python", sys.executable)
                    .replace("/srv/umtali", str(ROOT)))
    checked = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                             text=True, timeout=60, check=False)
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked
