"""``pytest.approx`` on a time of the clock (a deadline, ``now``: some 1.8e9 s of the epoch)
names its tolerance (``abs=``): its default, a relative 1e-6, is some 1,800 s there, and
``deadline == pytest.approx(d)`` would pass for ``d + 300``, an outage given twice. Read from
the tests' sources, so a new such call anywhere in them fails here (review87)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SOURCES = sorted(TESTS.rglob("*.py"))
#: Names that hold a time of the clock, in the tests (any name with "deadline" in it too).
TIMES = {"now", "clock", "before", "taken_at"}


def _approx(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "approx"
            and isinstance(func.value, ast.Name) and func.value.id == "pytest")


def _a_time(node: ast.AST) -> bool:
    names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
    return any("deadline" in name.lower() or name in TIMES for name in names)


def _untoleranced_times(source: str) -> list[int]:
    """Lines of the calls of ``pytest.approx`` on a time with no ``abs=``."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Call) and _approx(node) and node.args
                  and _a_time(node.args[0])
                  and not any(k.arg == "abs" for k in node.keywords))


def test_the_check_finds_what_it_looks_for() -> None:
    assert _untoleranced_times(
        "assert row['deadline'] == pytest.approx(deadline + OUTAGE)\n"
        "assert live.deadline == pytest.approx(world.clock.now + 30)\n"
        "assert live.deadline == pytest.approx(world.clock.now + 30, abs=1)\n"
        "assert live.reserves[0] == pytest.approx(75)\n") == [1, 2]
    assert len(SOURCES) > 100 and TESTS / "processes" / "conftest.py" in SOURCES


def test_approx_on_a_time_of_the_clock_names_its_tolerance() -> None:
    found = [f"{path.relative_to(TESTS)}:{line}" for path in SOURCES
             for line in _untoleranced_times(path.read_text(encoding="utf-8"))]
    assert not found, f"pytest.approx on a time without abs= (1e-6 of it is ~1,800 s): {found}"
