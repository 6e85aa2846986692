"""A COMMIT's answer lost for real: a proxy on a Unix socket between the bot's connections and
the tests' PostgreSQL, which, armed, cuts the connection as the server's answer to a COMMIT
comes back. The server has committed (it answers only then); the bot hears its connection
lost in the middle of the COMMIT, as after a network failure or a failover."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile

#: The server's CommandComplete for a COMMIT: 'C', its length (4 + 7), the tag.
COMMIT_DONE = b"C\x00\x00\x00\x0bCOMMIT\x00"
#: The bot's COMMIT, a simple query ('Q').
COMMIT = b"COMMIT;\x00"
#: PostgreSQL's socket in its directory (the default port).
SOCKET = ".s.PGSQL.5432"


class CommitCut:
    def __init__(self, server_dir: str) -> None:
        self.server_dir = server_dir
        # Short: a Unix socket's path has room for about 100 characters.
        self.dir = tempfile.mkdtemp(prefix="umtali-cut-")
        self._server: asyncio.Server | None = None
        #: COMMITs still to cut, and those cut.
        self.armed = 0
        self.cut = 0
        #: COMMITs still to hold back: the bot's connection cut as it sends one, which reaches
        #: the server once ``sent`` is set (the server slow to take it, or to write it).
        self.late = 0
        self.sent = asyncio.Event()
        self._pumps: set[asyncio.Task[None]] = set()

    def url(self, url: str) -> str:
        """``url`` (on the tests' server) reached through the proxy."""
        base, _, _ = url.partition("?host=")
        return f"{base}?host={self.dir}"

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._client, path=f"{self.dir}/{SOCKET}")

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._pumps):
            task.cancel()
        await asyncio.gather(*self._pumps, return_exceptions=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_unix_connection(
            f"{self.server_dir}/{SOCKET}")

        def cut() -> None:
            writer.transport.abort()
            up_writer.transport.abort()

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                       answers: bool) -> None:
            tail = b""
            try:
                with contextlib.suppress(ConnectionError, OSError):
                    while data := await src.read(65536):
                        if not answers and self.late and COMMIT in data:
                            self.late -= 1
                            self.cut += 1
                            writer.transport.abort()  # the bot hears its connection lost
                            await self.sent.wait()
                            dst.write(data)
                            await dst.drain()
                            await asyncio.sleep(0.2)  # committed, then closed
                            return
                        if answers and self.armed and COMMIT_DONE in tail + data:
                            self.armed -= 1
                            self.cut += 1
                            return
                        tail = data[-len(COMMIT_DONE):]
                        dst.write(data)
                        await dst.drain()
            finally:
                cut()  # either side gone (or the proxy closing): both are

        for task in (asyncio.ensure_future(pump(reader, up_writer, False)),
                     asyncio.ensure_future(pump(up_reader, writer, True))):
            self._pumps.add(task)
            task.add_done_callback(self._pumps.discard)
