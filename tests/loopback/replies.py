"""The loopback Discord's HTTP answers, shaped as discord.py expects Discord's to be.

One place for the headers every answer needs, so that no handler forgets them.
"""

from __future__ import annotations

from json import dumps
from typing import Any

from aiohttp import web


def json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """``data`` as a JSON answer."""
    # discord.py parses a body as JSON only when Content-Type is exactly this (no charset),
    # and treats a 429 without ``Via`` as a Cloudflare ban, so both headers are always set.
    return web.Response(body=dumps(data).encode(), status=status, headers={
        "Content-Type": "application/json", "Via": "1.1 loopback", **(headers or {})})


def found(message: dict[str, Any] | None) -> web.Response:
    """The message, or Discord's "Unknown Message" when there is none."""
    return json(message) if message is not None else error(404, 10008, "Unknown Message")


def error(status: int, code: int, message: str) -> web.Response:
    """An error as Discord words one: its JSON error code and message."""
    return json({"message": message, "code": code}, status)
