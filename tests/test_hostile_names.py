"""Hostile display names over the loopback Discord: nobody is pinged who was not meant to be.

Members choose their own names, and the bot shows them on every turn. Names such as
``@everyone``, a role or user mention, markdown, zero-width and right-to-left override
characters go through two sessions (one played out, one resigned), the table, the
leaderboards, stats, history and a replay export; every payload the bot sent is checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.driver import (
    custom_ids,
    play_out,
    read_match,
    start_session,
    table_settled,
    until,
)
from tests.loopback.harness import bot_in_process, loopback_server
from tests.loopback.server import Call, LoopbackDiscord, Member

MASS = re.compile(r"@(everyone|here)|<@&[0-9]+>")
USER = re.compile(r"<@!?([0-9]+)>")
#: Characters that must never reach a name as shown (the zero-width space is ours: it is what
#: keeps "@\u200beveryone" from being a mention; so are the isolates around a right-to-left
#: name, which none of these is: tests/test_names_bidi.py).
HIDDEN = re.compile("[\u200c-\u200f\u202a-\u202e\u2066-\u2069\ufeff\x00-\x09\x0b-\x1f]")
#: The marks a name opens with (an accent, the keycap's): they would sit on the text before
#: the name, and none of the bot's own texts has them.
LEADING = re.compile("[\u0301\u20e3]")
MARKDOWN = ("**bold**", "||spoiler||", "`tick`")


def sent(server: LoopbackDiscord) -> Iterator[tuple[Call, dict[str, Any]]]:
    """Every message body the bot sent: posts, edits, answers and follow-ups."""
    for call in server.calls:
        if call.method not in ("POST", "PATCH") or not isinstance(call.body, dict):
            continue
        body = call.body.get("data") if call.path.endswith("/callback") else call.body
        if isinstance(body, dict) and ("content" in body or "embeds" in body):
            yield call, body


def texts(body: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, text) for every piece of text a body shows."""
    if body.get("content"):
        yield "content", body["content"]
    for embed in body.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                yield f"embed {key}", embed[key]
        for f in embed.get("fields") or []:
            yield "field name", f["name"]
            yield "field value", f["value"]
        if (embed.get("footer") or {}).get("text"):
            yield "footer", embed["footer"]["text"]
    for row in body.get("components") or []:
        for c in row.get("components") or []:
            for key in ("label", "placeholder"):
                if c.get(key):
                    yield "label", c[key]
            for option in c.get("options") or []:
                yield "label", option["label"]


def pinged(body: dict[str, Any]) -> set[int]:
    """Who Discord would notify for this body."""
    allowed = body.get("allowed_mentions")
    mentioned = {int(u) for u in USER.findall(body.get("content") or "")}
    if allowed is None or "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users", [])}


async def two_sessions(server: LoopbackDiscord, db: Path) -> dict[str, int]:
    """Two sessions between hostile names, and everything that shows their names."""
    carol = server.add_member("c" * 32)
    who = {
        "everyone": server.add_member("@everyone **bold**"),
        "role": server.add_member(f"<@&{server.guild_id}> ||spoiler||"),
        "user": server.add_member(f"\u0301\u20e3<@{carol}> `tick` a\u200bb\ufeff"),
        "rtl": server.add_member("\u202e@here\u2066 " + "W" * 40),
        "carol": carol,
    }
    first = await start_session(server, db, who["everyone"], who["role"])
    await play_out(server, db, first.id)
    done = read_match(db, first.id)
    assert done is not None and done.status == "finished"
    await until(lambda: table_settled(server, done), "the first session's final table")

    second = await start_session(server, db, who["user"], who["rtl"], variant="russian")
    await play_out(server, db, second.id, moves=6)
    # A player posts the live table again (anyone else would get a private snapshot).
    table = await server.slash(who["rtl"], second.channel_id, "umtali table")
    assert not table.ephemeral
    ask = await server.slash(who["user"], second.channel_id, "umtali resign")
    assert ask.response is not None
    yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
    await server.click(who["user"], ask.response, yes)
    await until(lambda: (m := read_match(db, second.id)) is not None
                and m.status == "finished", "the resignation")

    for scope in ("server", "global"):
        board = await server.slash(carol, server.channel_id, "umtali leaderboard",
                                   {"scope": scope})
        assert board.callback_type == 4, board.text()
    for name in ("everyone", "role", "user", "rtl", "carol"):
        stats = await server.slash(carol, server.channel_id, "umtali stats",
                                   {"member": Member(who[name]), "versus": Member(carol)})
        assert stats.callback_type == 4, stats.text()
    for name, match_id in (("everyone", first.id), ("rtl", second.id)):
        history = await server.slash(carol, server.channel_id, "umtali history",
                                     {"member": Member(who[name])})
        assert history.response is not None, history.text()
        [menu] = [c for c in custom_ids(history.response) if c.startswith("umtali:rp:")]
        replay = await server.click(carol, history.response, menu, values=[str(match_id)])
        assert replay.callback_type == 4, replay.text()
        assert "its replay file (the moves)" in replay.text(), replay.text()
    return who


