"""The size limits Discord enforces on what a bot sends; over one, it answers 400 (50035).

Only the limits this bot can reach: message content, embeds, select options, thread names.
"""

from __future__ import annotations

from typing import Any

CONTENT = 2000
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_TOTAL = 256, 4096, 6000
FIELD_NAME, FIELD_VALUE, FOOTER = 256, 1024, 2048
OPTION_LABEL, THREAD_NAME = 100, 100


def problems(body: Any) -> list[str]:
    """What in a message body (a send, an edit or an interaction's answer) Discord refuses."""
    if not isinstance(body, dict):
        return []
    found: list[str] = []

    def over(what: str, text: Any, limit: int) -> int:
        size = len(text) if isinstance(text, str) else 0
        if size > limit:
            found.append(f"{what}: {size} > {limit}")
        return size

    over("content", body.get("content"), CONTENT)
    for embed in body.get("embeds") or []:
        total = over("embed title", embed.get("title"), EMBED_TITLE)
        total += over("embed description", embed.get("description"), EMBED_DESCRIPTION)
        total += over("embed footer", (embed.get("footer") or {}).get("text"), FOOTER)
        for f in embed.get("fields") or []:
            total += over("field name", f.get("name"), FIELD_NAME)
            total += over("field value", f.get("value"), FIELD_VALUE)
        if total > EMBED_TOTAL:
            found.append(f"embed: {total} > {EMBED_TOTAL}")
    for row in body.get("components") or []:
        for c in row.get("components") or []:
            for option in c.get("options") or []:
                over("option label", option.get("label"), OPTION_LABEL)
    if "name" in body and "content" not in body:
        over("thread name", body.get("name"), THREAD_NAME)
    return found
