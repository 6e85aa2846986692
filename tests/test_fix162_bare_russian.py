"""Russian without the project's .venv: a Russian replay file's command (``python3 -m umtali
script … --lang ru``) and ``verify --lang ru`` run on bare python3, which has no Babel. The
catalogue is then read with the standard library (``umtali/po.py``), exactly as Babel reads it;
before, ``--lang ru`` there was refused with status 2."""

from __future__ import annotations

import gettext
import io
import json
import os
import shlex
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo

from cogs.umtali.history import replay_text
from data.store import Store
from tests.test_fairness import replay_data
from tests.test_records import played
from umtali import catalogue
from umtali.i18n import tr_for
from umtali.po import translations

ROOT = Path(__file__).resolve().parent.parent


def _bare_python(*words: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python3 -m umtali ...`` as on a fresh machine: no site packages (no Babel), from the
    project's directory, in a terminal in English."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LC_ALL", "LC_MESSAGES", "LANG") and not k.startswith("PYTHON")}
    env["LANG"] = "C.UTF-8"
    return subprocess.run([sys.executable, "-S", "-s", "-m", "umtali", *words], cwd=ROOT,
                          env=env, input=stdin, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("language", sorted(p.stem for p in catalogue.LOCALES.glob("*.po")))
def test_the_standard_library_reads_the_catalogue_as_babel_does(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, catalogue.read(language))
    compiled.seek(0)
    babel = gettext.GNUTranslations(compiled)
    ours = translations((catalogue.LOCALES / f"{language}.po").read_text(encoding="utf-8"))
    assert ours.info() == babel.info()
    messages = list(catalogue.read(language))[1:]
    assert len(messages) > 100
    for m in messages:
        if not isinstance(m.id, str):
            singular, plural = m.id[0], m.id[1]
            for n in (*range(0, 30), 101, 111, 112, 1000):
                if m.context:
                    said = ours.npgettext(m.context, singular, plural, n)
                    meant = babel.npgettext(m.context, singular, plural, n)
                else:
                    said = ours.ngettext(singular, plural, n)
                    meant = babel.ngettext(singular, plural, n)
                assert said == meant, (m.id, n)
        elif m.context:
            assert ours.pgettext(m.context, m.id) == babel.pgettext(m.context, m.id), m.id
        else:
            assert ours.gettext(m.id) == babel.gettext(m.id), m.id


def test_russian_asked_for_without_the_venv_is_spoken(tmp_path: Path) -> None:
    path = tmp_path / "umtali-42-deals.json"
    path.write_text(json.dumps(replay_data()[1]), encoding="utf-8")
    done = _bare_python("verify", "--lang", "ru", str(path))
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert tr_for("ru")("FAIR: the cards came from the seed committed to before play.") \
        in done.stdout


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


async def test_a_russian_replay_file_s_command_runs_on_bare_python3(store: Store) -> None:
    match_id, _ = await played(store, 2, ((1, "Ada"), (2, "Ben")))
    match, line = await store.match(match_id), await store.records.session(match_id)
    assert match is not None and line is not None
    text = replay_text(match, line, await store.moves(match_id), tr_for("ru"))
    header = [h for h in text.splitlines() if h.startswith("#")]
    command = shlex.split(next(h for h in header if "-m umtali script" in h).split(": ", 1)[1])
    # As pasted on a stock Debian, Ubuntu or macOS, which have no `python`.
    assert command[:3] == ["python3", "-m", "umtali"] and command[-4:-2] == ["--lang", "ru"]
    done = _bare_python(*command[3:-2], stdin=text)
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "Раздача" in said or "Счёт" in said, said[:500]
    assert all(word not in said for word in ("Hand ", "Score", "wins"))
