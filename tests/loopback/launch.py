"""Start ``bot.py``'s ``main()`` with discord.py pointed at a loopback server.

Used by the tests as a subprocess: ``UMTALI_LOOPBACK_URL=http://127.0.0.1:PORT`` chooses the
server; everything else (DISCORD_TOKEN, UMTALI_DB_PATH, ...) is read by ``bot.py`` as usual.
bot.py itself is not changed: only discord.py's two addresses are patched before it starts.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _patch(url: str) -> None:
    import discord

    from tests.loopback.server import point_discord_py_at

    host = url.rstrip("/")
    point_discord_py_at(f"{host}/api/v10", host.replace("http", "ws", 1) + "/gateway")
    original = discord.Client.__init__

    def init(self: discord.Client, *args: Any, **options: Any) -> None:
        # "ready" comes this long after the last GUILD_CREATE; the default 2 s only slows tests.
        options.setdefault("guild_ready_timeout", 0.1)
        original(self, *args, **options)

    discord.Client.__init__ = init  # type: ignore[method-assign]

    async def no_wait(self: discord.Client, shard_id: int | None, *,
                      initial: bool = False) -> None:
        """No 5 s pause before a shard's IDENTIFY: the loopback does not limit them."""

    discord.Client.before_identify_hook = no_wait  # type: ignore[method-assign]


def run() -> int:
    url = os.environ.get("UMTALI_LOOPBACK_URL", "")
    if not url.startswith("http://127.0.0.1:"):
        print("error: UMTALI_LOOPBACK_URL must be http://127.0.0.1:<port>", file=sys.stderr)
        return 2
    _patch(url)
    from bot import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
