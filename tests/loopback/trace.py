"""What the loopback Discord saw, one line a call, message or interaction in the order of their
times, written beside a broken soak run's kept log: which message was posted, edited and
clicked when, and with which buttons (a message's line shows those it has at the end)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord

#: Discord's epoch, the snowflakes' zero (ms).
EPOCH = 1420070400000


def _ids(body: Any) -> list[str]:
    """The custom ids anywhere in ``body``."""
    if isinstance(body, dict):
        own = [str(body["custom_id"])] if "custom_id" in body else []
        return own + [i for v in body.values() for i in _ids(v)]
    if isinstance(body, list):
        return [i for v in body for i in _ids(v)]
    return []


def _shown(ids: list[str]) -> str:
    if not ids:
        return ""
    return f" ids[{len(ids)}]={','.join(ids[:3])}{',…' if len(ids) > 3 else ''}"


def _fields(body: Any) -> str:
    """What a table's embed shows (its first two fields), to tell one position from another."""
    embeds = body.get("embeds") if isinstance(body, dict) else None
    if not embeds or not isinstance(embeds[0], dict):
        return ""
    fields = embeds[0].get("fields") or []
    said = " | ".join(f"{f.get('name')}: {f.get('value')}" for f in fields[:2]
                      if isinstance(f, dict))
    return f" shows {said[:160]!r}" if said else ""


def _sender(user_agent: str) -> str:
    """The bot's process that made a call, when the launcher named it (``launch.py``)."""
    _, named, name = user_agent.rpartition(" umtali-process/")
    return f" [{name}]" if named else ""


def _made(snowflake: int | str) -> float:
    return ((int(snowflake) >> 22) + EPOCH) / 1000


def write_trace(server: LoopbackDiscord, path: Path) -> None:
    lines: list[tuple[float, str]] = [
        (c.at, f"{c.method} {c.path} -> {c.status}{_sender(c.user_agent)}"
               f"{' (sent again: the first given back)' if c.given_back else ''}"
               f"{_shown(_ids(c.body))}{_fields(c.body)}") for c in server.calls]
    for m in server.messages.values():
        text = str(m.get("content") or "")[:60].replace("\n", " ")
        lines.append((_made(m["id"]), f"message {m['id']} in {m['channel_id']} by "
                      f"{(m.get('author') or {}).get('id')}: {text!r} now{_shown(_ids(m))}"))
    for i in server.interactions.values():
        message = i.payload.get("message") or {}
        data = i.payload.get("data") or {}
        user = ((i.payload.get("member") or {}).get("user") or i.payload.get("user") or {})
        said = str((i.callback.get("data") or {}).get("content") or "")[:60]
        lines.append((_made(i.id), f"interaction {i.id} by {user.get('id')} on message "
                      f"{message.get('id')}: {data.get('custom_id') or data.get('name')} "
                      f"{data.get('values') or ''} answered {i.callback_type} {said!r}"))
    lines.sort(key=lambda line: line[0])
    path.write_text("".join(
        f"{datetime.fromtimestamp(at, UTC).strftime('%H:%M:%S.%f')[:-3]} {text}\n"
        for at, text in lines))
