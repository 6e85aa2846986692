"""The engine (``umtali/``) is pure: it imports no Discord, database, asyncio, network or
imaging library, nor the bot's own packages, and, but for the terminal game that fronts it
(``cli*.py``, ``__main__.py``), it never prints. Read from the sources, so a new import or a
stray print anywhere in it fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "umtali"
SOURCES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "asyncio", "asyncpg", "aiohttp", "PIL",
             "data", "cogs", "bot", "settings", "threading"}
#: The terminal game: its output is its job.
TERMINAL = {"cli.py", "cli_args.py", "cli_coach.py", "cli_moves.py", "cli_play.py",
            "cli_script.py", "cli_verify.py", "__main__.py"}


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _prints(tree: ast.AST) -> list[int]:
    """Lines that print, or write to the standard streams."""
    calls = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id == "print"]
    streams = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute)
               and n.attr in ("stdout", "stderr") and isinstance(n.value, ast.Name)
               and n.value.id == "sys"]
    return sorted(calls + streams)


def test_the_sources_were_found() -> None:
    assert len(SOURCES) > 30
    assert {p.name for p in SOURCES} >= {"session.py", "turns.py", "hard.py", "cli.py"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_imports_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not _imported(tree) & FORBIDDEN, sorted(_imported(tree) & FORBIDDEN)


@pytest.mark.parametrize("path", [p for p in SOURCES if p.name not in TERMINAL],
                         ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_never_prints(path: Path) -> None:
    printing = _prints(ast.parse(path.read_text(encoding="utf-8")))
    if path == ENGINE / "__init__.py":
        # Its one exception: an interpreter too old to read the engine, run as ``-m``, is told
        # so on stderr (then nothing of the engine is loaded).
        assert len(printing) <= 1, printing
        return
    assert not printing, f"{path.name} prints at lines {printing}"
