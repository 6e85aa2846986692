"""``UMTALI_ENGINE`` in ``.env`` reaches the bot's own process, not only its workers: bot.py
reads ``.env`` before it imports ``umtali``, whose ``umtali/compiled.py`` chooses the engine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _started(cwd: Path, dotenv: str) -> subprocess.CompletedProcess[str]:
    """bot.py run in ``cwd`` holding ``dotenv`` as .env, up to its first REST call, which
    finds the port closed (no Discord is ever reached)."""
    (cwd / ".env").write_text(dotenv, encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k != "DISCORD_TOKEN" and not k.startswith("UMTALI_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=90, check=False)


def _engine(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, done.stderr
    [line] = [x for x in done.stderr.splitlines() if "Rules engine" in x]
    return line.split("Rules engine ", 1)[1]


def test_umtali_engine_in_dotenv_chooses_the_bots_engine(tmp_path: Path,
                                                        closed_port: int) -> None:
    settings = (f"DISCORD_TOKEN=secret-token-value\nUMTALI_DB_PATH={tmp_path / 'u.sqlite3'}\n"
                f"UMTALI_DISCORD_API=http://127.0.0.1:{closed_port}/api/v10\n")
    done = _started(tmp_path, settings + "UMTALI_ENGINE=interpreted\n")
    assert _engine(done) == "interpreted: UMTALI_ENGINE=interpreted."
    assert "Traceback" not in done.stderr and "secret-token-value" not in done.stderr
    # Without it, the same start-up chooses as it did (compiled, or the sources for a reason
    # of their own).
    assert "UMTALI_ENGINE" not in _engine(_started(tmp_path, settings))
