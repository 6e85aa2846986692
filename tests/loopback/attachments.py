"""Files the bot uploads with a message (multipart form: ``payload_json`` and ``files[n]``).

Discord's rules, as far as this bot reaches them: a new message carries every uploaded file;
an edit that lists ``attachments`` keeps only the listed ones that the message already had,
plus the uploaded files; an edit that lists none keeps what the message had and adds the
uploads. An embed's ``attachment://name`` must name a file the message carries.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

from aiohttp import BodyPartReader, web

#: (filename, bytes) in the order of the ``files[n]`` parts.
Files = list[tuple[str, bytes]]


async def read_body(request: web.Request) -> tuple[Any, Files]:
    """The JSON body and the uploaded files of a request."""
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        body: Any = {}
        files: Files = []
        with warnings.catch_warnings():
            # aiohttp's own reader calls its deprecated unread_data() when a part's boundary
            # falls across chunks (now and then, on a loaded machine); the tests turn warnings
            # into errors, and the upload would be answered 500.
            warnings.filterwarnings("ignore", "unread_data", DeprecationWarning)
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append((part.filename or "", bytes(await part.read())))
        return body, files
    text = await request.text()
    return (json.loads(text) if text else {}), []


def attach(message: dict[str, Any], body: dict[str, Any], files: Files,
           uploads: dict[int, bytes], snowflake: Callable[[], int], *, edit: bool) -> None:
    """Set the message's attachments from what the bot sent; keep each file's bytes."""
    listed = body.get("attachments")
    if edit and listed is None and not files:
        return
    kept: list[dict[str, Any]] = []
    if edit:
        old = {a["id"]: a for a in message.get("attachments") or []}
        keep = old.values() if listed is None else [
            old[str(a.get("id"))] for a in listed if str(a.get("id")) in old]
        kept = list(keep)
    for filename, data in files:
        attachment_id = snowflake()
        uploads[attachment_id] = data
        url = f"https://cdn.loopback.invalid/attachments/{attachment_id}/{filename}"
        kept.append({"id": str(attachment_id), "filename": filename, "size": len(data),
                     "url": url, "proxy_url": url,
                     "content_type": "image/png" if filename.endswith(".png") else None})
    message["attachments"] = kept


def dangling(message: dict[str, Any]) -> list[str]:
    """The ``attachment://`` references of its embeds that name no file it carries."""
    names = {a["filename"] for a in message.get("attachments") or []}
    out = []
    for embed in message.get("embeds") or []:
        for key in ("image", "thumbnail"):
            url = str((embed.get(key) or {}).get("url") or "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                out.append(url)
    return out
