"""The REST proxy installed once for every test worker (``make test`` runs several): on a clean
clone each worker's first proxy test found proxy/node_modules missing and ran its own
``npm ci`` in the one proxy/ directory, each wiping what the others were installing; a test
went on with half a node_modules (the proxy failing to start: ERR_MODULE_NOT_FOUND), or was
skipped for an install that failed (a TAR_ENTRY_ERROR, ENOTEMPTY)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.loopback import proxy

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 4

#: One worker: ``install()`` on the copy of proxy/ at argv[1], then node loads the proxy's
#: modules (all of them, as proxy/server.mjs does) from what it left.
WORKER = """
import subprocess, sys
import pytest
from pathlib import Path
from tests.loopback import proxy
proxy.PROXY_DIR = Path(sys.argv[1])
proxy.INSTALLED = proxy.PROXY_DIR / "node_modules" / "@discordjs" / "proxy" / "package.json"
try:
    node = proxy.install()
except pytest.skip.Exception as e:
    sys.exit(f"skipped: {e}")
done = subprocess.run([node, "-e", "Promise.all([import('@discordjs/proxy'), "
                       "import('@discordjs/rest')]).then(() => console.log('loaded'))"],
                      cwd=proxy.PROXY_DIR, capture_output=True, text=True, timeout=60)
print(done.stdout.strip() or done.stderr.strip()[-400:])
"""


def _copy(to: Path) -> Path:
    to.mkdir()
    for name in ("package.json", "package-lock.json", "server.mjs"):
        shutil.copy(proxy.PROXY_DIR / name, to / name)
    return to


def test_workers_installing_the_proxy_at_once_each_get_all_of_it(tmp_path: Path) -> None:
    # Where npm cannot install it at all (no npm, no network), skipped as the proxy's tests
    # are: by the install they share (done once; not a copy's own, which took 2 s each time).
    proxy.install()
    shared = _copy(tmp_path / "shared")
    workers = []
    for n in range(WORKERS):
        # Started a little apart, as the workers come to their first proxy test: each finds
        # the install missing, or under way.
        if n:
            time.sleep(0.4)
        workers.append(subprocess.Popen([sys.executable, "-c", WORKER, str(shared)], cwd=ROOT,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True))
    said = [w.communicate(timeout=600)[0] for w in workers]
    if all("skipped: " in s for s in said):
        # proxy/ was installed already, but the copy's npm cannot install (no network).
        pytest.skip(f"npm cannot install the proxy here: {said[0].strip()[-200:]}")
    assert [w.returncode for w in workers] == [0] * WORKERS, said
    assert all(s.strip().endswith("loaded") for s in said), said
