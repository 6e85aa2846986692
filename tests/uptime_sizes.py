"""Sizes of everything the bot keeps in memory, to compare after N and 2N sessions played to
their ends (weeks of uptime): what grows with the sessions ever seen rather than those live."""

from __future__ import annotations

import asyncio
import gc
import os
import weakref
from collections import OrderedDict
from typing import Any

CONTAINERS = (dict, set, list, OrderedDict, weakref.WeakValueDictionary,
              weakref.WeakKeyDictionary, weakref.WeakSet, frozenset, tuple)
OURS = ("cogs.", "data.", "bot", "umtali.")


def _walk(obj: Any, path: str, out: dict[str, int], seen: set[int], depth: int) -> None:
    if id(obj) in seen or depth > 4:
        return
    seen.add(id(obj))
    fields: dict[str, Any] = {}
    if hasattr(obj, "__dict__"):
        fields.update(vars(obj))
    for klass in type(obj).__mro__:
        for slot in getattr(klass, "__slots__", ()):
            if hasattr(obj, slot):
                fields[slot] = getattr(obj, slot)
    for name, value in fields.items():
        here = f"{path}.{name}"
        if isinstance(value, CONTAINERS) and not isinstance(value, tuple):
            out[here] = len(value)
            # one level into dicts of dicts/sets (e.g. delivery._tries, removals.unsure)
            if isinstance(value, dict):
                out[here + "[*]"] = sum(len(v) for v in list(value.values())
                                        if isinstance(v, CONTAINERS))
        elif type(value).__module__.startswith(OURS) and not callable(value):
            _walk(value, here, out, seen, depth + 1)


def sizes(bot: Any) -> dict[str, int]:
    """Every container reachable from the bot's service and its parts, the module-level
    ones, the tasks, discord.py's view store, and the open file descriptors."""
    from cogs.umtali import coach, final_card, hand_panels, outgrown, question, retiring, time_out
    from cogs.umtali.pictures import cache as pictures

    gc.collect()
    out: dict[str, int] = {}
    seen: set[int] = set()
    svc = bot.matches
    _walk(svc, "svc", out, seen, 0)
    _walk(bot, "bot", out, seen, 0)
    for name, cog in bot.cogs.items():
        _walk(cog, f"cog[{name}]", out, seen, 0)
    c = coach._COACHES.get(bot)
    if c is not None:
        _walk(c, "coach", out, seen, 0)
    p = hand_panels._PANES.get(bot)
    if p is not None:
        _walk(p, "panes", out, seen, 0)
    out["question.unsaved_asked"] = len(question.unsaved_asked)
    out["question.unsaved_at"] = len(question.unsaved_at)
    out["final_card._owed"] = sum(len(v) for v in final_card._owed.values())
    out["time_out._asking"] = len(time_out._asking)
    out["retiring._RETIRING"] = len(retiring._RETIRING)
    out["outgrown._CLOSING"] = len(outgrown._CLOSING)
    for name in dir(pictures):
        value = getattr(pictures, name)
        if type(value).__name__ == "PictureCache":
            out[f"pictures.{name}"] = len(value._items)
    store = bot._connection._view_store
    out["views._views"] = len(store._views)
    out["views._synced"] = len(store._synced_message_views)
    out["views._modals"] = len(store._modals)
    out["views._dynamic_items"] = len(store._dynamic_items)
    state = bot._connection
    out["discord.messages"] = len(state._messages or ())
    out["discord.private_channels"] = len(state._private_channels)
    out["discord.users"] = len(state._users)
    out["discord.guilds"] = len(state._guilds)
    out["discord.threads"] = sum(len(g._threads) for g in state._guilds.values())
    out["discord.members"] = sum(len(g._members) for g in state._guilds.values())
    out["asyncio.tasks"] = len(asyncio.all_tasks())
    out["fds"] = len(os.listdir("/proc/self/fd"))
    out["gc.LiveMatch"] = sum(type(o).__name__ == "LiveMatch" for o in gc.get_objects())
    out["gc.Session"] = sum(type(o).__name__ == "Session" for o in gc.get_objects())
    out["gc.View"] = sum(type(o).__name__ in ("View", "Modal") for o in gc.get_objects())
    return out


def grown(first: dict[str, int], second: dict[str, int],
          third: dict[str, int]) -> dict[str, tuple[int, int, int]]:
    """What grew from the first to the second and again to the third."""
    return {k: (first.get(k, 0), second.get(k, 0), v) for k, v in third.items()
            if v > second.get(k, 0) > first.get(k, 0) or v > first.get(k, 0) + 1}