async def test_hostile_names(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two whole sessions of hostile names (one bot run, ~5 s, for both checks below)."""
    db = tmp_path / "umtali.sqlite3"
    async with loopback_server(monkeypatch) as server, bot_in_process(server, db):
        who = await two_sessions(server, db)
        never_ping_anyone(server, who)
        show_nowhere_raw(server)


def never_ping_anyone(server: LoopbackDiscord, who: dict[str, int]) -> None:
    """No text pings anyone but the players it is for; the names show, made harmless."""
    players = {who[k] for k in ("everyone", "role", "user", "rtl")}
    bodies = list(sent(server))
    assert len(bodies) > 50
    for call, body in bodies:
        # Every text says whom it may ping: without that Discord parses everything. (An
        # edit without content, such as the table's, pings nobody.)
        allowed = body.get("allowed_mentions") or {}
        assert allowed or not body.get("content"), (call.path, body)
        assert not {"everyone", "roles"} & set(allowed.get("parse", [])), (call.path, allowed)
        assert not allowed.get("roles"), (call.path, allowed)
        assert {int(u) for u in allowed.get("users", [])} <= players, (call.path, allowed)
        assert pinged(body) <= players, (call.path, body.get("content"))
        assert not MASS.search(body.get("content") or ""), (call.path, body["content"])
        for where, text in texts(body):
            assert not HIDDEN.search(text), (call.path, where, text)
            assert not LEADING.search(text), (call.path, where, ascii(text))
    # Each challenge pings the challenged member, and only them.
    challenges = [b for c, b in bodies if c.path.endswith("/callback")
                  and "challenges" in str(b.get("embeds")) and b.get("content")]
    assert len(challenges) == 2
    for b, opponent in zip(challenges, (who["role"], who["rtl"]), strict=True):
        assert b["content"] == f"<@{opponent}>"
        assert b["allowed_mentions"] == {"parse": [], "users": [opponent]}, b
    # The names do show, made harmless: escaped markdown, mentions with a zero-width space.
    shown = "\n".join(text for _, b in bodies for _, text in texts(b))
    assert "@\u200beveryone \\*\\*bold\\*\\*" in shown
    # (cut at 32 characters before escaping)
    assert f"<\u200b@\u200b&{server.guild_id}> \\|\\|spoile" in shown
    assert "W" * 26 in shown and "W" * 27 not in shown
    assert who["carol"] not in set().union(*(pinged(b) for _, b in bodies))


def show_nowhere_raw(server: LoopbackDiscord) -> None:
    """Stricter than pinging: no text anywhere (embeds, labels, thread names) holds a live
    mention or a name's raw markdown, and every ping names its member explicitly."""
    for call, body in sent(server):
        assert "users" not in (body.get("allowed_mentions") or {}).get("parse", []), \
            (call.path, body.get("content"))
        for where, text in texts(body):
            assert not MASS.search(text), (call.path, where, text)
            plain = where == "label"
            assert plain or not any(m in text for m in MARKDOWN), (call.path, where, text)
    for thread in server.threads():
        assert not MASS.search(thread["name"]) and not HIDDEN.search(thread["name"]), \
            thread["name"]
        assert not LEADING.search(thread["name"]), ascii(thread["name"])
