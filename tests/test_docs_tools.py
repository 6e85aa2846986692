"""What README.md and docs/*.md say of the tools around the bot, held to them: the terminal
game's options and words, the make targets and benches, the compiled engine, the settings'
defaults, the paths named and the replay file's layout."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

import compile_engine
from cogs.umtali.thinking import DEFAULT_WORKERS
from data.migrations import MIGRATIONS
from settings import SettingsError, load_settings
from umtali import RuleSet, Session, replay
from umtali.cli import main as umtali_cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}


def halves() -> tuple[str, str]:
    """The README's English and Russian halves."""
    english, russian = README.split("## Как играть", 1)
    return english, russian


def test_every_terminal_option_named_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    """The options README names for ``python -m umtali`` (and ``make play ARGS=…``) are the
    CLI's: lines about the benches, the linters, pytest and the compiled engine name their own."""
    others = ("bench/", "mypy", "pytest", "make engine", "--clean", "process, memory;",
              "systemctl", "adduser")
    named = {flag for line in README.splitlines() if not any(o in line for o in others)
             for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]+", line)}
    assert {"--seed", "--variant", "--hotseat", "--no-handover", "--level", "--lang",
            "--optional-melding", "--review", "--no-review", "--deal", "--json"} <= named
    helps = ""
    for command in ("play", "script", "simulate", "verify"):
        with pytest.raises(SystemExit):
            umtali_cli([command, "--help"])
        helps += capsys.readouterr().out
    offered = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", helps))
    assert named - offered == set()


def test_the_benches_make_runs_are_the_ones_named() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    filtered = re.search(r"^BENCH_SCRIPTS := \$\(filter-out ([^,]+),", makefile, re.M)
    assert filtered is not None
    left_out = set(re.findall(r"bench/\w+\.py", filtered.group(1)))
    scripts = {f"bench/{p.name}" for p in (ROOT / "bench").glob("*.py")
               if "__main__" in p.read_text(encoding="utf-8")}
    block = README.split("make bench   #", 1)[1].split("make engine", 1)[0]
    named = set(re.findall(r"bench/\w+\.py", block))
    assert named == scripts
    reads_others = block.split("):", 1)[0]
    assert set(re.findall(r"bench/\w+\.py", reads_others)) == left_out


def test_every_project_path_named_exists() -> None:
    tops = ("umtali/", "cogs/", "data/", "tests/", "bench/", "docs/", "proxy/", ".ci/")
    named = {path for text in (README, *DOCS.values())
             for path in re.findall(r"`([\w./-]+)`", text) if path.startswith(tops)}
    assert len(named) > 20
    # A placeholder (``<code>.po``) is not a path, nor a database the bot makes as it runs.
    assert {p for p in named if "<" not in p and not p.endswith(".sqlite3")
            and not (ROOT / p).exists()} == set()


def test_the_compiled_modules_named_are_the_ones_compiled() -> None:
    modules = compile_engine.MODULES
    words = {15: "fifteen", 16: "sixteen", 17: "seventeen"}
    part = README.split("### The engine, compiled", 1)[1].split("[mypyc]", 1)[0]
    named = re.findall(r"`(?:umtali/(?:ai/)?)?(\w+)\.py`", part)
    assert sorted(named) == sorted(m.split(".")[-1] for m in modules)
    assert f"compiles these {words[len(modules)]} with" in README
    assert f"all {words[len(modules)]} run" in README
    assert f"Rules engine compiled: {len(modules)} modules, by mypyc." in README


def test_the_make_targets_without_python_are_the_ones_named() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = re.search(r"^\.PHONY: (.+)$", makefile, re.M)
    assert phony is not None
    deps = {t: d.split() for t, d in re.findall(r"^([a-z-]+):(?!=)(.*)$", makefile, re.M)}

    def python(target: str) -> bool:
        return any(d in ("$(STAMP)", "$(ENGINE)") or (d in deps and python(d))
                   for d in deps.get(target, []))
    without = {t for t in phony.group(1).split() if not python(t)}
    said = re.search(r"Each `make` target that runs Python \(all but ([^)]+)\)", README)
    assert said is not None
    assert set(re.findall(r"`make ([a-z-]+)`", said.group(1))) == without


