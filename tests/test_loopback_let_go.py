"""The loopback's held calls (tests/loopback/rest.py): a call whose answer is lost is carried
out first, then held; one let go while it was carried out (the soak lets go a few seconds
after a call meets its fault) was held instead until aiohttp gave up on it, five minutes on."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import cast

from aiohttp import web

from tests.loopback.records import Call, Fault
from tests.loopback.rest import Handler, Rest
from tests.loopback.server import LoopbackDiscord


class SlowRest(Rest):
    """Carries a call out only when ``done`` is set."""

    def __init__(self, server: LoopbackDiscord) -> None:
        super().__init__(server)
        self.carrying, self.done = asyncio.Event(), asyncio.Event()

    def _route_table(self) -> list[tuple[str, str, Handler]]:
        return []

    async def _carry_out(self, call: Call) -> web.Response:
        self.carrying.set()
        await self.done.wait()
        return web.Response(status=200)


async def test_a_lost_answers_call_let_go_as_it_is_carried_out_ends() -> None:
    fault = Fault("POST", re.compile("^/channels/5/messages$"), 1, hold=True, lost=True)
    server = SimpleNamespace(faults=[fault], answers_lost=set(), faulted=set())
    rest = SlowRest(cast(LoopbackDiscord, server))
    call = Call("POST", "/channels/5/messages", {}, {"content": "x"})
    answered = asyncio.create_task(rest._fault(call))
    await asyncio.wait_for(rest.carrying.wait(), 5)
    # Let go, as ``LoopbackDiscord.release(hold_later=True)`` does; then carried out.
    rest.released.set()
    rest.released = asyncio.Event()
    rest.done.set()
    response = await asyncio.wait_for(answered, 5)
    assert response is not None and response.status == 503
    assert server.answers_lost == {"/channels/5/messages"}
