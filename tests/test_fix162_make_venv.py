"""``make`` after a venv that stopped half-way: on Debian and Ubuntu without python3-venv,
``python3 -m venv`` leaves ``.venv/bin/python`` and no pip. The next ``make`` (the package
installed meanwhile) makes the venv again rather than failing on it forever; while the venv
still cannot be made with pip, it says in one sentence what to install."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _clone(tmp_path: Path) -> Path:
    """The Makefile and what its install reads, with a venv made without pip."""
    root = tmp_path / "project"
    (root / "bench").mkdir(parents=True)
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, root / name)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
                   check=True, capture_output=True)
    assert (root / ".venv" / "bin" / "python").exists()
    return root


def _make(root: Path, py: str) -> subprocess.CompletedProcess[str]:
    # No index: the install itself fails at once, offline; what matters is what came first.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "MAKE"))}
    env |= {"PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return subprocess.run(["make", "--no-print-directory", ".venv/.installed", f"PY={py}"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def _has_pip(root: Path) -> bool:
    return subprocess.run([str(root / ".venv" / "bin" / "python"), "-m", "pip", "--version"],
                          capture_output=True, check=False).returncode == 0


def test_a_venv_without_pip_is_made_again(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    assert not _has_pip(root)
    done = _make(root, sys.executable)
    assert "No module named pip" not in done.stderr, done.stderr
    assert _has_pip(root)


def test_a_venv_still_made_without_pip_says_what_to_install(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    # Python as Debian ships it without python3-venv: venv fails before pip is in.
    debian = tmp_path / "python3"
    debian.write_text("#!/bin/sh\necho 'The virtual environment was not created successfully "
                      "because ensurepip is not available.' >&2\nexit 1\n")
    debian.chmod(debian.stat().st_mode | stat.S_IXUSR)
    done = _make(root, str(debian))
    assert done.returncode != 0
    assert "No module named pip" not in done.stderr, done.stderr
    assert "sudo apt install python3-venv python3-dev gcc, then make again." in done.stderr
    assert not (root / ".venv" / ".installed").exists()
