"""Russian names a player without declining the name ("у игрока {name}": a member's nickname
is not declined). A name that is itself a noun read badly so: the terminal's default names
("Комбинации игрока Игрок", "У игрока Компьютер 7 карт", "Партия 3 за игроком Игрок") and the
practice computer's on Discord ("У игрока Компьютер (лёгкий) на руке"). Every text that can
name one of them names it with no noun before it ("{name}: на руке 7 карт")."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from tests.loopback.driver import custom_ids, read_match, start_practice, until
from tests.loopback.harness import russian_member_on_english_server
from umtali.catalogue import placeholders, read
from umtali.cli import main

#: The terminal's default names, and the practice computer's, in Russian.
DEFAULTS = ("Игрок", "Игрок 1", "Игрок 2", "Компьютер", "Соперник", "Компьютер (лёгкий)")
#: A name put after a noun for a player, undeclined: "игрока Компьютер".
AFTER_A_NOUN = re.compile(r"\b([Ии]грок|[Сс]оперник|[Кк]омпьютер)\w*,? (Игрок|Компьютер|Соперник)")


def _played(argv: list[str]) -> str:
    out = io.StringIO()
    assert main([*argv, "--lang", "ru", "--no-review"], io.StringIO("1\n" * 6000), out) == 0
    said = out.getvalue()
    assert "выигрывает матч" in said[-300:], said[-2000:]  # played to the end
    return said


@pytest.mark.parametrize("argv", [
    ["play", "--seed", "9"],
    ["play", "--seed", "4", "--hotseat", "--no-handover"],
    ["play", "--seed", "9", "--name", "Компьютер"],  # the computer is "Соперник"
])
def test_the_russian_terminal_names_its_default_players_as_names(argv: list[str]) -> None:
    said = _played(argv)
    bad = sorted({line for line in said.splitlines() if AFTER_A_NOUN.search(line)})
    assert not bad, "\n".join(bad[:20])
    # What the old texts said, in their new words.
    if "--hotseat" not in argv and "--name" not in argv:
        assert "Комбинации (Компьютер): " in said
        assert re.search(r"Компьютер: на руке \d+ карт", said), said[:3000]
        assert re.search(r"Партию \d выигрывает (Игрок|Компьютер), \d+:\d+", said)


#: Texts that name a player after a noun and can only name a member, never a default name
#: nor the practice computer (the computer is never out of reach, never asked to wait, never
#: resigns nor runs out of time; a member's stats and challenges name members).
MEMBERS_ONLY = (
    "{name} {how}",
    "{name} wins the session {a}-{b} ({other} {how}).",
    "Head-to-head with {name}",
    "There is already an open challenge between you and {opponent}",
    "This match was abandoned: I could no longer reach",
    "You have challenged {opponent} several times",
    "{opponent} declined your last challenge",
    "{name} has left the server",
    "{name} has not finished a session",
    "{name} is back at the table and playing",
    "{name} keeps waiting: {other}'s turn",
    "{mention}, {name}'s time for this turn is up",
    "The match ended early ({how}): the file has {name}",
    # The clocks run for people only: the computer's turn is never waited for.
    "⏱ {name}'s",
    "I was offline for {count}",
)


#: The placeholders that hold a player's name (a score or a count is "7"; ``{a}``, ``{b}``
#: are scores as often as names, and never come after a noun).
NAMES = frozenset({"name", "other", "opponent", "first", "second", "dealer"})


def test_no_russian_text_puts_a_default_name_after_a_noun() -> None:
    bad = []
    for message in read("ru"):
        mid = message.id if isinstance(message.id, str) else message.id[0]
        if not mid or mid.startswith(MEMBERS_ONLY):
            continue
        forms = ([message.string] if isinstance(message.string, str)
                 else list(message.string or ()))
        for form in forms:
            for name in DEFAULTS:
                said = form.format(**{field: name if field in NAMES else "7"
                                      for field in placeholders(form)})
                if AFTER_A_NOUN.search(said):
                    bad.append(f"{mid!r}: {said}")
    assert not bad, "\n".join(sorted(set(bad)))


def _text(message: dict[str, object]) -> str:
    return str(message.get("content") or "") + json.dumps(message.get("embeds") or [],
                                                          ensure_ascii=False)


async def test_a_russian_member_reads_the_practice_computer_as_a_name(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "umtali.sqlite3"
    async with russian_member_on_english_server(monkeypatch, db) as (server, _, ada):
        saved = await start_practice(server, db, ada)
        panel = await until(lambda: server.dm_messages(ada) and server.dm_messages(ada)[-1],
                            "the hand panel")
        private = _text(panel)
        ask = await server.slash(ada, server.channel_id, "umtali resign", {})
        assert ask.response is not None
        yes = next(c for c in custom_ids(ask.response) if c.endswith(":resign"))
        await server.click(ada, ask.response, yes)
        await until(lambda: (m := read_match(db, saved.id)) is not None
                    and m.status == "finished", "the resignation")
        history = await server.slash(ada, server.channel_id, "umtali history", {})
        assert history.response is not None
        listed = json.dumps(history.response.get("embeds"), ensure_ascii=False)
    assert "Компьютер (лёгкий): на руке" in private, private
    assert "соперник — Компьютер (лёгкий)" in listed, listed
    for shown in (private, listed):
        assert not AFTER_A_NOUN.search(shown), shown