def test_the_settings_defaults_in_the_readme_are_the_codes() -> None:
    table = README.split("## Configuration", 1)[1].split("## Operating", 1)[0]
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(\w+)` \| (?:yes|no) \| ([^|]+) \|", table,
                                           re.M)}
    settings = load_settings({"DISCORD_TOKEN": "x"})
    assert rows["UMTALI_DB_PATH"].strip() == f"`{settings.db_path.as_posix()}`"
    assert rows["UMTALI_LOG_LEVEL"].strip() == f"`{settings.log_level}`"
    assert rows["UMTALI_PROCESS"].strip().startswith(f"`{settings.process}`")
    # Named after the shards it is given, not after a shard count alone (that one is main).
    sharded = {"DISCORD_TOKEN": "x", "UMTALI_SHARD_COUNT": "4"}
    assert load_settings(sharded).process == settings.process
    named = load_settings({**sharded, "UMTALI_SHARD_IDS": "0-1"}).process
    assert f"`UMTALI_SHARD_IDS` (`{named}`)" in rows["UMTALI_PROCESS"]
    assert settings.thinking_workers is None
    # As the README says it: 2, or 1 on a one-core machine.
    assert (1 if (os.cpu_count() or 1) == 1 else 2) == DEFAULT_WORKERS
    assert rows["UMTALI_THINKING_WORKERS"].strip() == "2 (1 on a one-core machine)"
    for bad in ("0", "65"):
        with pytest.raises(SettingsError, match="from 1 to 64"):
            load_settings({"DISCORD_TOKEN": "x", "UMTALI_THINKING_WORKERS": bad})
    load_settings({"DISCORD_TOKEN": "x", "UMTALI_THINKING_WORKERS": "64"})
    assert "Worker processes where the `hard` computer and the coach think, 1 to 64." in table


def test_the_terminal_words_named_are_read() -> None:
    english, russian = halves()
    words = ("help", "rules", "moves", "table", "hint", "resign", "quit", "exit")
    said_en = re.search(r"In a game, type a move or its number in the\nlist; (.+?) prints",
                        english, re.S)
    said_ru = re.search(r"В игре введите ход или его номер из списка;\n(.+?) — выход", russian,
                        re.S)
    assert said_en is not None and said_ru is not None
    for said in (said_en.group(1), said_ru.group(1)):
        assert set(re.findall(r"`([a-z]+)`", said)) == set(words)
    out = io.StringIO()
    typed = "moves\ntable\nhelp\nhint\nrules\n1\nquit\nyes\n"
    assert umtali_cli(["play", "--seed", "3", "--no-review"], io.StringIO(typed), out) == 0
    turns = out.getvalue().split("Player> ")[1:]
    assert turns[0].startswith("Moves: 1) draw")  # moves
    assert "Your hand:" in turns[1] and "Moves:" in turns[1]  # table
    assert "meld 8D 9D 10D" in turns[2]  # help: the notation
    assert turns[3].startswith("Hint: ")  # hint
    assert turns[4].startswith("1. The game\n")  # rules
    assert turns[-1].startswith("Stop the game here?")  # quit, after move 1 was played
    assert turns[-1].endswith(" Bye.\n")  # and its yes


def test_the_replay_format_example_has_the_files_fields() -> None:
    doc = DOCS["REPLAY_FORMAT.md"]
    block = re.search(r"```json\n(.+?)```", doc, re.S)
    assert block is not None
    example = json.loads(block.group(1))
    session = Session(RuleSet.english(), "2/1")  # the seed 2, cut "1"
    session.resign(1)
    made = replay.from_session(session, ("ada", "bo"), commitment="c", salt="s", cut="1")
    assert list(example) == list(made)
    assert example["rules"] == RuleSet().to_json()
    assert list(example["hands"][0]) == list(made["hands"][0])
    assert list(example["hands"][0]["deal"]) == list(made["hands"][0]["deal"])
    # Every field the table explains is one the file has.
    explained = set(re.findall(r"^\| `(\w+)`", doc, re.M))
    assert explained <= set(made)


def test_the_copy_commands_example_is_at_the_current_schema() -> None:
    assert f"@db/umtali (schema {len(MIGRATIONS)}):" in DOCS["DATABASE.md"]
