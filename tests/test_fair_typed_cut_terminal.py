"""``python -m umtali verify`` of a file cut with typed text its terminal's encoding cannot
write (a Windows console redirected to a file writes cp1252, not Cyrillic): the verdict still
printed, the text written as its escapes, not a traceback and exit status 1 (a mismatch's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from umtali.fairness import commit
from umtali.replay import from_session
from umtali.rules import RuleSet
from umtali.session import Session

TYPED = "ёж 7"


def test_a_typed_cut_the_terminal_cannot_write_is_escaped(tmp_path: Path) -> None:
    seed, salt = "0f" * 16, "ab" * 16
    data = from_session(Session(RuleSet.english(), f"{seed}/{TYPED}"), ("ada", "ben"),
                        commit(seed, salt), cut=TYPED)
    data["reveal"] = {"seed": seed, "salt": salt}
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("PYTHON")}
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-S", "-s", "-m", "umtali", "verify", str(path)],
                          cwd=root, env={**env, "PYTHONIOENCODING": "ascii"},
                          capture_output=True, check=False)
    out, err = done.stdout.decode("ascii"), done.stderr.decode("ascii", "replace")
    assert done.returncode == 0, err
    assert "Traceback" not in err, err
    assert "FAIR:" in out and "\\u0451\\u0436 7" in out, out
