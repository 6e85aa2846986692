"""Russian names a player without declining the name ("у игрока {name}": a member's nickname
is not declined). A name that is itself a noun read badly so: the terminal's default names
("Комбинации игрока Игрок", "У игрока Компьютер 7 карт", "Партия 3 за игроком Игрок") and the
practice computer's on Discord ("У игрока Компьютер (лёгкий) на руке"), and a member whose name
shows nothing (only "ㅤ"), shown as "Игрок 1" in a match ("Идут часы игрока Игрок 1", "(игрок
Игрок 1 сдался)"). Every text names a player with no noun before it ("{name}: на руке 7
карт"): any member's name may be one of these."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from simcord import Env

from cogs.umtali.turn_clock import clock_line
from data.models import GuildSettings
from tests.discord_helpers import Clock, flush, start_match, table_message, thread_of
from tests.loopback.driver import custom_ids, read_match, start_practice, until
from tests.loopback.harness import russian_member_on_english_server
from tests.test_records_discord import resign, text_of
from tests.test_unnamed_in_records import blank_world
from umtali.catalogue import placeholders, read
from umtali.cli import main
from umtali.i18n import tr_for

#: The terminal's default names, and the practice computer's, in Russian; and a member's
#: whose name shows nothing (only "ㅤ"): by seat in a match, by id in the records.
DEFAULTS = ("Игрок", "Игрок 1", "Игрок 2", "Компьютер", "Соперник", "Компьютер (лёгкий)",
            "Игрок …4821")
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


#: The placeholders that hold a player's name (a score or a count is "7"; ``{a}``, ``{b}``
#: are scores as often as names, and never come after a noun).
NAMES = frozenset({"name", "other", "opponent", "first", "second", "dealer"})


def test_no_russian_text_puts_a_default_name_after_a_noun() -> None:
    bad = []
    for message in read("ru"):
        mid = message.id if isinstance(message.id, str) else message.id[0]
        if not mid:
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


#: "у" before a name wants it declined ("у Маши"), which a nickname is not: "у Компьютер".
BEFORE_A_NAME = re.compile(r"(?<![А-Яа-яЁё])[Уу] \{(" + "|".join(sorted(NAMES)) + r")\}")


def test_no_russian_text_puts_u_before_a_name() -> None:
    """The reserve line said "· у {other} в запасе 4:30" (review136): as the other reserve
    line, "· запас: {other} 4:30"."""
    bad = []
    for message in read("ru"):
        if not message.id:
            continue
        forms = ([message.string] if isinstance(message.string, str)
                 else list(message.string or ()))
        bad += [form for form in forms if BEFORE_A_NAME.search(form)]
    assert not bad, "\n".join(bad)


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
    # Set apart by a dot, as the table's fields are: no colon after the level's brackets,
    # which the field's value followed with a second (review164).
    assert "Компьютер (лёгкий) · на руке" in private, private
    assert "соперник — Компьютер (лёгкий)" in listed, listed
    for shown in (private, listed):
        assert not AFTER_A_NOUN.search(shown), shown


async def test_a_member_whose_name_shows_nothing_is_named_with_no_noun_before(
        simcord_env: Env, clock: Clock) -> None:
    world = blank_world(simcord_env, clock)
    svc = world.bot.matches
    assert svc is not None
    await svc.store.save_guild_settings(GuildSettings(guild_id=world.guild.id, language="ru"))
    await svc.prefs.load()
    live = await start_match(world, time_control="normal")
    table = await table_message(world, live)
    said = [json.dumps([e.to_dict() for e in table.embeds], ensure_ascii=False),
            clock_line(live, tr_for("ru"))]
    again = await world.alice.slash(world.channel, "umtali challenge", opponent=world.bob)
    said.append(str(again.response.content if again.response else ""))
    await resign(world, world.alice, live)
    await flush(world)
    said += [m.content or "" for m in thread_of(world, live).history()]
    said.append(text_of(await world.carol.slash(world.channel, "umtali stats",
                                                member=world.alice, versus=world.bob)))
    said.append(text_of(await world.carol.slash(world.channel, "umtali leaderboard")))
    told = "\n".join(said)
    assert "Ходит Игрок " in told and "сдаётся)" in told, told
    assert "запас: Игрок 1 5 минут, Игрок 2 5 минут" in told, told
    bad = sorted({line for line in told.splitlines() if AFTER_A_NOUN.search(line)})
    assert not bad, "\n".join(bad)
