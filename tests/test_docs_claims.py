"""What README.md, docs/*.md and .env.example promise, held to the code: the commands and options
the tables name, the make targets, the settings, the tests cited, and the figures quoted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord import app_commands

from cogs.umtali.admin import UmtaliAdminCog
from cogs.umtali.challenges import CHALLENGE_TTL
from cogs.umtali.commands import UmtaliCog
from cogs.umtali.names import MAX_ECHO, MAX_NAME
from cogs.umtali.owners import LEASE, RENEW_EVERY
from cogs.umtali.pictures import hand, table
from cogs.umtali.pictures.cache import PictureCache
from cogs.umtali.time_control import PRESETS
from data.challenges import Limits
from data.models import GuildSettings
from data.record_reads import PER_PAGE

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}
ENV_EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")
#: The code the bot runs (tests and benches read variables of their own).
SOURCES = [ROOT / "bot.py", ROOT / "scale.py", *(ROOT / "data").rglob("*.py"),
           *(ROOT / "cogs").rglob("*.py"), *(ROOT / "umtali").rglob("*.py")]


def _commands() -> dict[str, list[str]]:
    """Every slash command's path ("umtali challenge") and its options, as registered."""
    out: dict[str, list[str]] = {}
    for cog in (UmtaliCog, UmtaliAdminCog):
        for c in cog.__cog_app_commands__:
            assert isinstance(c, app_commands.Command)
            out[f"{cog.__cog_group_name__} {c.name}"] = [p.name for p in c.parameters]
    return out


def _table_rows(text: str) -> list[tuple[str, list[str]]]:
    """The command tables' rows: the command's path and the options its first cell names."""
    rows = []
    for cell in re.findall(r"^\| `/(umtali[^`]*)` \|", text, re.M):
        words = cell.replace("…", "").split()
        path = " ".join(words[:2])
        rows.append((path, [w.strip("[]") for w in words[2:]]))
    return rows


@pytest.mark.parametrize("part", ["English", "Russian"])
def test_every_command_in_the_readme_tables_is_registered_with_those_options(part: str) -> None:
    english, russian = README.split("## Как играть", 1)
    rows = _table_rows(english if part == "English" else russian)
    registered = _commands()
    assert rows
    for path, options in rows:
        assert path in registered, f"/{path} is not a command"
        if path != "umtali-admin settings":  # its options are named in the text
            assert options == registered[path], f"/{path}: the table names {options}"
    # Every command is in each table.
    assert {path for path, _ in rows} == set(registered)


def test_the_admin_settings_the_readme_names_are_options() -> None:
    options = set(_commands()["umtali-admin settings"])
    named = set(re.findall(r"`(?:/umtali-admin settings )?([a-z_]+):(?!//)", README))
    assert {"seasons", "season_channel", "clear_season_channel", "language"} <= named
    assert named - {"season"} <= options  # season: is /umtali leaderboard's


def test_every_make_target_named_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):", makefile, re.M))
    # In code: `make x`, a line of a shell block, or after a variable (A=b make run).
    named = set(re.findall(r"(?:`|^|[A-Z_]=\S+ )make ([a-z][a-z-]*)",
                           README + "".join(DOCS.values()), re.M))
    assert {"run", "test", "play", "backup", "proxy", "copy-to-postgres"} <= named
    assert named - targets == set()


def test_every_test_cited_exists() -> None:
    for text in (README, *DOCS.values()):
        for file, name in re.findall(r"`(?:tests/)?(test_[a-z0-9_]+\.py)(?:::(test_[a-z0-9_]+))?`",
                                     text):
            path = next(ROOT.joinpath("tests").rglob(file), None)
            assert path is not None, file
            if name:
                assert re.search(rf"def {name}\(", path.read_text(encoding="utf-8")), \
                    f"{file}::{name}"


def test_every_setting_read_is_in_env_example_and_every_one_there_in_the_readme() -> None:
    read: set[str] = set()
    for path in SOURCES:
        read |= set(re.findall(r"\b((?:UMTALI|DISCORD)_[A-Z_]+)\b", path.read_text("utf-8")))
    listed = set(re.findall(r"^#? ?([A-Z_]+)=", ENV_EXAMPLE, re.M))
    # Not settings: Discord's own base URL constant, and the proxy's own variable.
    assert read - listed - {"DISCORD_API"} == set(), "read by the bot, not in .env.example"
    table = README.split("## Configuration", 1)[1].split("## Operating", 1)[0]
    assert {n for n in listed if f"`{n}" not in table} == set(), "not in the README's table"


def test_the_figures_quoted_are_the_codes() -> None:
    assert CHALLENGE_TTL == 10 * 60 and "it expires after 10 minutes" in README
    limits = Limits()
    assert (limits.open_challenges, limits.challenge_cooldown, limits.practice_cooldown) == \
        (3, 20, 30)
    assert "at most 3 open challenges per member, one challenge every 20\n  seconds and one " \
           "practice session every 30 seconds" in README
    assert PER_PAGE == 10 and "ten a page" in README
    assert GuildSettings(guild_id=1).turn_timer == 5 * 60 and "(default 5 minutes;" in README
    assert MAX_NAME == 32 and MAX_ECHO == 100
    assert "at most 32" in README and "cut to 100" in README
    assert PictureCache().size == 512 and "an LRU of 512 PNGs" in README
    assert (table.WIDTH, hand.WIDTH) == (720, 640)
    assert (RENEW_EVERY, LEASE) == (5, 15) and "renewed every 5 s" in README
    blitz, normal, corr = PRESETS["blitz"], PRESETS["normal"], PRESETS["correspondence"]
    assert (blitz.turn, blitz.reserve, normal.turn, normal.reserve, corr.turn) == \
        (30, 120, 300, 300, 86400)
    assert corr.warn_before == 2 * 3600 and "a reminder comes two hours before its end" in README


def test_the_rules_in_both_languages_have_the_same_shape() -> None:
    def shape(text: str) -> list[tuple[str, int]]:
        sections = re.split(r"^## ", text, flags=re.M)[1:]
        return [(s.split()[0], len(re.findall(r"^(?:- |\d\. |\| )", s, re.M)))
                for s in sections]
    assert shape(DOCS["RULES.md"]) == shape(DOCS["RULES.ru.md"])
