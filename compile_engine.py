"""Compiles the engine's hot modules with mypyc (``make`` runs it before anything plays).

A game spends its time in the turn loop, the listing of legal moves, the hand and the views
the players choose from, and a computer player in its judgement of cards and the playouts of
its search (``umtali/ai``): these modules, compiled to C extension modules beside their
sources, play two to four times as fast (``bench/engine.py``, ``bench/ai.py``), and the same
program: mypyc compiles the typed Python as it is. The session stays in Python (the store and
the codec make sessions field by field, which a compiled class does not allow).
``umtali/compiled.py`` decides at import which runs, from the manifest written here; nothing
is compiled again while the sources' hashes match.

Usage: ``python compile_engine.py`` (``--force`` compiles again, ``--clean`` removes what it
built, ``--or-interpreted`` lets a failed build leave the sources to run, and tries no more
until a source changes: ``make run`` and ``make play`` pass it, ``make test`` and ``make
engine`` do not, so that CI tests the engine that runs, and ``make engine`` tries again).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# ``umtali/compiled.py`` alone, not the package: importing the engine would load the very
# modules being built.
_spec = importlib.util.spec_from_file_location("_umtali_compiled", ROOT / "umtali" / "compiled.py")
assert _spec is not None and _spec.loader is not None
_compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_compiled)
HERE, MANIFEST, SUFFIX = _compiled.HERE, _compiled.MANIFEST, _compiled.SUFFIX
read_manifest, source_hash = _compiled.read_manifest, _compiled.source_hash
source_of, extension_of = _compiled.source_of, _compiled.extension_of

#: The modules compiled, named from ``umtali``, all in one group (they call each other
#: directly). Of ``umtali/ai``, what the playouts and the judgement of cards run; not the
#: players themselves (``hard``, ``normal`` and their ``memory``, which are pickled and
#: deep-copied, and take little time).
MODULES = (
    "melds", "reach", "search", "listing", "turns", "hand", "table_view", "view", "players",
    "ai.outlook", "ai.heuristics", "ai.policy", "ai.lookahead", "ai.determinize", "ai.search",
    "ai.stakes", "ai.guesses",
)
#: The group's shared library: ``umtali/engine__mypyc`` + the interpreter's suffix.
GROUP = "umtali.engine"
BUILD = ROOT / "build" / "mypyc"
#: A build that failed under ``--or-interpreted``: what it tried (the sources' hashes, the
#: interpreter). The same tried again fails again (no C compiler: every ``make play`` would
#: wait seconds for it), so it is not, until a source changes or ``make engine`` asks.
FAILED = ROOT / "build" / "engine-not-compiled.txt"


def up_to_date() -> bool:
    built = read_manifest()
    return set(built) == set(MODULES) and all(
        built[m] == source_hash(source_of(m)) and extension_of(m).exists()
        for m in MODULES
    ) and (HERE / f"engine__mypyc{SUFFIX}").exists()


def tried() -> str:
    """What a build now would try: the interpreter's suffix and each source's hash."""
    return "".join([f"python {SUFFIX}\n",
                    *(f"{m} {source_hash(source_of(m))}\n" for m in MODULES)])


def failed_before() -> bool:
    """Whether a build of these very sources failed, with this interpreter."""
    try:
        return FAILED.read_text(encoding="utf-8") == tried()
    except OSError:
        return False


def clean() -> None:
    FAILED.unlink(missing_ok=True)
    MANIFEST.unlink(missing_ok=True)
    for path in HERE.rglob(f"*{SUFFIX}"):
        path.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def compile_modules() -> None:
    # What mypyc and setuptools say (mypyc's notes on the code, setuptools' beta notice) is
    # shown only if the build fails: a build that works says one line.
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            _build()
    except BaseException:
        sys.stderr.write(said.getvalue())
        raise


def _build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    # The hashes of what is compiled, taken first: a source edited during the build is then
    # seen as changed, and runs from its source.
    hashes = {m: source_hash(source_of(m)) for m in MODULES}
    MANIFEST.unlink(missing_ok=True)
    os.chdir(ROOT)
    extensions = mypycify(
        [str(source_of(m).relative_to(ROOT)) for m in MODULES],
        group_name=GROUP,
        target_dir=str(BUILD / "c"),
    )
    setup(
        name="umtali-engine",
        ext_modules=extensions,
        script_args=["-q", "build_ext", "--inplace", "--build-temp", str(BUILD / "temp")],
    )
    MANIFEST.write_text("".join(f"{m} {hashes[m]}\n" for m in MODULES), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="compile even if up to date")
    parser.add_argument("--clean", action="store_true", help="remove what was compiled")
    parser.add_argument(
        "--or-interpreted", action="store_true",
        help="if compiling fails, say so and succeed: the engine then runs from its sources",
    )
    args = parser.parse_args()
    if args.clean:
        clean()
        return
    if args.force or not up_to_date():
        if args.or_interpreted and not args.force and failed_before():
            print("engine: NOT compiled (it failed for these sources before); the game runs "
                  "from the sources, about half as fast. Install a C compiler and Python's "
                  "headers, then run make engine.", file=sys.stderr)
            return
        clean()
        try:
            compile_modules()
        except (Exception, SystemExit) as e:
            # (setuptools stops with SystemExit when the compiler fails.)
            if not args.or_interpreted:
                raise
            clean()
            FAILED.parent.mkdir(parents=True, exist_ok=True)
            FAILED.write_text(tried(), encoding="utf-8")
            print(f"engine: NOT compiled ({type(e).__name__}: {e}); the game runs from the "
                  "sources, about half as fast. Install a C compiler and Python's headers, "
                  "then run make engine.", file=sys.stderr)
            return
    print(f"engine: {', '.join(MODULES)} compiled (umtali/compiled.txt)")


if __name__ == "__main__":
    main()
