"""The settings for running the bot at scale: shards, and the address of Discord's REST API.

``UMTALI_SHARD_COUNT`` and ``UMTALI_SHARD_IDS`` choose the shards this process runs (unset:
one plain connection, as Discord allows under 2500 servers). ``UMTALI_DISCORD_API`` sends every
REST call through a proxy that keeps all processes of the bot within Discord's rate limits
together (docs/scale.md). Each reader raises ValueError with one sentence for the user.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord

from data.process_name import PLAIN

__all__ = ["DISCORD_API", "ShardPlan", "gateway_refusal", "load_discord_api", "load_shards",
           "rest_failure", "shards_held", "use_discord_api"]

#: discord.py's own base URL of the REST API (what an unset UMTALI_DISCORD_API means).
DISCORD_API = "https://discord.com/api/v10"
#: Far more than any bot needs (Discord asks for one shard per 1000 servers).
MAX_SHARDS = 10_000
_RANGE = re.compile(r"([0-9]+)(?:-([0-9]+))?")


@dataclass(frozen=True)
class ShardPlan:
    """The shards this process runs."""

    #: All shards of the bot, over every process; None: as many as Discord recommends.
    count: int | None
    #: This process's shard ids; None: every one of the ``count``.
    ids: tuple[int, ...] | None = None

    def options(self) -> dict[str, Any]:
        """The keyword arguments of discord.py's ``AutoShardedBot`` for this plan."""
        options: dict[str, Any] = {"shard_count": self.count}
        if self.ids is not None:
            options["shard_ids"] = list(self.ids)
        return options


def _get(environ: Mapping[str, str], name: str) -> str:
    return environ.get(name, "").strip()


def load_shards(environ: Mapping[str, str]) -> ShardPlan | None:
    """The shard plan of UMTALI_SHARD_COUNT / UMTALI_SHARD_IDS; None when both are unset."""
    count_text = _get(environ, "UMTALI_SHARD_COUNT")
    ids_text = _get(environ, "UMTALI_SHARD_IDS")
    if not count_text and not ids_text:
        return None
    if not count_text:
        # Shards given, not their count: "must be … or empty, not ''" would contradict itself.
        raise ValueError(f"UMTALI_SHARD_IDS={ids_text} needs UMTALI_SHARD_COUNT set to the "
                         f"number of shards of the whole bot, the same in every process.")
    if count_text.lower() == "auto":
        count = None
    elif count_text.isascii() and count_text.isdigit() and 1 <= int(count_text) <= MAX_SHARDS:
        count = int(count_text)
    else:
        raise ValueError(f"UMTALI_SHARD_COUNT must be the number of shards of the whole bot "
                         f"(a whole number from 1 to {MAX_SHARDS}), auto, or empty, "
                         f"not {count_text!r}.")
    if not ids_text:
        return ShardPlan(count)
    if count is None:
        raise ValueError("UMTALI_SHARD_IDS needs UMTALI_SHARD_COUNT set to a number: every "
                         "process of the bot must agree on how many shards there are.")
    return ShardPlan(count, _shard_ids(ids_text, count))


def _shard_ids(text: str, count: int) -> tuple[int, ...]:
    ids: list[int] = []
    for part in text.split(","):
        found = _RANGE.fullmatch(part.strip())
        first = int(found.group(1)) if found else -1
        last = int(found.group(2) or first) if found else -1
        if found is None or not (0 <= first <= last < count):
            raise ValueError(f"UMTALI_SHARD_IDS must list shard ids from 0 to {count - 1} "
                             f"(UMTALI_SHARD_COUNT is {count}) such as 0,1 or 0-3, "
                             f"not {text!r}.")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"UMTALI_SHARD_IDS names a shard twice: {text!r}.")
    return tuple(ids)


def load_discord_api(environ: Mapping[str, str]) -> str | None:
    """UMTALI_DISCORD_API without a trailing slash; None when unset (Discord itself)."""
    text = _get(environ, "UMTALI_DISCORD_API").rstrip("/")
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname \
            or not parts.path.endswith("/api/v10") or parts.query or parts.fragment:
        raise ValueError(f"UMTALI_DISCORD_API must be the base URL of Discord's REST API as a "
                         f"proxy serves it, ending in /api/v10 (such as "
                         f"http://127.0.0.1:8080/api/v10), or empty, not {text!r}.")
    return text


def use_discord_api(base: str | None) -> None:
    """Send discord.py's REST calls (interaction answers included) to ``base``.

    discord.py has no option for this; its one base URL is ``discord.http.Route.BASE``, the
    documented way to put a REST proxy such as nirn-proxy or @discordjs/proxy in front.
    """
    if base is not None:
        discord.http.Route.BASE = base


def gateway_refusal(error: BaseException) -> str | None:
    """One sentence for the user when Discord refused the gateway session's shard."""
    if not isinstance(error, discord.ConnectionClosed):
        return None
    if error.code == 4011:
        return ("Discord requires sharding for this many servers: set UMTALI_SHARD_COUNT "
                "(auto, or at least one shard per 2500 servers; see docs/scale.md).")
    if error.code == 4010:
        return ("Discord refused the shard: UMTALI_SHARD_COUNT must be the same number in "
                "every process of the bot, and each UMTALI_SHARD_IDS below it.")
    return None


def rest_failure(error: BaseException, base: str | None) -> str | None:
    """One sentence when Discord's REST API, or the proxy in front of it (``base``:
    UMTALI_DISCORD_API), could not be used at start-up; None for any other error."""
    if isinstance(error, discord.DiscordServerError):
        status = error.status
        if base is not None:
            return (f"the REST proxy at UMTALI_DISCORD_API ({base}) answered {status} "
                    f"(Discord unreachable from it?): check the proxy's log and try again.")
        return (f"Discord's API answered {status} (an outage on Discord's side): try again "
                f"in a few minutes.")
    if base is None or not isinstance(error, aiohttp.ClientConnectorError):
        return None
    parts = urlsplit(base)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if (error.host, error.port) != (parts.hostname, port):
        return None  # the gateway, say: not the proxy
    return (f"could not reach the REST proxy at UMTALI_DISCORD_API ({base}): start it first "
            f"(make proxy; see docs/scale.md), or correct or empty UMTALI_DISCORD_API.")


def shards_held(plan: ShardPlan | None) -> dict[str, Any]:
    """The shard count and shards a process runs, as ``hold_name`` takes them: none given is
    one connection (shard 0 of 1); ``auto`` is known only once connected."""
    if plan is None:
        return {"count": PLAIN, "shards": (0,)}
    if plan.count is None:
        return {"count": None, "shards": None}
    return {"count": plan.count,
            "shards": plan.ids if plan.ids is not None else tuple(range(plan.count))}
