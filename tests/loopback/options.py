"""Slash command options: encoded as a member's Discord client sends them, checked as Discord
checks them against the synced commands before a bot sees them.

Tests give options as Python values; a value Discord's client could never send fails the test
at once (``RefusedByClient``) instead of reaching the bot as an impossible interaction.
"""

from __future__ import annotations

from typing import Any

from tests.loopback import payloads as p
from tests.loopback.records import Member

#: Discord's option types for the values tests give.
STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6


class RefusedByClient(ValueError):
    """Options Discord itself would refuse (wrong type, out of range, not a choice): a member's
    Discord client cannot send them, so they never reach a bot."""


def encode(options: dict[str, Any], users: dict[int, dict[str, Any]],
           members: list[int], nicks: dict[int, str] | None = None
           ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The options' list and their ``resolved`` users and members, from Python values (a member
    option given as ``Member(id)``); ``nicks``: the members' nicknames."""
    opts: list[dict[str, Any]] = []
    resolved: dict[str, Any] = {"users": {}, "members": {}}
    for key, value in options.items():
        if isinstance(value, Member):
            who = users[value.id]
            opts.append({"name": key, "type": USER, "value": str(value.id)})
            resolved["users"][str(value.id)] = who
            if value.id in members:
                m = p.member(who, (nicks or {}).get(value.id))
                del m["user"]
                resolved["members"][str(value.id)] = m
        # bool before int: True is an int too.
        elif isinstance(value, bool):
            opts.append({"name": key, "type": BOOLEAN, "value": value})
        elif isinstance(value, int):
            opts.append({"name": key, "type": INTEGER, "value": value})
        else:
            opts.append({"name": key, "type": STRING, "value": str(value)})
    return opts, resolved


def check(command: dict[str, Any], sub: str, given: list[dict[str, Any]]) -> None:
    """Check options against the synced definition, as Discord does before delivering them."""
    spec = command
    if sub:
        spec = next((o for o in command.get("options", []) if o["name"] == sub), {})
        if not spec:
            raise RefusedByClient(f"no subcommand {sub!r}")
    defs = {o["name"]: o for o in spec.get("options", [])}
    names = {o["name"] for o in given}
    missing = [n for n, o in defs.items() if o.get("required") and n not in names]
    if missing:
        raise RefusedByClient(f"missing {missing}")
    for option in given:
        d = defs.get(option["name"])
        if d is None or d["type"] != option["type"]:
            raise RefusedByClient(f"option {option['name']!r} is not of type {option['type']}")
        value = option["value"]
        choices = d.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise RefusedByClient(f"{value!r} is not a choice of {option['name']!r}")
        if d.get("min_value") is not None and value < d["min_value"]:
            raise RefusedByClient(f"{value!r} is below {d['min_value']}")
        if d.get("max_value") is not None and value > d["max_value"]:
            raise RefusedByClient(f"{value!r} is above {d['max_value']}")
        if isinstance(value, str) and not (
                d.get("min_length", 0) <= len(value) <= d.get("max_length", 6000)):
            raise RefusedByClient(f"{value!r} has the wrong length")
        if value == "" and d.get("required"):
            # Discord's client does not send a required text option left empty.
            raise RefusedByClient("empty required text")


def unlimited(commands: list[dict[str, Any]], command: str, option: str) -> None:
    """The synced ``command``'s ``option`` (``"umtali play"``, ``"move"``) as a version without
    its max_length synced it: a member's client then sends text of any length until the bot's
    own sync succeeds (a bot must still answer it)."""
    group, _, name = command.partition(" ")
    spec = next(c for c in commands if c["name"] == group)
    if name:
        spec = next(o for o in spec["options"] if o["name"] == name)
    for o in spec["options"]:
        if o["name"] == option:
            o.pop("max_length", None)
