"""review103: the deals' check told players to run ``python -m umtali verify`` "in a copy of this
project", with no way to get one. The seed's half of it needs nothing but standard tools: the
reveal gives the line to run (``printf 'umtali-deals-v1:%s:%s' SALT SEED | sha256sum``, with
the session's salt and seed), the rules page and docs/FAIR_DEALS*.md give its form, and it
prints the commitment the bot posted before play: worked out here through ``hashlib`` from the
words the line gives ``printf``, and run through ``sh`` where the machine has ``sha256sum``."""

from __future__ import annotations

import hashlib
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cogs.umtali.fair import reveal_line
from cogs.umtali.rules_text import pages
from tests.discord_helpers import World, play_out, start_match, thread_of
from tests.test_fair_deals_bot import REAL_NEW_SEED
from tests.test_records_discord import resign
from umtali.fairness import commit
from umtali.i18n import EN, tr_for
from umtali.rules import RuleSet
from umtali.session import Session

ROOT = Path(__file__).resolve().parent.parent
#: The line in a message: as code.
LINE = re.compile(r"`(printf '[^`']*'[^`|]* \| sha256sum)`")
SALT = "00ff" * 8


def printed(line: str) -> str:
    """The hex digest ``line`` prints, worked out as the shell, ``printf`` and ``sha256sum``
    would: the shell's words, ``printf``'s format with each ``%s`` filled by the next word (a
    format holding nothing else ``printf`` reads), then the SHA-256 of those bytes."""
    command, pipe = line.rsplit(" | ", 1)
    assert pipe == "sha256sum", line
    words = shlex.split(command)
    assert words[0] == "printf", line
    form, values = words[1], words[2:]
    assert "\\" not in form and form.replace("%s", "").count("%") == 0, form
    assert form.count("%s") == len(values), line
    return hashlib.sha256((form % tuple(values)).encode("utf-8")).hexdigest()


def run(line: str) -> str | None:
    """What ``line`` prints run by ``sh``, where the machine has ``sha256sum`` (None if not)."""
    if shutil.which("sh") is None or shutil.which("sha256sum") is None:
        return None
    done = subprocess.run(["sh", "-c", line], capture_output=True, check=True, timeout=30)
    return done.stdout.decode().split()[0]


#: Seeds as the bot draws them (hex text), an int's, and text that the shell would read
#: otherwise unquoted (a quote, a dollar, a backslash, a percent sign, a semicolon).
SEEDS: list[int | str] = ["0c3e5a7f9b1d2f4a6c8e0a2b4d6f8a1c", 42, "07",
                          "it's$HOME\\n%s;rm", "ёлка"]


@pytest.mark.parametrize("seed", SEEDS, ids=str)
def test_the_line_prints_the_commitment(seed: int | str) -> None:
    from umtali.fairness import hand_check  # (new with the line: review103)

    line = hand_check(seed, SALT)
    assert printed(line) == commit(seed, SALT), line
    ran = run(line)
    assert ran in (None, commit(seed, SALT)), (line, ran)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("cut", ["", "ferry 7"])
def test_the_reveal_gives_the_line_to_run(language: str, cut: str) -> None:
    """The reveal names seed, salt and commitment; it now gives the line that ties them, with
    nothing to get first."""
    tr = tr_for(language)
    seed = "0c3e5a7f9b1d2f4a6c8e0a2b4d6f8a1c"
    played = f"{seed}/{cut}" if cut else seed
    said = reveal_line(Session(RuleSet.english(), played), SALT, commit(seed, SALT), tr,
                       ended="cancelled", cut=cut)
    found = LINE.search(said)
    assert found is not None, said
    assert printed(found[1]) == commit(seed, SALT), said
    assert "python3 -m umtali verify" in said, said  # the whole check, as before


#: The line's form in each language: the words standing for the salt and the seed.
FORMS = {"en": ("SALT", "SEED"), "ru": ("СОЛЬ", "ЗЕРНО")}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_rules_page_and_the_docs_give_the_line(language: str) -> None:
    salt, seed = FORMS[language]
    form = f"printf 'umtali-deals-v1:%s:%s' {salt} {seed} | sha256sum"
    page = pages(tr_for(language) if language == "ru" else EN)[-1][1]
    assert f"`{form}`" in page, page
    doc = "docs/FAIR_DEALS.md" if language == "en" else "docs/FAIR_DEALS.ru.md"
    assert form in (ROOT / doc).read_text(encoding="utf-8"), doc
    # The form is the line for a salt and a seed named so.
    assert printed(form) == hashlib.sha256(
        f"umtali-deals-v1:{salt}:{seed}".encode()).hexdigest()


@pytest.fixture
def secret_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    from cogs.umtali.service import MatchService
    monkeypatch.setattr(MatchService, "new_seed", REAL_NEW_SEED)


@pytest.mark.usefixtures("secret_seeds")
async def test_the_line_posted_at_the_end_prints_the_commitment_posted_at_the_start(
        world: World) -> None:
    live = await start_match(world)
    sealed = live.commitment
    await play_out(world, live, moves=4)
    await resign(world, world.bob, live)
    revealed = [m.content for m in thread_of(world, live).history()
                if m.content and "sha256sum" in m.content]
    assert len(revealed) == 1, revealed
    found = LINE.search(revealed[0])
    assert found is not None, revealed[0]
    assert printed(found[1]) == sealed
    assert run(found[1]) in (None, sealed)
