"""The loopback Discord leaves no socket open when it closes, even one accepted as it stopped:
a socket left to the garbage collector raises a ResourceWarning in whichever test runs then."""

from __future__ import annotations

import asyncio
import gc
import sys
from typing import Any

import pytest
from aiohttp.web_protocol import RequestHandler

from tests.loopback.server import LoopbackDiscord


async def test_a_connection_accepted_as_the_server_stops_is_closed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = RequestHandler.connection_made
    accepted = asyncio.Event()

    def slow(self: RequestHandler, transport: Any) -> None:
        # The race, made certain: the handler is told of its connection only after aiohttp
        # has closed every connection it knew of.
        accepted.set()
        asyncio.get_running_loop().call_later(0.05, made, self, transport)

    monkeypatch.setattr(RequestHandler, "connection_made", slow)
    unraised: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: unraised.append(repr(u.exc_value)))
    server = LoopbackDiscord()
    await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    await accepted.wait()
    await server.close()
    await asyncio.sleep(0.1)  # the late handler is made
    # The server closed its side: the client reads the end of the stream.
    assert await asyncio.wait_for(reader.read(), 5) == b""
    writer.close()
    await writer.wait_closed()
    gc.collect()
    assert not [u for u in unraised if "unclosed" in u], unraised
