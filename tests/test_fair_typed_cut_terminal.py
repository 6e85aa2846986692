"""``python -m umtali verify`` of a file cut with typed text: its terminal's encoding unable
to write it (a Windows console redirected to a file writes cp1252, not Cyrillic), the verdict
still printed, the text written as its escapes, not a traceback and exit status 1 (a
mismatch's); a letter that only looks like a Latin one (a bot changed to cheat could pick among
such lookalikes of the text typed) shown by its escape."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from umtali.cli import main
from umtali.fairness import commit
from umtali.replay import from_session
from umtali.rules import RuleSet
from umtali.session import Session

TYPED = "ёж 7"


def _file(tmp_path: Path, typed: str) -> Path:
    seed, salt = "0f" * 16, "ab" * 16
    data = from_session(Session(RuleSet.english(), f"{seed}/{typed}"), ("ada", "ben"),
                        commit(seed, salt), cut=typed)
    data["reveal"] = {"seed": seed, "salt": salt}
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_lookalike_letter_in_a_typed_cut_shows_as_its_escape(tmp_path: Path) -> None:
    typed, lookalike = "ferry 7", "f\u0435rry 7"  # a Cyrillic "е"
    assert typed != lookalike
    for cut, shown in ((typed, None), (lookalike, "'f\\u0435rry 7'")):
        out = io.StringIO()
        assert main(["verify", str(_file(tmp_path, cut))], io.StringIO(), out) == 0
        said = out.getvalue()
        assert "FAIR:" in said and f"typed, {cut!r}" in said, said
        if shown is None:
            assert "in ASCII" not in said, said
        else:
            assert f"(in ASCII: {shown};" in said, said
    ru = io.StringIO()
    assert main(["verify", "--lang", "ru", str(_file(tmp_path, lookalike))], io.StringIO(),
                ru) == 0
    assert "(в ASCII: 'f\\u0435rry 7';" in ru.getvalue(), ru.getvalue()


def test_a_typed_cut_the_terminal_cannot_write_is_escaped(tmp_path: Path) -> None:
    path = _file(tmp_path, TYPED)
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
