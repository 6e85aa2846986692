"""What the loopback Discord saw, one line a call or interaction, written beside a broken soak
run's kept log: which message was posted, edited and clicked when, and with which buttons."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.loopback.server import LoopbackDiscord


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


def write_trace(server: LoopbackDiscord, path: Path) -> None:
    start = server.calls[0].at if server.calls else 0.0
    lines = [f"{c.at - start:9.3f} {c.method} {c.path} -> {c.status}{_shown(_ids(c.body))}"
             for c in server.calls]
    for i in server.interactions.values():
        message = i.payload.get("message") or {}
        data = i.payload.get("data") or {}
        user = ((i.payload.get("member") or {}).get("user") or i.payload.get("user") or {})
        lines.append(f"interaction {i.id} by {user.get('id')} on message {message.get('id')}: "
                     f"{data.get('custom_id') or data.get('name')} {data.get('values') or ''} "
                     f"answered {i.callback_type} ({i.callbacks} callbacks)")
    path.write_text("\n".join(lines) + "\n")
