"""``make`` on a fresh clone: ``make bench`` runs the benches, not the modules they import, and
without a C compiler the engine's build is tried once, not on every ``make play``, until a
source changes."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_make_bench_runs_the_benches_not_their_modules() -> None:
    shown = subprocess.run(["make", "-n", "--no-print-directory", "bench", "VPY=python"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    loop = re.search(r"for script in ([^;]+);", shown)
    assert loop is not None, shown
    run = set(loop.group(1).split())
    assert "bench/load_players.py" not in run and "bench/load_processes.py" not in run
    benches = {f"bench/{p.name}" for p in (ROOT / "bench").glob("*.py")
               if "\nif __name__ == \"__main__\":" in p.read_text(encoding="utf-8")}
    assert run == benches - {"bench/value_fit.py", "bench/value_paired.py"}


def _copy(tmp_path: Path) -> Path:
    """The engine's sources and its build script, apart from the project's own build."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "umtali", root / "umtali",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "compiled.txt", "__pycache__",
                                                  "locales"))
    for name in ("compile_engine.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, root / name)
    return root


def _build(root: Path, compiler: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"CC": str(compiler), "LDSHARED": f"{compiler} -shared"}
    return subprocess.run([sys.executable, "compile_engine.py", *options], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_build_that_failed_is_not_tried_again_for_the_same_sources(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    calls = tmp_path / "calls"
    compiler = tmp_path / "no-cc"
    # A C compiler that is not there: it counts its calls, and fails.
    compiler.write_text(f"#!/bin/sh\necho called >> '{calls}'\nexit 1\n")
    compiler.chmod(compiler.stat().st_mode | stat.S_IXUSR)

    first = _build(root, compiler, "--or-interpreted")
    assert first.returncode == 0, first.stderr
    assert "engine: NOT compiled" in first.stderr
    tries = calls.read_text().count("called")
    assert tries >= 1

    again = _build(root, compiler, "--or-interpreted")  # the next make play
    assert again.returncode == 0
    assert "it failed for these sources before" in again.stderr
    assert calls.read_text().count("called") == tries  # not tried again
    assert not (root / "umtali" / "compiled.txt").exists()

    # make engine (no --or-interpreted) tries again, and fails as CI must.
    asked = _build(root, compiler)
    assert asked.returncode != 0
    assert calls.read_text().count("called") > tries
    tries = calls.read_text().count("called")

    # A source changed: tried again.
    with (root / "umtali" / "melds.py").open("a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    changed = _build(root, compiler, "--or-interpreted")
    assert changed.returncode == 0
    assert calls.read_text().count("called") > tries
