"""One process of a bot sending messages at once with discord.py's own HTTP client.

Run by the rate-limit tests, two at a time: ``sender.py CHANNELS COUNT TAG`` logs in and posts
COUNT messages "TAG n" at once, spread over the CHANNELS (ids joined by commas: a bot with a
game in each), to UMTALI_DISCORD_API (a proxy) when it is set, else to UMTALI_LOOPBACK_URL's
server: logged in, it prints "ready" and sends once it reads a line. Exit status 0: every
message was sent.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


async def send(channels: list[int], count: int, tag: str) -> None:
    import discord

    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login("loopback-token")
    # Started and logged in: the test says when to send (both processes at once, however
    # long each took to start).
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)

    async def one(n: int) -> None:
        with discord.http.handle_message_parameters(content=f"{tag} {n}") as params:
            await http.send_message(channels[n % len(channels)], params=params)
    try:
        await asyncio.gather(*(one(n) for n in range(count)))
    finally:
        await http.close()


def run() -> int:
    import discord

    from scale import load_discord_api, use_discord_api

    host = os.environ["UMTALI_LOOPBACK_URL"].rstrip("/")
    discord.http.Route.BASE = f"{host}/api/v10"
    # The bot's own setting, read and applied as bot.py does.
    use_discord_api(load_discord_api(os.environ))
    channels = [int(c) for c in sys.argv[1].split(",")]
    asyncio.run(send(channels, int(sys.argv[2]), sys.argv[3]))
    return 0


if __name__ == "__main__":
    sys.exit(run())
