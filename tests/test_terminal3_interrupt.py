"""Ctrl-C while ``python -m umtali`` is still loading (the engine, the command line, the
language) ends it as a Ctrl-C in play does: "Bye." and status 0, or for ``verify`` no verdict
and a shell's status for SIGINT; never a traceback.

A real SIGINT is sent at a chosen moment: as a named module is about to be imported (a
``sitecustomize`` put first on the path installs the hook), so the test does not race the
loading it interrupts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HOOK = '''\
import os, signal, sys

class _Interrupt:
    """Sends this process SIGINT as ``UMTALI_INTERRUPT_AT`` is about to be imported."""

    def find_spec(self, name, path=None, target=None):
        if name == os.environ["UMTALI_INTERRUPT_AT"]:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, _Interrupt())
'''

#: Where the interrupt lands: in the package's own loading of the engine (before
#: ``__main__`` runs), in ``__main__``'s import of the terminal game, and in ``main`` reading
#: the Russian catalogue (before the game's own Ctrl-C handling).
MOMENTS = ["umtali.hand", "umtali.cli_script", "babel.messages.pofile"]


def _interruptible() -> None:
    """In the child, before it runs: SIGINT as a terminal leaves it. Started from a shell's
    background job (``make test &``), the tests inherit SIGINT ignored, and so would the child:
    the hook's Ctrl-C would then do nothing at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(tmp_path: Path, moment: str, *argv: str,
        flags: tuple[str, ...] = ("-m",)) -> subprocess.CompletedProcess[str]:
    """``python -m umtali ARGV`` (``flags`` for ``-m``: the interpreter's options ending in it)."""
    (tmp_path / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    env["UMTALI_INTERRUPT_AT"] = moment
    return subprocess.run([sys.executable, *flags, "umtali", *argv], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          encoding="utf-8", timeout=120, preexec_fn=_interruptible)


@pytest.mark.parametrize("moment", MOMENTS)
def test_ctrl_c_while_the_game_loads_says_bye(tmp_path: Path, moment: str) -> None:
    done = run(tmp_path, moment, "play", "--seed", "3", "--lang", "ru", "--no-review")
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 0
    # Said in the game's language once it is known: here it is read before the goodbye.
    assert done.stdout.endswith("До встречи.\n"), done.stdout
    # The interrupt came before the first deal: nothing of a game was shown.
    assert "Умтали" not in done.stdout


@pytest.mark.parametrize("moment", MOMENTS)
def test_ctrl_c_while_verify_loads_gives_no_verdict(tmp_path: Path, moment: str) -> None:
    replay = tmp_path / "replay.json"
    replay.write_text("{}", encoding="utf-8")
    done = run(tmp_path, moment, "verify", str(replay), "--lang", "ru")
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 128 + 2
    assert done.stdout == ""


def test_the_hook_interrupts_where_nothing_holds_it(tmp_path: Path) -> None:
    # The test's own check: outside ``python -m umtali`` the same hook is a plain Ctrl-C.
    (tmp_path / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "UMTALI_INTERRUPT_AT": "json"}
    done = subprocess.run([sys.executable, "-c", "import json"], env=env,
                          capture_output=True, text=True, timeout=60,
                          preexec_fn=_interruptible)
    assert "KeyboardInterrupt" in done.stderr


@pytest.mark.parametrize(("argv", "held"), [
    (["python", "-m", "umtali", "play"], True),
    (["python", "-X", "dev", "-m", "umtali", "verify", "-m"], True),
    (["python", "-m", "umtali.catalogue"], False),  # another module keeps Python's Ctrl-C
    (["python", "bot.py"], False),  # the bot too
    (["python", "-c", "import umtali", "-m", "umtali"], False),
])
def test_only_python_m_umtali_holds_a_ctrl_c(argv: list[str], held: bool) -> None:
    from umtali.cli_interrupt import run_as_umtali

    assert run_as_umtali(argv) is held


def test_python_m_umtali_written_as_one_word_holds_too() -> None:
    from umtali.cli_interrupt import run_as_umtali

    assert run_as_umtali(["python", "-mumtali", "play"])
    assert not run_as_umtali(["python", "-W", "-m", "script.py"])


@pytest.mark.parametrize(("argv", "held"), [
    (["python", "-Bm", "umtali", "play"], True),  # flags combined with -m
    (["python", "-Im", "umtali"], True),
    (["python", "-OOBmumtali"], True),
    (["python", "-Xdev", "-BW", "error", "-Im", "umtali"], True),  # -X and -W take a value
    (["python", "--check-hash-based-pycs", "always", "-m", "umtali"], True),
    (["python", "-Bm", "umtali.catalogue"], False),
    (["python", "-Wdm", "umtali"], False),  # -W's value is "dm": umtali is a script here
    (["python", "-Bc", "import umtali", "-m", "umtali"], False),  # -c ends the options
    (["python", "--", "-m", "umtali"], False),  # "--" too: a script named -m
    (["python", "-B", "-", "-m", "umtali"], False),  # standard input
])
def test_the_interpreters_options_are_read_as_it_reads_them(argv: list[str], held: bool) -> None:
    from umtali.cli_interrupt import run_as_umtali

    assert run_as_umtali(argv) is held


def test_ctrl_c_while_the_game_loads_says_bye_with_flags_combined(tmp_path: Path) -> None:
    done = run(tmp_path, "umtali.hand", "play", "--seed", "3", "--lang", "ru", "--no-review",
               flags=("-Bm",))
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 0 and done.stdout.endswith("До встречи.\n"), done.stdout
