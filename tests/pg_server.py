"""A throwaway PostgreSQL server for the tests: made in a temporary directory, reached by its
Unix socket only (no port to clash with), stopped and removed at the end of the session.

The server's programs come from Debian's ``postgresql`` package (``make postgres`` installs it
when missing; ``UMTALI_PG_BINDIR`` may name another directory with ``initdb`` and
``postgres``). PostgreSQL refuses to run as root: as root, the server runs as the ``postgres``
user that package creates. ``Unavailable`` says why a server cannot be had; the tests that need
one are then skipped with that reason.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import asyncpg

#: Seconds to wait for the server to accept connections.
START_TIMEOUT = 60.0
#: The superuser of the throwaway cluster.
USER = "umtali"


class Unavailable(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def find_bindir() -> Path | None:
    """Where ``initdb`` and ``postgres`` are: ``UMTALI_PG_BINDIR`` if set, else the newest of
    Debian's versions, else the PATH."""
    named = os.environ.get("UMTALI_PG_BINDIR", "").strip()
    if named:  # chosen: that one or none
        bindir = Path(named)
        return bindir if (bindir / "initdb").is_file() else None
    candidates: list[Path] = []
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                    key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                    else 0, reverse=True)
    candidates += [Path(p) for p in debian]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for bindir in candidates:
        if (bindir / "initdb").is_file() and (bindir / "postgres").is_file():
            return bindir
    return None


def _server_user() -> pwd.struct_passwd | None:
    """The user the server runs as: None for this process's own (when it is not root)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("this runs as root, which PostgreSQL refuses, and there is no "
                          "'postgres' user to run it as (install Debian's postgresql "
                          "package: make postgres)") from None


class PgServer:
    """One running throwaway server; ``url(name)`` reaches a database on it."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.runner = _server_user()
        self.base = Path(tempfile.mkdtemp(prefix="umtali-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        #: The tests' template database is made (by the first test that needs it).
        self.template_ready = False
        if self.runner is not None:
            os.chown(self.base, self.runner.pw_uid, self.runner.pw_gid)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@/{database}?host={self.base}"

    def _run_as(self) -> dict[str, object]:
        if self.runner is None:
            return {}
        return {"user": self.runner.pw_uid, "group": self.runner.pw_gid, "extra_groups": []}

    def start(self) -> None:
        initdb = subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust",
             "-E", "UTF8", "--no-locale", "--no-sync"],
            cwd=self.base, capture_output=True, text=True, check=False, timeout=120,
            **self._run_as())  # type: ignore[call-overload]
        if initdb.returncode != 0:
            raise Unavailable(f"initdb failed: {initdb.stderr.strip()[-500:]}")
        with open(self.log, "wb") as log:
            # Durability off: the cluster lives as long as the test session.
            self.process = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(self.data), "-k", str(self.base),
                 "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
                 "-c", "full_page_writes=off", "-c", "max_connections=200"],
                # In pytest's process group: a Ctrl-C stops the server with the tests.
                cwd=self.base, stdout=log, stderr=subprocess.STDOUT,
                **self._run_as())  # type: ignore[call-overload]
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Unavailable(f"the server stopped at once: {self._log_tail()}")
            ready = subprocess.run([str(self.bindir / "pg_isready"), "-q", "-h", str(self.base),
                                    "-U", USER, "-d", "postgres"], check=False)
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        raise Unavailable(f"the server did not start in {START_TIMEOUT:g} s: {self._log_tail()}")

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace").strip()[-500:]
        return "(no log)"

    async def admin(self, sql: str) -> None:
        """Run ``sql`` (CREATE DATABASE, DROP DATABASE) on the server's own database."""
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def dump(self, database: str, to: Path) -> None:
        """``database`` as SQL, in the file ``to`` (what a broken soak keeps); a failure is
        written there instead."""
        done = subprocess.run([str(self.bindir / "pg_dump"), "-h", str(self.base), "-U", USER,
                               "-d", database, "-f", str(to)], capture_output=True, text=True,
                              check=False, timeout=120)
        if done.returncode != 0:
            to.write_text(f"pg_dump failed: {done.stderr.strip()[-500:]}\n")

    def stop(self) -> None:
        """Stop the server (fast shutdown: its clients are cut off) and remove its files."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.base, ignore_errors=True)


def start_server() -> PgServer:
    """A running throwaway server, or Unavailable."""
    bindir = find_bindir()
    if bindir is None:
        raise Unavailable("no PostgreSQL server programs (initdb, postgres) were found: "
                          "make postgres installs Debian's, or set UMTALI_PG_BINDIR")
    server = PgServer(bindir)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    return server
