"""Which engine runs: the hot modules compiled by mypyc, or their Python sources.

``make`` compiles the modules where a game spends its time (``compile_engine.py``: the turn
loop, the listing of legal moves and what it calls, and the computer players' playouts and
judgement in ``umtali/ai``) into extension modules beside their sources, and writes
``MANIFEST``: each module (named from ``umtali``: ``turns``, ``ai.search``) with the hash of
the source it was compiled from. Python imports an extension module before the source
beside it, so a compiled module whose source has since changed would run the old rules.
Before any of them is imported, this module checks every hash; if one differs, a module is
missing, or ``UMTALI_ENGINE=interpreted`` asks for it, every listed module is imported from
its source instead, all together (compiled code expects its compiled neighbours). The
sources are the same program either way (``tests/test_compiled.py`` and
``tests/test_compiled_ai.py`` play both and compare).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

HERE: Final = Path(__file__).resolve().parent
#: Written by ``compile_engine.py``: one line per compiled module, its name and the SHA-256
#: of the source compiled.
MANIFEST: Final = HERE / "compiled.txt"
#: The extension modules' file ending for this interpreter.
SUFFIX: Final = importlib.machinery.EXTENSION_SUFFIXES[0]


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _file(name: str, ending: str) -> Path:
    *package, module = name.split(".")
    return HERE.joinpath(*package, module + ending)


def source_of(name: str) -> Path:
    """The source of a module named from ``umtali`` (``ai.search``: ``umtali/ai/search.py``)."""
    return _file(name, ".py")


def extension_of(name: str) -> Path:
    """The extension module compiled from ``source_of(name)``, beside it."""
    return _file(name, SUFFIX)


def read_manifest() -> dict[str, str]:
    """The compiled modules and their sources' hashes; empty when nothing was compiled."""
    try:
        text = MANIFEST.read_text(encoding="utf-8")
    except OSError:
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        name, _, digest = line.partition(" ")
        if name and digest:
            out[name] = digest
    return out


def check() -> tuple[bool, str]:
    """Whether the compiled modules may run, and if not, why (one line)."""
    if os.environ.get("UMTALI_ENGINE", "") == "interpreted":
        return False, "UMTALI_ENGINE=interpreted"
    built = read_manifest()
    if not built:
        return False, "not compiled; make compiles it"
    for name, digest in built.items():
        path = name.replace(".", "/")
        if not extension_of(name).exists():
            return False, f"umtali/{path} is not compiled for this Python; make compiles it"
        if source_hash(source_of(name)) != digest:
            return False, f"umtali/{path}.py changed since it was compiled; make compiles it again"
    return True, f"{len(built)} modules, by mypyc"


class _FromSource:
    """Imports the listed modules of ``umtali`` and its subpackages (named from ``umtali``)
    from their sources, not from the extension modules beside them."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        top, _, name = fullname.partition(".")
        if top != "umtali" or name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(name))


def _extensions_here() -> set[str]:
    return {
        ".".join(p.relative_to(HERE).parts)[: -len(SUFFIX)] for p in HERE.rglob(f"*{SUFFIX}")
    }


COMPILED, WHY = check()
if not COMPILED:
    # Every extension module here is left alone, whatever the manifest lists.
    stale = _extensions_here() | set(read_manifest())
    if stale:
        sys.meta_path.insert(0, _FromSource(stale))

#: What runs, for the benches and the bot's start-up line.
ENGINE: Final = f"compiled: {WHY}" if COMPILED else f"interpreted: {WHY}"
