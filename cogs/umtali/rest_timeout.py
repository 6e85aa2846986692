"""Every call to Discord's REST API gives up after ``REST_TIMEOUT``, rather than after aiohttp's
five minutes: a match's delivery makes its calls one after another, so a call Discord never
answers would hold back that match's table, announcements and DM panels (its players' clocks
running) for as long. Given up, it is a failure for now (``failures.PASSING``), tried again.
Calls through an interaction's webhook (its answers, an open hand panel's edits) go by
discord.py's webhook adapter, which this does not reach: the one a match's delivery waits on, a
hand panel's edit, is bounded where it is made (``hand_panels.refresh_pane``)."""

from __future__ import annotations

from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

#: A call's whole time, its upload included (the largest, a table picture, is some 200 KB).
REST_TIMEOUT = aiohttp.ClientTimeout(total=30.0)


def bound_calls(http: HTTPClient) -> None:
    """Give each of ``http``'s calls ``REST_TIMEOUT`` (read when the bot is made)."""
    timeout = REST_TIMEOUT
    request = http.request

    async def bounded(route: Route, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", timeout)
        return await request(route, **kwargs)

    http.request = bounded  # type: ignore[method-assign]
