"""Deals checked by a player, reviewed again: the check on a machine without the project's
packages in a Russian terminal, and the replay command of a cut with spaces in it."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.discord_helpers import World, accept, challenge, flush, play_out, the_match
from tests.test_fairness import replay_data
from tests.test_records_discord import resign
from umtali import RuleSet, Session, cli
from umtali.fairness import commit
from umtali.replay import from_session

ROOT = Path(__file__).resolve().parent.parent


def _bare_python(tmp_path: Path, *words: str, lang: str) -> subprocess.CompletedProcess[str]:
    """``python3 -m umtali ...`` as on a fresh machine: no site packages (no Babel), from the
    project's directory, in a terminal whose locale is ``lang``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("PYTHON")}
    env["LANG"] = lang
    return subprocess.run([sys.executable, "-S", "-s", "-m", "umtali", *words], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=False)


def test_the_check_runs_in_a_russian_terminal_without_the_venv(tmp_path: Path) -> None:
    # FAIR_DEALS.ru.md: nothing to install, in Russian too: the reader of the Russian docs has a
    # Russian locale, and Babel is not installed on a fresh machine (umtali/po.py reads the
    # catalogue then).
    path = tmp_path / "umtali-42-deals.json"
    path.write_text(json.dumps(replay_data()[1]), encoding="utf-8")
    done = _bare_python(tmp_path, "verify", str(path), lang="ru_RU.UTF-8")
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert "ЧЕСТНО: карты получены из зерна" in done.stdout and done.stderr == ""


SPACED_CUT = "blue  fox   42"


async def test_the_replay_command_keeps_the_spaces_of_a_typed_cut(world: World) -> None:
    # A typed cut is kept as typed, spaces inside it too: the file's command must give the
    # same seed, else the replay it names stops at its first move that the other deal refuses.
    result = await challenge(world, world.alice, world.bob)
    await accept(world.bob, result.response, typed=SPACED_CUT)
    await flush(world)
    live = the_match(world)
    assert live.cut == SPACED_CUT
    await play_out(world, live, moves=12)
    moves = [str(m) for m in live.session.moves]
    await resign(world, world.bob, live)
    history = await world.alice.slash(world.channel, "umtali history")
    chosen = await world.alice.select(history.response, [str(live.id)],
                                      custom_id=f"umtali:rp:{world.guild.id}")
    text = (await chosen.response.attachments[0].read()).decode()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert f"# Cut: {SPACED_CUT}" in header
    command = next(h for h in header if h.startswith("# Replay: ")).removeprefix("# Replay: ")
    words = shlex.split(command)
    assert words[5] == live.session.seed
    out = io.StringIO()
    assert cli.main([*words[3:-2], "--json"], stdin=io.StringIO(text), stdout=out) == 0
    assert json.loads(out.getvalue())["state"]["moves"] == moves


#: Ubuntu 22.04's python3 is 3.10, Debian 11's 3.9, Ubuntu 20.04's 3.8 (where found here).
OLD_PYTHONS = [p for p in (Path(f"/root/.pyenv/versions/{v}/bin/python3")
                           for v in ("3.10.13", "3.9.18", "3.8.18")) if p.exists()]


@pytest.mark.skipif(not OLD_PYTHONS, reason="no Python older than 3.11 on this machine")
@pytest.mark.parametrize("old_python", OLD_PYTHONS, ids=lambda p: p.parts[-3])
def test_an_older_python_is_told_what_it_needs_not_given_a_verdict(
        tmp_path: Path, old_python: Path) -> None:
    # The docs ask for 3.11: a traceback (at import, before 3.10; half-way through the verdict
    # on 3.10), with status 1 (a mismatch), must not be what an older one gets.
    seed, salt, cut = "0f" * 16, "ab" * 16, "1445123456789012345"
    session = Session(RuleSet.english(), f"{seed}/{cut}")
    data = from_session(session, ("ada", "ben"), commit(seed, salt), cut=cut)
    data["reveal"] = {"seed": seed, "salt": salt}
    path = tmp_path / "umtali-42-deals.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([str(old_python), "-S", "-E", "-s", "-m", "umtali", "verify",
                           str(path)], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2 and done.stdout == ""
    assert "Python 3.11 or newer" in done.stderr
